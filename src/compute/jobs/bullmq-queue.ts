// The compute job queue on Redis (BullMQ), so that `npm run worker` processes on other machines take the jobs; the
// gateway adds them and, unless told not to, works on them too.
import { Queue, Worker } from "bullmq";
import type { Logger } from "../../server/logger.ts";
import type { JobQueue } from "./job-queue.ts";

export type BullQueueOptions = {
  redisUrl: string;
  /** The queue's name: processes sharing one database must share it, and those that do not, must not. */
  name: string;
  /** Whether this process takes jobs (a worker), or only adds them. */
  work: boolean;
  concurrency: number;
  run: (jobId: string) => Promise<unknown>;
  logger: Logger;
};

type Payload = { jobId: string };

/** BullMQ refuses ids that read as integers: ours are prefixed. */
const bullId = (jobId: string) => `job-${jobId}`;

export function createBullQueue(options: BullQueueOptions): JobQueue & { worker: Worker<Payload> | undefined } {
  // BullMQ's blocking connections must retry forever rather than fail a command.
  const connection = { url: options.redisUrl, maxRetriesPerRequest: null };
  const queue = new Queue<Payload>(options.name, { connection });
  queue.on("error", (error) => options.logger.warn("compute queue", { error: String(error) }));
  const worker = options.work
    ? new Worker<Payload>(
        options.name,
        async (job) => {
          await options.run(job.data.jobId);
        },
        { connection, concurrency: options.concurrency },
      )
    : undefined;
  worker?.on("error", (error) => options.logger.warn("compute worker", { error: String(error) }));

  return {
    kind: "bullmq",
    worker,
    async enqueue(jobId) {
      await queue.add("compute", { jobId }, { jobId: bullId(jobId), attempts: 1, removeOnComplete: 1000, removeOnFail: 1000 });
    },
    async remove(jobId) {
      // A job a worker holds is locked and stays: its worker sees the cancel request.
      await queue.remove(bullId(jobId)).catch(() => 0);
    },
    async close() {
      await worker?.close();
      await queue.close();
    },
  };
}
