// The compute job queue on Redis (BullMQ), so that `npm run worker` processes on other machines take the jobs; the
// gateway adds them and, unless told not to, works on them too.
import type { Logger } from "../../server/logger.ts";
import { BUSY_RETRY_MS, type JobQueue } from "./job-queue.ts";
import type { RunOptions, RunOutcome } from "./job-runner.ts";

export type BullQueueOptions = {
  redisUrl: string;
  /** The queue's name: processes sharing one database must share it, and those that do not, must not. */
  name: string;
  /** Whether this process takes jobs (a worker), or only adds them. */
  work: boolean;
  concurrency: number;
  run: (jobId: string, options: RunOptions) => Promise<RunOutcome>;
  logger: Logger;
};

type Payload = { jobId: string };

/**
 * A job's own failures end on its row, never as a failed attempt: an attempt fails only when a stopping worker
 * gives the job back, and it may be given back this many times.
 */
const ATTEMPTS = 20;

/** How long close waits for BullMQ to finish gracefully (a running job stops at its next check well within it). */
const CLOSE_GRACE_MS = 5_000;

/** BullMQ refuses ids that read as integers: ours are prefixed. */
const bullId = (jobId: string) => `job-${jobId}`;

/** BullMQ itself is loaded only by processes that use it (REDIS_URL): it costs about 90 ms at start. */
export function createBullQueue(options: BullQueueOptions): JobQueue & { ready: Promise<void> } {
  // BullMQ's blocking connections must retry forever rather than fail a command.
  const connection = { url: options.redisUrl, maxRetriesPerRequest: null };
  const parts = (async () => {
    const { DelayedError, Queue, Worker } = await import("bullmq");
    const queue = new Queue<Payload>(options.name, { connection });
    queue.on("error", (error) => options.logger.warn("compute queue", { error: String(error) }));
    const worker = options.work
      ? new Worker<Payload>(
          options.name,
          async (job, token) => {
            const ended = await options.run(job.data.jobId, { takeOver: true, requeueOnShutdown: true });
            // Failing the attempt puts the entry back in the queue for another worker (see ATTEMPTS).
            if (ended === "REQUEUED") throw new Error("the worker stopped: the job goes back to the queue");
            // Another job runs on the dataset: this one waits a little, in Redis, for any worker.
            if (ended === "BUSY") {
              await job.moveToDelayed(Date.now() + BUSY_RETRY_MS, token);
              throw new DelayedError();
            }
          },
          { connection, concurrency: options.concurrency },
        )
      : undefined;
    worker?.on("error", (error) => options.logger.warn("compute worker", { error: String(error) }));
    return { queue, worker };
  })();

  // A failure shows at each use (a job then fails UNAVAILABLE); it must not end the process unawaited.
  parts.catch((error: unknown) => options.logger.error("compute queue did not start", { error: String(error) }));
  const ready = parts.then(() => {});
  ready.catch(() => {});

  return {
    kind: "bullmq",
    ready,
    async enqueue(jobId) {
      const { queue } = await parts;
      await queue.add("compute", { jobId }, { jobId: bullId(jobId), attempts: ATTEMPTS, removeOnComplete: 1000, removeOnFail: 1000 });
    },
    async remove(jobId) {
      // A job a worker holds is locked and stays: its worker sees the cancel request.
      const { queue } = await parts;
      await queue.remove(bullId(jobId)).catch(() => 0);
    },
    async close() {
      const { queue, worker } = await parts;
      // With Redis unreachable a graceful close waits for a connection forever: past the grace, drop the sockets.
      const within = <T>(work: Promise<T>, ms: number) =>
        Promise.race([work.then(() => true), new Promise<false>((done) => setTimeout(() => done(false), ms).unref())]);
      if (await within(Promise.all([worker?.close(), queue.close()]), CLOSE_GRACE_MS)) return;
      // (a disconnect may wait on the dead server too: it is given a second, then left to finish on its own)
      await within(Promise.allSettled([worker?.disconnect(), queue.disconnect()]), 1_000);
    },
  };
}
