// The compute job queue on Redis (BullMQ), so that `npm run worker` processes on other machines take the jobs; the
// gateway adds them and, unless told not to, works on them too.
import type { Logger } from "../../server/logger.ts";
import { redisUnavailable } from "../../store/redis.ts";
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

/**
 * How long adding (or taking out) a job may wait for Redis: BullMQ's connections queue commands while Redis is away
 * (they must, for its blocking ones), so without a bound a request would wait for Redis to come back.
 */
const COMMAND_WAIT_MS = 3_000;

/** Redis unreachable: reconnect every second at most (BullMQ's own default backs off to 20 s). */
const RECONNECT_DELAY_MS = 1_000;

/** While Redis is away each connection reports every attempt: one line per source this often is enough. */
const ERROR_LOG_EVERY_MS = 30_000;

/** `work`, or an UNAVAILABLE (Redis) failure when it did not settle within `ms` (its outcome is then ignored). */
function bounded<T>(work: Promise<T>, ms: number): Promise<T> {
  work.catch(() => {});
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(redisUnavailable(new Error(`the job queue's Redis did not answer within ${ms} ms`))), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** BullMQ refuses ids that read as integers: ours are prefixed. */
const bullId = (jobId: string) => `job-${jobId}`;

/** BullMQ itself is loaded only by processes that use it (REDIS_URL): it costs about 90 ms at start. */
export function createBullQueue(options: BullQueueOptions): JobQueue & { ready: Promise<void> } {
  // BullMQ's blocking connections must retry forever rather than fail a command.
  const connection = {
    url: options.redisUrl,
    maxRetriesPerRequest: null,
    retryStrategy: (times: number) => Math.min(times * 100, RECONNECT_DELAY_MS),
  };
  const lastLogged = new Map<string, number>();
  const warn = (source: string) => (error: unknown) => {
    const now = Date.now();
    if (now - (lastLogged.get(source) ?? Number.NEGATIVE_INFINITY) < ERROR_LOG_EVERY_MS) return;
    lastLogged.set(source, now);
    options.logger.warn(source, { error: String(error), note: `repeats are not logged for ${ERROR_LOG_EVERY_MS / 1000} s` });
  };
  const parts = (async () => {
    const { DelayedError, Queue, Worker } = await import("bullmq");
    const queue = new Queue<Payload>(options.name, { connection });
    queue.on("error", warn("compute queue"));
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
    worker?.on("error", warn("compute worker"));
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
      // Redis away: fails (UNAVAILABLE) within COMMAND_WAIT_MS; the caller marks the job FAILED, so should the add
      // still reach Redis later, no worker runs it (a worker takes QUEUED jobs only).
      const { queue } = await bounded(parts, COMMAND_WAIT_MS);
      const options = { jobId: bullId(jobId), attempts: ATTEMPTS, removeOnComplete: 1000, removeOnFail: 1000 };
      await bounded(queue.add("compute", { jobId }, options), COMMAND_WAIT_MS);
    },
    async remove(jobId) {
      // A job a worker holds is locked and stays: its worker sees the cancel request. Redis away: the entry stays,
      // and the worker that takes it finds the job CANCELLED and skips it.
      const { queue } = await bounded(parts, COMMAND_WAIT_MS).catch(() => ({ queue: undefined }));
      await (queue && bounded(queue.remove(bullId(jobId)), COMMAND_WAIT_MS).catch(() => 0));
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
