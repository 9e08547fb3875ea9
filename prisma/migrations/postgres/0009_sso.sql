-- Single sign-on with OpenID Connect: providers, linked identities and sign-in attempts (PostgreSQL).
CREATE TABLE "sso_providers" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "display_name" TEXT NOT NULL DEFAULT '',
    "organization_id" INTEGER,
    "issuer" TEXT NOT NULL,
    "client_id" TEXT NOT NULL,
    "client_secret_enc" TEXT NOT NULL,
    "allowed_domains" TEXT NOT NULL DEFAULT '[]',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "sso_providers_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "sso_providers_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "sso_providers_name_key" ON "sso_providers"("name");
CREATE INDEX "sso_providers_organization_id_idx" ON "sso_providers"("organization_id");

CREATE TABLE "sso_identities" (
    "id" SERIAL NOT NULL,
    "issuer" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "user_id" INTEGER NOT NULL,
    "email" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "sso_identities_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "sso_identities_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "sso_identities_issuer_subject_key" ON "sso_identities"("issuer", "subject");
CREATE INDEX "sso_identities_user_id_idx" ON "sso_identities"("user_id");

CREATE TABLE "sso_logins" (
    "id" TEXT NOT NULL,
    "provider_id" INTEGER NOT NULL,
    "code_verifier" TEXT NOT NULL,
    "nonce" TEXT NOT NULL,
    "redirect_uri" TEXT NOT NULL,
    "client_type" TEXT NOT NULL DEFAULT 'browser',
    "next" TEXT NOT NULL DEFAULT '/',
    "status" TEXT NOT NULL DEFAULT 'pending',
    "user_id" INTEGER,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "sso_logins_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "sso_logins_provider_id_fkey" FOREIGN KEY ("provider_id") REFERENCES "sso_providers"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "sso_logins_expires_at_idx" ON "sso_logins"("expires_at");
