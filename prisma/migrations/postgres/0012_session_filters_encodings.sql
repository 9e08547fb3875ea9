-- Filters and encodings shared through a live session (JSON text; postgres).
ALTER TABLE "viz_sessions" ADD COLUMN "filters" TEXT;
ALTER TABLE "viz_sessions" ADD COLUMN "encodings" TEXT;
