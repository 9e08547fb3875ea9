-- Live layout jobs of sessions (one per session) and the default layout a finished one leaves on its dataset (SQLite).
ALTER TABLE "datasets" ADD COLUMN "default_layout" TEXT;

CREATE TABLE "session_layout_jobs" (
    "session_id" TEXT NOT NULL PRIMARY KEY,
    "state" TEXT NOT NULL,
    "library" TEXT NOT NULL,
    "algorithm" TEXT NOT NULL,
    "params" TEXT NOT NULL DEFAULT '{}',
    "directed" BOOLEAN NOT NULL DEFAULT false,
    "iteration" INTEGER NOT NULL DEFAULT 0,
    "max_iter" INTEGER NOT NULL DEFAULT 0,
    "node_count" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "instance_id" TEXT,
    "heartbeat_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL,
    CONSTRAINT "session_layout_jobs_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "viz_sessions" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
