// Where queued compute jobs wait: the interface both queues share, and the in-process one (no REDIS_URL).

export type JobQueue = {
  kind: "in-process" | "bullmq";
  /** Queues a job that is in the database as QUEUED. */
  enqueue(jobId: string): Promise<void>;
  /** Takes a waiting job out of the queue (a cancelled one); a taken one is left to its worker. */
  remove(jobId: string): Promise<void>;
  /** Stops taking jobs and waits for the running ones to end. */
  close(): Promise<void>;
  /** Resolves once the queue (and its worker, if any) is up. */
  ready?: Promise<void>;
};

/** How long a job whose dataset is busy waits before it is tried again. */
export const BUSY_RETRY_MS = 500;

/** Runs jobs in this process, `concurrency` at a time, in the order they came; a job answered "BUSY" is tried again later. */
export function createInProcessQueue(run: (jobId: string) => Promise<unknown>, concurrency: number): JobQueue {
  const waiting: string[] = [];
  const active = new Set<Promise<unknown>>();
  let closed = false;

  async function queueJob(jobId: string): Promise<void> {
    if (closed || waiting.includes(jobId)) return;
    waiting.push(jobId);
    pump();
  }

  function pump(): void {
    while (!closed && active.size < concurrency && waiting.length > 0) {
      const id = waiting.shift() as string;
      // run() records every failure on the job itself; nothing here to rethrow to.
      const task: Promise<unknown> = run(id)
        .then((outcome) => {
          if (outcome === "BUSY" && !closed) setTimeout(() => void queueJob(id), BUSY_RETRY_MS).unref();
        })
        .catch(() => {})
        .finally(() => {
          active.delete(task);
          pump();
        });
      active.add(task);
    }
  }

  return {
    kind: "in-process",
    enqueue: queueJob,
    async remove(jobId) {
      const at = waiting.indexOf(jobId);
      if (at >= 0) waiting.splice(at, 1);
    },
    async close() {
      // Those still waiting stay QUEUED in the database (see recover.ts).
      closed = true;
      waiting.length = 0;
      await Promise.allSettled([...active]);
    },
  };
}
