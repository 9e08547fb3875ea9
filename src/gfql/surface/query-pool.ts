// A pool of GFQL worker threads with a time limit: a query past it is stopped by ending its thread.
//
// Each worker is handed up to PIPELINE jobs at once and runs them in order: when the main thread is busy (serving
// many clients), a worker that finishes one query starts the next at once instead of waiting for the main thread
// to hand it over. A job's time limit runs from when it is handed to a worker; a job that times out while still
// queued in the worker is skipped there (the worker checks its deadline before starting it), and should the
// worker have started it just before its deadline, the thread is ended as soon as it says so.
import { Worker } from "node:worker_threads";
import { AppError, type AppErrorCode, isAppErrorCode } from "../../errors/app-error.ts";
import type { QueryAnswer, QueryFailure, QueryJob } from "./run-query.ts";

type Waiting = { job: QueryJob; resolve(answer: QueryAnswer): void; reject(error: unknown): void };
type InFlight = { id: number; waiting: Waiting; timer: NodeJS.Timeout };
/** The jobs handed to a worker, oldest (the one running) first. */
type Slot = { worker: Worker; inFlight: InFlight[] };

/** Jobs handed to one worker at a time. */
const PIPELINE = 4;

const ENTRY = new URL("./worker-entry.ts", import.meta.url);

export type QueryPool = ReturnType<typeof createQueryPool>;

/**
 * What the worker says of a job: that it starts it, its answer, a failure, or that the job's deadline had passed
 * before it came to it.
 */
export type WorkerReply = { id: number; started?: true; answer?: QueryAnswer; failure?: QueryFailure; expired?: true };

export function createQueryPool(options: { size: number; timeoutMs: number; cacheBytes?: number; maxIntermediateRows?: number }) {
  const slots: Slot[] = [];
  const queue: Waiting[] = [];
  let nextId = 0;
  let closed = false;

  function spawn(): Slot {
    const slot: Slot = {
      worker: new Worker(ENTRY, { workerData: { cacheBytes: options.cacheBytes ?? 0, maxIntermediateRows: options.maxIntermediateRows } }),
      inFlight: [],
    };
    // Workers that sit idle must not keep the process alive.
    slot.worker.unref();
    slot.worker.on("message", (reply: WorkerReply) => settle(slot, reply));
    slot.worker.on("error", (error: Error) => {
      // The running job is the one that broke the thread; the others are handed to another worker.
      const [running, ...rest] = slot.inFlight;
      replace(slot, rest);
      running?.waiting.reject(error);
    });
    return slot;
  }

  /** A slot with room: an idle one, else a new one while under the size, else the least loaded with room. */
  function slotWithRoom(): Slot | undefined {
    const idle = slots.find((s) => s.inFlight.length === 0);
    if (idle) return idle;
    if (slots.length < options.size) {
      const slot = spawn();
      slots.push(slot);
      return slot;
    }
    const open = slots.filter((s) => s.inFlight.length < PIPELINE);
    return open.sort((a, b) => a.inFlight.length - b.inFlight.length)[0];
  }

  function dispatch(): void {
    while (!closed && queue.length > 0) {
      const slot = slotWithRoom();
      if (!slot) return;
      hand(slot, queue.shift() as Waiting);
    }
  }

  function hand(slot: Slot, waiting: Waiting): void {
    const id = nextId++;
    const limitMs = Math.min(options.timeoutMs, waiting.job.timeoutMs ?? Number.POSITIVE_INFINITY);
    const timer = setTimeout(() => expire(slot, id, limitMs), limitMs);
    slot.inFlight.push({ id, waiting, timer });
    slot.worker.postMessage({ id, job: waiting.job, deadline: Date.now() + limitMs });
  }

  function settle(slot: Slot, reply: WorkerReply): void {
    const index = slot.inFlight.findIndex((f) => f.id === reply.id);
    if (reply.started) {
      // a job answered as timed out while queued, which the worker began just before its deadline: stop it
      if (index < 0) replace(slot, slot.inFlight.splice(0));
      return;
    }
    if (index < 0) return; // timed out already
    const [done] = slot.inFlight.splice(index, 1) as [InFlight];
    clearTimeout(done.timer);
    if (reply.answer) done.waiting.resolve(reply.answer);
    else if (reply.expired) done.waiting.reject(timeoutError(options.timeoutMs));
    else {
      const failure = reply.failure;
      const code: AppErrorCode = isAppErrorCode(failure?.code) ? failure.code : "INTERNAL";
      done.waiting.reject(new AppError(code, failure?.message ?? "query failed", failure?.details ? { details: failure.details } : {}));
    }
    dispatch();
  }

  const timeoutError = (limitMs: number) => new AppError("TIMEOUT", `the query ran past its ${limitMs} ms limit and was stopped`);

  function expire(slot: Slot, id: number, limitMs: number): void {
    const index = slot.inFlight.findIndex((f) => f.id === id);
    if (index < 0) return;
    const [late] = slot.inFlight.splice(index, 1) as [InFlight];
    // Running: ending the thread is what really stops the work (the jobs queued behind it go to another worker).
    // Still queued: the worker skips it when it comes to it, its deadline past.
    if (index === 0) replace(slot, slot.inFlight.splice(0));
    late.waiting.reject(timeoutError(limitMs));
    dispatch();
  }

  /** Ends a slot's thread; its unfinished jobs (`requeue`) go back to the front of the queue, in order. */
  function replace(slot: Slot, requeue: InFlight[]): void {
    for (const f of slot.inFlight) clearTimeout(f.timer);
    for (const f of requeue) clearTimeout(f.timer);
    slot.inFlight = [];
    slot.worker.removeAllListeners("message");
    void slot.worker.terminate();
    const index = slots.indexOf(slot);
    if (index >= 0) slots.splice(index, 1);
    queue.unshift(...requeue.map((f) => f.waiting));
    dispatch();
  }

  return {
    /** Queries waiting for a worker, and queries handed to one (running or queued inside it): for /metrics. */
    stats(): { waiting: number; running: number } {
      return { waiting: queue.length, running: slots.reduce((sum, slot) => sum + slot.inFlight.length, 0) };
    },
    run(job: QueryJob): Promise<QueryAnswer> {
      if (closed) return Promise.reject(new AppError("UNAVAILABLE", "the query pool is closed"));
      return new Promise((resolve, reject) => {
        queue.push({ job, resolve, reject });
        dispatch();
      });
    },
    async close(): Promise<void> {
      closed = true;
      for (const slot of slots) for (const f of slot.inFlight) clearTimeout(f.timer);
      await Promise.all(slots.map((s) => s.worker.terminate()));
      slots.length = 0;
    },
  };
}
