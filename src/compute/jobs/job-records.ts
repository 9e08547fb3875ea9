// Compute job rows as services and resolvers see them: status names, the event a row stands for, parsed params.
import type { ComputeJob } from "../../../prisma/generated/sqlite/client.ts";
import type { JobEvent } from "./job-events.ts";

export const JOB_STATUSES = ["QUEUED", "RUNNING", "SUCCEEDED", "FAILED", "CANCELLED"] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export type JobRow = ComputeJob;

/** Whether a job in this status will change no more. */
export const isFinished = (status: string): boolean => status === "SUCCEEDED" || status === "FAILED" || status === "CANCELLED";

export function asStatus(value: string): JobStatus {
  return (JOB_STATUSES as readonly string[]).includes(value) ? (value as JobStatus) : "FAILED";
}

/** The event that announces a row as it now stands. */
export function eventOf(row: JobRow): JobEvent {
  return {
    jobId: row.id,
    status: asStatus(row.status),
    cancelRequested: row.cancelRequested,
    phase: row.phase,
    iteration: row.iteration,
    fraction: row.fraction,
    errorCode: row.errorCode,
    error: row.error,
    dataVersion: row.dataVersion,
  };
}

/** The parameters as requested (JSON text in the row). */
export function paramsOf(row: Pick<JobRow, "params">): Record<string, unknown> {
  const parsed: unknown = JSON.parse(row.params);
  return parsed !== null && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
}
