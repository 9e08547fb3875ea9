// Runs one queued compute job wherever a worker takes it (the gateway or `npm run worker`): claims the row, runs the
// entry on the dataset's tables off the event loop, reports progress, stops on cancel, records how it ended.
import { hostname } from "node:os";
import { AppError } from "../../errors/app-error.ts";
import type { Logger } from "../../server/logger.ts";
import type { Db } from "../../store/prisma.ts";
import { ComputeCancelled, ComputeInputError, type Progress } from "../types.ts";
import type { JobEvent, JobEvents } from "./job-events.ts";
import { eventOf, type JobRow, type JobStatus, paramsOf } from "./job-records.ts";
import { progressWriter, watchCancel } from "./job-watch.ts";

/** One job's work: the entry run on the dataset's current tables, stored as their next version. */
export type RunOnDatasetRequest = {
  datasetId: string;
  label: string;
  entry: { libraries: [string]; alg: string; params: Record<string, unknown>; directed: boolean };
  onProgress: (progress: Progress) => void;
  /** Aborted when the job is cancelled (or the worker stops): the run ends between iterations. */
  signal: AbortSignal;
};
export type RunOnDataset = (request: RunOnDatasetRequest) => Promise<{ dataVersion: string }>;

export type JobRunnerDeps = {
  db: Db;
  events: JobEvents;
  runOnDataset: RunOnDataset;
  /** Told after a job stored a new version of a dataset's tables (live sessions pick it up). */
  onDatasetChanged: (datasetId: string) => Promise<void>;
  logger: Logger;
  /** How often progress is written and published at most. */
  progressIntervalMs?: number;
  /** How often a running job's row is read for a cancel request whose event was missed. */
  cancelPollMs?: number;
};

export type JobRunner = ReturnType<typeof createJobRunner>;

/**
 * How a run ended; "REQUEUED": this worker's shutdown gave it back; "BUSY": another job runs on its dataset, so it
 * was not started (queue it again a little later); null: it was not this worker's to run.
 */
export type RunOutcome = JobStatus | "REQUEUED" | "BUSY" | null;

/** Prisma's unique-constraint failure (P2002), whichever driver adapter reports it. */
function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  return e?.code === "P2002" || /unique constraint/i.test(String(e?.message ?? ""));
}

export type RunOptions = {
  /**
   * The queue guarantees nobody else holds the job (BullMQ hands a job on only when its worker lost it): a row
   * still RUNNING belongs to a worker that died, and is taken over.
   */
  takeOver?: boolean;
  /** A job stopped by this worker's shutdown goes back to QUEUED (answer "REQUEUED") instead of failing. */
  requeueOnShutdown?: boolean;
};

/** The last event of a job whose row was deleted with its dataset. */
const GONE: Omit<JobEvent, "jobId"> = {
  status: "FAILED",
  cancelRequested: false,
  phase: null,
  iteration: null,
  fraction: null,
  errorCode: "NOT_FOUND",
  error: "the dataset was deleted while the job ran",
  dataVersion: null,
};

/** How many times a job runs again when the dataset moved to a new version under it (CONFLICT). */
const CONFLICT_ATTEMPTS = 5;

/** Why a run was aborted by this process rather than by a cancel request. */
const SHUTDOWN = "the compute worker stopped before the job finished";

