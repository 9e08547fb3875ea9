-- Single-use login links (spec 5.6) and the dataset a browser session is limited to when one opened it (SQLite).
CREATE TABLE "single_use_links" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "user_id" INTEGER NOT NULL,
    "dataset_id" TEXT NOT NULL,
    "created_by_id" INTEGER,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" DATETIME NOT NULL,
    "used_at" DATETIME,
    CONSTRAINT "single_use_links_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "single_use_links_dataset_id_fkey" FOREIGN KEY ("dataset_id") REFERENCES "datasets" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "single_use_links_user_id_idx" ON "single_use_links"("user_id");
CREATE INDEX "single_use_links_created_at_idx" ON "single_use_links"("created_at");

ALTER TABLE "browser_sessions" ADD COLUMN "grant_dataset_id" TEXT;
