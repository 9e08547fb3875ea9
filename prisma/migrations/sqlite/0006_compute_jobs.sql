-- Compute jobs: an algorithm run on a dataset, queued and run by a worker (SQLite).
CREATE TABLE "compute_jobs" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "dataset_id" TEXT NOT NULL,
    "owner_id" INTEGER NOT NULL,
    "label" TEXT NOT NULL,
    "library" TEXT NOT NULL,
    "alg" TEXT NOT NULL,
    "params" TEXT NOT NULL DEFAULT '{}',
    "directed" BOOLEAN NOT NULL DEFAULT true,
    "status" TEXT NOT NULL DEFAULT 'QUEUED',
    "cancel_requested" BOOLEAN NOT NULL DEFAULT false,
    "phase" TEXT,
    "iteration" INTEGER,
    "fraction" REAL,
    "error_code" TEXT,
    "error" TEXT,
    "data_version" TEXT,
    "worker_id" TEXT,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" DATETIME,
    "finished_at" DATETIME,
    "updated_at" DATETIME NOT NULL,
    CONSTRAINT "compute_jobs_dataset_id_fkey" FOREIGN KEY ("dataset_id") REFERENCES "datasets" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "compute_jobs_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "compute_jobs_dataset_id_idx" ON "compute_jobs"("dataset_id");
CREATE INDEX "compute_jobs_owner_id_idx" ON "compute_jobs"("owner_id");