export function createJobRunner(deps: JobRunnerDeps) {
  const { db, events, logger } = deps;
  const workerId = `${hostname()}:${process.pid}`;
  const progressMs = deps.progressIntervalMs ?? 200;
  const pollMs = deps.cancelPollMs ?? 2_000;
  const running = new Map<string, AbortController>();

  const publish = (row: JobRow) => events.publish("computeJob:changed", row.id, eventOf(row));

  async function update(id: string, data: Parameters<Db["computeJob"]["update"]>[0]["data"]): Promise<JobRow> {
    const row = await db.computeJob.update({ where: { id }, data });
    publish(row);
    return row;
  }

  function failure(error: unknown): { errorCode: string; error: string } {
    if (error instanceof AppError) return { errorCode: error.code, error: error.message };
    if (error instanceof ComputeInputError) return { errorCode: "INVALID_INPUT", error: error.message };
    return { errorCode: "INTERNAL", error: "the computation failed" };
  }

  /**
   * Runs job `id` if it is still queued and not cancelled (a cancelled or already taken job is left alone), and
   * no other job runs on its dataset. Answers how it ended (see RunOutcome).
   */
  async function run(id: string, options: RunOptions = {}): Promise<RunOutcome> {
    let claimed: { count: number };
    try {
      claimed = await db.computeJob.updateMany({
        where: { id, status: options.takeOver ? { in: ["QUEUED", "RUNNING"] } : "QUEUED", cancelRequested: false },
        data: { status: "RUNNING", startedAt: new Date(), workerId, phase: "starting" },
      });
    } catch (error) {
      // Another job runs on the same dataset (one at a time: the migration's unique index): try again later.
      if (isUniqueViolation(error)) return "BUSY";
      throw error;
    }
    if (claimed.count === 0) {
      // Its worker is gone (the queue handed it on) and a cancel request came meanwhile: nobody else will end it.
      if (options.takeOver) {
        const ended = await db.computeJob.updateMany({
          where: { id, status: "RUNNING", cancelRequested: true },
          data: { status: "CANCELLED", phase: "cancelled", finishedAt: new Date() },
        });
        if (ended.count > 0) publish(await db.computeJob.findUniqueOrThrow({ where: { id } }));
      }
      return null;
    }
    const controller = new AbortController();
    running.set(id, controller);
    const stopWatching = watchCancel({ db, events, id, controller, pollMs });
    const progress = progressWriter(
      (data) => update(id, data),
      progressMs,
      (error) => logger.warn("compute job progress", { id, error: String(error) }),
    );
    try {
      const job = await db.computeJob.findUniqueOrThrow({ where: { id } });
      publish(job);
      // A cancel request that landed between the claim and the watch.
      if (job.cancelRequested) controller.abort();
      let result: { dataVersion: string } | undefined;
      let failed: unknown;
      try {
        for (let attempt = 1; !result; attempt++) {
          controller.signal.throwIfAborted();
          try {
            result = await deps.runOnDataset({
              datasetId: job.datasetId,
              label: job.label,
              entry: { libraries: [job.library], alg: job.alg, params: paramsOf(job), directed: job.directed },
              onProgress: (p) => progress.report(p),
              signal: controller.signal,
            });
          } catch (error) {
            // Another job stored a version while this one ran on the one before: run again on the new one.
            if (!(error instanceof AppError && error.code === "CONFLICT") || attempt >= CONFLICT_ATTEMPTS) throw error;
            progress.report({ phase: "the dataset changed meanwhile: running again", iteration: attempt });
          }
        }
      } catch (error) {
        failed = error;
      }
      await progress.done();
      const finishedAt = new Date();
      if (result) {
        await deps
          .onDatasetChanged(job.datasetId)
          .catch((error: unknown) => logger.warn("compute job: live sessions not told", { id, error: String(error) }));
        await update(id, { status: "SUCCEEDED", dataVersion: result.dataVersion, phase: "done", fraction: 1, finishedAt });
        return "SUCCEEDED";
      }
      if (controller.signal.aborted && controller.signal.reason === SHUTDOWN) {
        if (options.requeueOnShutdown) {
          // Back in the queue for another worker (the caller hands the queue entry back).
          await update(id, { status: "QUEUED", phase: null, iteration: null, fraction: null, startedAt: null, workerId: null });
          return "REQUEUED";
        }
        await update(id, { status: "FAILED", errorCode: "UNAVAILABLE", error: SHUTDOWN, finishedAt });
        return "FAILED";
      }
      if (controller.signal.aborted || failed instanceof ComputeCancelled) {
        await update(id, { status: "CANCELLED", phase: "cancelled", finishedAt });
        return "CANCELLED";
      }
      const { errorCode, error } = failure(failed);
      if (errorCode === "INTERNAL") logger.error("compute job failed", { id, error: String(failed), stack: (failed as Error)?.stack });
      await update(id, { status: "FAILED", errorCode, error, finishedAt });
      return "FAILED";
    } catch (error) {
      // The row went with its dataset (deleted while the job ran): those following the job still hear it ended.
      if (await db.computeJob.findUnique({ where: { id }, select: { id: true } }).catch(() => null)) throw error;
      events.publish("computeJob:changed", id, { ...GONE, jobId: id });
      return "FAILED";
    } finally {
      stopWatching();
      running.delete(id);
    }
  }

  /** Stops this process's running jobs (shutdown): each goes back to QUEUED (requeueOnShutdown), else ends FAILED (UNAVAILABLE). */
  function stopAll(): void {
    for (const controller of running.values()) controller.abort(SHUTDOWN);
  }

  /** Aborts a job this process runs (a cancel request made here: no need to wait for the event). */
  function abort(id: string): void {
    running.get(id)?.abort();
  }

  return { run, stopAll, abort, workerId, running: () => running.size };
}
