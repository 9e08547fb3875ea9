-- At most one compute job runs on a dataset at a time: each writes the dataset's next table version from the
-- current one, so two at once would lose one's columns. Workers that find the dataset busy wait (PostgreSQL).
CREATE UNIQUE INDEX "compute_jobs_one_running_idx" ON "compute_jobs"("dataset_id") WHERE "status" = 'RUNNING';
