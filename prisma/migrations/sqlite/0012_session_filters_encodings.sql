-- Filters and encodings shared through a live session (JSON text; sqlite).
ALTER TABLE "viz_sessions" ADD COLUMN "filters" TEXT;
ALTER TABLE "viz_sessions" ADD COLUMN "encodings" TEXT;
