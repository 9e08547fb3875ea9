-- Compute jobs: an algorithm run on a dataset, queued and run by a worker (PostgreSQL).
CREATE TABLE "compute_jobs" (
    "id" TEXT NOT NULL,
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
    "fraction" DOUBLE PRECISION,
    "error_code" TEXT,
    "error" TEXT,
    "data_version" TEXT,
    "worker_id" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMP(3),
    "finished_at" TIMESTAMP(3),
    "updated_at" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "compute_jobs_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "compute_jobs_dataset_id_fkey" FOREIGN KEY ("dataset_id") REFERENCES "datasets"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "compute_jobs_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "compute_jobs_dataset_id_idx" ON "compute_jobs"("dataset_id");
CREATE INDEX "compute_jobs_owner_id_idx" ON "compute_jobs"("owner_id");
