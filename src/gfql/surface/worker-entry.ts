// The worker thread that runs GFQL queries, so a query past its time limit can be stopped by ending the thread.
import { setImmediate } from "node:timers";
import { parentPort, workerData } from "node:worker_threads";
import { algorithmsLoaded, loadAlgorithms } from "../../compute/algorithm-lookup.ts";
import { loadLayouts } from "../call-layout.ts";
import { MAX_INTERMEDIATE_ROWS_ENV } from "../limits.ts";
import { prepareGfqlSchema } from "../schema-check.ts";
import { startWarmUp } from "../warm-up.ts";
import type { WorkerReply } from "./query-pool.ts";
import { failureOf, type QueryJob, runQuery } from "./run-query.ts";
import { createTableCache } from "./table-cache.ts";

const options = (workerData ?? {}) as { cacheBytes?: number; maxIntermediateRows?: number };
const cache = createTableCache(Number(options.cacheBytes ?? 0));
// The cap is read from this thread's own copy of the environment (src/gfql/limits.ts): the server's setting wins.
if (options.maxIntermediateRows) process.env[MAX_INTERMEDIATE_ROWS_ENV] = String(options.maxIntermediateRows);

type Message = { id: number; job: QueryJob; deadline: number };

// The schema every query is checked against is compiled while the worker waits for its first job, not in it; then
// small queries on a graph of the worker's own warm the engine's code (warm-up.ts), until the first job comes.
let jobCame = false;
setImmediate(() => {
  try {
    prepareGfqlSchema();
  } catch {
    // the first query reports it
  }
  startWarmUp(() => jobCame);
});

/** Whether a query may call compute_igraph / compute_cugraph (then the algorithms are loaded before it runs). */
const mayCompute = (query: unknown) => (typeof query === "string" ? query : (JSON.stringify(query) ?? "")).includes("compute_");
/** Whether a query may call layout_igraph / layout_cugraph / fa2_layout (then the layouts are loaded first). */
const mayLayOut = (query: unknown) => (typeof query === "string" ? query : (JSON.stringify(query) ?? "")).includes("layout");

// Jobs run one after another, in the order they came; only a job that computes may wait (once) for the algorithms.
let previous: Promise<void> = Promise.resolve();
parentPort?.on("message", (message: Message) => {
  jobCame = true;
  previous = previous
    .then(async () => {
      if (!algorithmsLoaded() && mayCompute(message.job.query)) await loadAlgorithms().catch(() => {});
      if (mayLayOut(message.job.query)) await loadLayouts().catch(() => {});
      handle(message);
    })
    // one job's failure to answer must not stop the jobs after it
    .catch(() => {});
});

function handle(message: Message): void {
  // A job that waited here past its time limit was answered already: skip it.
  if (Date.now() >= message.deadline) {
    parentPort?.postMessage({ id: message.id, expired: true } satisfies WorkerReply);
    return;
  }
  parentPort?.postMessage({ id: message.id, started: true } satisfies WorkerReply);
  try {
    parentPort?.postMessage({ id: message.id, answer: runQuery(message.job, cache.read) });
  } catch (error) {
    parentPort?.postMessage({ id: message.id, failure: failureOf(error) });
  }
}
