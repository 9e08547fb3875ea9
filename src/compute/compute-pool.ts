// Worker threads that run compute over a dataset version's stored tables (the algorithms are synchronous), with
// progress reports and cancellation through a shared flag the worker's context reads between iterations.
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { AppError, isAppErrorCode } from "../errors/app-error.ts";
import type { TableSchema } from "../ingest/table-files.ts";
import { resolveBackend } from "./backend.ts";
import type { EntrySummary } from "./run-entries.ts";
import { type Backend, ComputeCancelled, type Progress } from "./types.ts";

/** One run: the version's tables and bindings, the raw `compute` object (labels -> entries) and `layout`, where to write. */
export type ComputeJob = {
  nodesPath: string;
  edgesPath: string | undefined;
  nodeId: string;
  source: string;
  destination: string;
  /** The bound `edge_weight` column (cuGraph weighs by it). */
  edgeWeight?: string | undefined;
  /** Labels -> entries (spec 2.9 `compute`); null or undefined when the run only lays out. */
  compute: unknown;
  /** A request's `layout` ({libraries: [lib], alg, params, directed}), run after `compute`: node columns x, y (z). */
  layout?: unknown;
  /** Where `layout` sits in the request, for error fields (default "layout"). */
  layoutField?: string | undefined;
  /** A fresh folder: nodes.arrow (and edges.arrow when the graph has edges) are written there. */
  outDir: string;
  backend: Backend;
};

export type ComputeJobResult = {
  nodes: TableSchema;
  edges: TableSchema | undefined;
  nodeCount: number;
  edgeCount: number;
  summaries: EntrySummary[];
};

/** Progress of a run: which entry (label, its index among `count`) and the algorithm's own report. */
export type ComputeProgress = Progress & { label: string; index: number; count: number };

export type WorkerMessage = { id: number; job: ComputeJob; cancel: SharedArrayBuffer };
export type WorkerReply =
  | { id: number; progress: ComputeProgress }
  | { id: number; result: ComputeJobResult }
  | { id: number; failure: { code: string; message: string; details?: Record<string, unknown> | undefined } }
  | { id: number; cancelled: true };

export type RunJobOptions = { onProgress?: (p: ComputeProgress) => void; signal?: AbortSignal | undefined };

type Running = {
  id: number;
  job: ComputeJob;
  options: RunJobOptions;
  flag: Int32Array;
  resolve(r: ComputeJobResult): void;
  reject(e: unknown): void;
};
type Slot = { worker: Worker; running: Running | undefined };

const ENTRY = new URL("./compute-worker.ts", import.meta.url);
/** How long a cancelled job may take to reach its next check before its thread is ended. */
const CANCEL_GRACE_MS = 5_000;

export type ComputePool = ReturnType<typeof createComputePool>;

export function createComputePool(options: { size: number; cacheBytes?: number }) {
  const slots: Slot[] = [];
  const queue: Running[] = [];
  let nextId = 0;
  let closed = false;

  function spawn(): Slot {
    const slot: Slot = { worker: new Worker(ENTRY, { workerData: { cacheBytes: options.cacheBytes ?? 512 << 20 } }), running: undefined };
    slot.worker.unref();
    slot.worker.on("message", (reply: WorkerReply) => onReply(slot, reply));
    slot.worker.on("error", (error: Error) => {
      const running = slot.running;
      drop(slot);
      running?.reject(error);
    });
    return slot;
  }

  function drop(slot: Slot): void {
    slot.running = undefined;
    slot.worker.removeAllListeners("message");
    void slot.worker.terminate();
    const index = slots.indexOf(slot);
    if (index >= 0) slots.splice(index, 1);
    dispatch();
  }

  function onReply(slot: Slot, reply: WorkerReply): void {
    const running = slot.running;
    if (!running || running.id !== reply.id) return;
    if ("progress" in reply) {
      running.options.onProgress?.(reply.progress);
      return;
    }
    slot.running = undefined;
    if ("result" in reply) running.resolve(reply.result);
    else if ("cancelled" in reply) running.reject(new ComputeCancelled());
    else {
      const { code, message, details } = reply.failure;
      running.reject(new AppError(isAppErrorCode(code) ? code : "INTERNAL", message, details ? { details } : {}));
    }
    dispatch();
  }

  function dispatch(): void {
    while (!closed && queue.length > 0) {
      let slot = slots.find((s) => s.running === undefined);
      if (!slot && slots.length < options.size) {
        slot = spawn();
        slots.push(slot);
      }
      if (!slot) return;
      const running = queue.shift() as Running;
      slot.running = running;
      slot.worker.postMessage({
        id: running.id,
        job: running.job,
        cancel: running.flag.buffer as SharedArrayBuffer,
      } satisfies WorkerMessage);
    }
  }

  function cancel(running: Running): void {
    Atomics.store(running.flag, 0, 1);
    const queued = queue.indexOf(running);
    if (queued >= 0) {
      queue.splice(queued, 1);
      running.reject(new ComputeCancelled());
      return;
    }
    // Running: the worker stops at its next check; one that does not check in time has its thread ended.
    const timer = setTimeout(() => {
      const slot = slots.find((s) => s.running === running);
      if (!slot) return;
      drop(slot);
      running.reject(new ComputeCancelled());
    }, CANCEL_GRACE_MS);
    timer.unref();
  }

  return {
    /** Runs one job; rejects with ComputeCancelled when `signal` aborts it, AppError for a bad request. */
    run(job: ComputeJob, runOptions: RunJobOptions = {}): Promise<ComputeJobResult> {
      if (closed) return Promise.reject(new AppError("UNAVAILABLE", "the compute pool is closed"));
      if (runOptions.signal?.aborted) return Promise.reject(new ComputeCancelled());
      return new Promise((resolve, reject) => {
        const running: Running = {
          id: nextId++,
          job,
          options: runOptions,
          flag: new Int32Array(new SharedArrayBuffer(4)),
          resolve,
          reject,
        };
        runOptions.signal?.addEventListener("abort", () => cancel(running), { once: true });
        queue.push(running);
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

let backend: Backend | undefined;

/**
 * Makes the configured compute settings (which may come from .env rather than the environment) the ones this
 * process and the threads it starts later read: worker threads read their own copy of process.env.
 */
export function useComputeSettings(settings: {
  computeBackend: "auto" | "opencl" | "cpu";
  computeWorkers: number;
  computeThreads: number;
}): void {
  process.env.COMPUTE_BACKEND = settings.computeBackend;
  if (settings.computeWorkers > 0) process.env.COMPUTE_WORKERS = String(settings.computeWorkers);
  if (settings.computeThreads > 0) process.env.COMPUTE_THREADS = String(settings.computeThreads);
  backend = undefined;
}

/** The backend COMPUTE_BACKEND (auto, opencl, cpu; default auto) resolves to in this process, resolved once. */
export function configuredBackend(): Backend {
  const setting = process.env.COMPUTE_BACKEND;
  backend ??= resolveBackend(setting === "cpu" || setting === "opencl" ? setting : "auto").backend;
  return backend;
}

let shared: ComputePool | undefined;

/** The process's pool (threads are unreferenced: an idle pool keeps nothing alive). Size: COMPUTE_WORKERS or the cores, at most 4. */
export function defaultComputePool(): ComputePool {
  const size = Number(process.env.COMPUTE_WORKERS) || Math.max(1, Math.min(4, availableParallelism()));
  shared ??= createComputePool({ size });
  return shared;
}
