// A pool of GFQL worker threads with a time limit: a query past it is stopped by ending its thread.
import { Worker } from "node:worker_threads";
import { AppError, type AppErrorCode, isAppErrorCode } from "../../errors/app-error.ts";
import type { QueryAnswer, QueryFailure, QueryJob } from "./run-query.ts";

type Slot = { worker: Worker; busy: boolean };
type Waiting = { job: QueryJob; resolve(answer: QueryAnswer): void; reject(error: unknown): void };

const ENTRY = new URL("./worker-entry.ts", import.meta.url);

export type QueryPool = ReturnType<typeof createQueryPool>;

export function createQueryPool(options: { size: number; timeoutMs: number; cacheBytes?: number; maxIntermediateRows?: number }) {
  const slots: Slot[] = [];
  const queue: Waiting[] = [];
  let nextId = 0;
  let closed = false;

  const spawn = (): Slot => {
    const slot: Slot = {
      worker: new Worker(ENTRY, { workerData: { cacheBytes: options.cacheBytes ?? 0, maxIntermediateRows: options.maxIntermediateRows } }),
      busy: false,
    };
    // Workers that sit idle must not keep the process alive.
    slot.worker.unref();
    return slot;
  };

  function dispatch(): void {
    if (closed) return;
    const waiting = queue.shift();
    if (!waiting) return;
    let slot = slots.find((s) => !s.busy);
    if (!slot && slots.length < options.size) {
      slot = spawn();
      slots.push(slot);
    }
    if (!slot) {
      queue.unshift(waiting);
      return;
    }
    run(slot, waiting);
  }

  function run(slot: Slot, waiting: Waiting): void {
    const id = nextId++;
    slot.busy = true;
    const finish = () => {
      clearTimeout(timer);
      slot.worker.off("message", onMessage);
      slot.worker.off("error", onError);
      slot.busy = false;
      dispatch();
    };
    const onMessage = (message: { id: number; answer?: QueryAnswer; failure?: QueryFailure }) => {
      if (message.id !== id) return;
      finish();
      if (message.answer) waiting.resolve(message.answer);
      else {
        const failure = message.failure;
        const code: AppErrorCode = isAppErrorCode(failure?.code) ? failure.code : "INTERNAL";
        waiting.reject(new AppError(code, failure?.message ?? "query failed", failure?.details ? { details: failure.details } : {}));
      }
    };
    const onError = (error: Error) => {
      finish();
      replace(slot);
      waiting.reject(error);
    };
    const limitMs = Math.min(options.timeoutMs, waiting.job.timeoutMs ?? Number.POSITIVE_INFINITY);
    const timer = setTimeout(() => {
      slot.worker.off("message", onMessage);
      slot.worker.off("error", onError);
      // Ending the thread is what really stops the work.
      replace(slot);
      waiting.reject(new AppError("TIMEOUT", `the query ran past its ${limitMs} ms limit and was stopped`));
      dispatch();
    }, limitMs);
    slot.worker.on("message", onMessage);
    slot.worker.on("error", onError);
    slot.worker.postMessage({ id, job: waiting.job });
  }

  function replace(slot: Slot): void {
    void slot.worker.terminate();
    const index = slots.indexOf(slot);
    if (index >= 0) slots.splice(index, 1);
  }

  return {
    run(job: QueryJob): Promise<QueryAnswer> {
      if (closed) return Promise.reject(new AppError("UNAVAILABLE", "the query pool is closed"));
      return new Promise((resolve, reject) => {
        queue.push({ job, resolve, reject });
        dispatch();
      });
    },
    async close(): Promise<void> {
      closed = true;
      await Promise.all(slots.map((s) => s.worker.terminate()));
      slots.length = 0;
    },
  };
}
