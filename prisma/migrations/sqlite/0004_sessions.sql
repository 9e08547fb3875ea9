-- Browser sign-in sessions, live visualization sessions, dataset sharing (SQLite).
ALTER TABLE "datasets" ADD COLUMN "sharing_mode" TEXT NOT NULL DEFAULT 'private';

CREATE TABLE "browser_sessions" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "user_id" INTEGER NOT NULL,
    "expires_at" DATETIME NOT NULL,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "browser_sessions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "browser_sessions_user_id_idx" ON "browser_sessions"("user_id");

CREATE TABLE "viz_sessions" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "dataset_id" TEXT NOT NULL,
    "owner_id" INTEGER NOT NULL,
    "revision_number" INTEGER NOT NULL DEFAULT 1,
    "layout_version" TEXT,
    "owner_seen_at" DATETIME,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL,
    CONSTRAINT "viz_sessions_dataset_id_fkey" FOREIGN KEY ("dataset_id") REFERENCES "datasets" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "viz_sessions_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "viz_sessions_dataset_id_idx" ON "viz_sessions"("dataset_id");
CREATE INDEX "viz_sessions_owner_id_idx" ON "viz_sessions"("owner_id");
