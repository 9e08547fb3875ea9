-- Collections of live sessions, and the per-account switch for the assistant tool endpoint (SQLite).
ALTER TABLE "users" ADD COLUMN "assistant_enabled" BOOLEAN NOT NULL DEFAULT true;

CREATE TABLE "viz_collections" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "session_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "query" TEXT NOT NULL,
    "node_color" TEXT,
    "palette" TEXT,
    "position" INTEGER NOT NULL,
    "match_count" INTEGER,
    "node_count" INTEGER,
    "edge_count" INTEGER,
    "match_blob" TEXT,
    "data_version" TEXT,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL,
    CONSTRAINT "viz_collections_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "viz_sessions" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "viz_collections_session_id_name_key" ON "viz_collections"("session_id", "name");
CREATE INDEX "viz_collections_session_id_idx" ON "viz_collections"("session_id");
