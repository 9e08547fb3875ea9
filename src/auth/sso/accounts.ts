// The account an SSO sign-in stands for: found by the issuer's subject (never by e-mail), or created, then made
// a member of the provider's organization. A provider with allowed domains admits only verified e-mails in them.
import { AppError } from "../../errors/app-error.ts";
import type { Db } from "../../store/prisma.ts";
import type { OidcClaims } from "./oidc-client.ts";
import type { ProviderView } from "./providers.ts";

const USERNAME_CHARS = /[^A-Za-z0-9_.@+-]/g;

/** FORBIDDEN unless the provider allows any domain, or the e-mail is verified and in an allowed domain. */
export function checkDomain(provider: Pick<ProviderView, "allowedDomains" | "name">, claims: OidcClaims): void {
  if (provider.allowedDomains.length === 0) return;
  const domain = claims.email.split("@")[1] ?? "";
  if (!claims.email || !claims.emailVerified) {
    throw new AppError("FORBIDDEN", `provider "${provider.name}" admits only verified e-mail addresses; the identity provider sent none`, {
      details: { reason: "email_not_verified" },
    });
  }
  if (!provider.allowedDomains.includes(domain)) {
    throw new AppError("FORBIDDEN", `e-mail domain "${domain}" is not allowed to sign in with provider "${provider.name}"`, {
      details: { reason: "domain_not_allowed", domain },
    });
  }
}

async function freeUsername(db: Db, claims: OidcClaims): Promise<string> {
  const base =
    [claims.preferredUsername, claims.emailVerified ? (claims.email.split("@")[0] ?? "") : "", `sso-${claims.subject}`]
      .map((candidate) => candidate.replace(USERNAME_CHARS, "").slice(0, 120))
      .find((candidate) => candidate !== "") ?? "sso-user";
  for (let n = 0; n < 1000; n += 1) {
    const username = n === 0 ? base : `${base}-${n + 1}`;
    if (!(await db.user.findUnique({ where: { username }, select: { id: true } }))) return username;
  }
  throw new AppError("CONFLICT", `no free username near "${base}"`);
}

const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === "P2002";

export async function accountFor(db: Db, provider: ProviderView, claims: OidcClaims): Promise<{ id: number; username: string }> {
  checkDomain(provider, claims);
  const where = { issuer_subject: { issuer: provider.issuer, subject: claims.subject } };
  let identity = await db.ssoIdentity.findUnique({ where, include: { user: true } });
  if (!identity) {
    const username = await freeUsername(db, claims);
    try {
      identity = await db.$transaction(async (tx) => {
        const user = await tx.user.create({
          data: { username, name: claims.name, email: claims.emailVerified ? claims.email : "" },
        });
        return tx.ssoIdentity.create({
          data: { issuer: provider.issuer, subject: claims.subject, userId: user.id, email: claims.email },
          include: { user: true },
        });
      });
    } catch (error) {
      // The same subject signing in twice at once: the other sign-in created the account.
      if (!isUniqueViolation(error)) throw error;
      identity = await db.ssoIdentity.findUnique({ where, include: { user: true } });
      if (!identity) throw error;
    }
  }
  const { user } = identity;
  if (!user.isActive) throw new AppError("FORBIDDEN", "this account is disabled", { details: { reason: "inactive" } });
  if (provider.organization !== null) {
    const org = await db.organization.findUnique({ where: { slug: provider.organization }, select: { id: true } });
    if (org) {
      await db.membership.upsert({
        where: { userId_organizationId: { userId: user.id, organizationId: org.id } },
        update: {},
        create: { userId: user.id, organizationId: org.id, role: "member" },
      });
    }
  }
  return { id: user.id, username: user.username };
}
