// The worker thread that runs GFQL queries, so a query past its time limit can be stopped by ending the thread.
import { parentPort, workerData } from "node:worker_threads";
import { loadExtraAlgorithms } from "../../compute/algorithm-lookup.ts";
import { MAX_INTERMEDIATE_ROWS_ENV } from "../limits.ts";
import type { WorkerReply } from "./query-pool.ts";
import { failureOf, type QueryJob, runQuery } from "./run-query.ts";
import { createTableCache } from "./table-cache.ts";

// fixture algorithms of the test suites (COMPUTE_EXTRA_ALGORITHMS), for compute_igraph / compute_cugraph
await loadExtraAlgorithms();

const options = (workerData ?? {}) as { cacheBytes?: number; maxIntermediateRows?: number };
const cache = createTableCache(Number(options.cacheBytes ?? 0));
// The cap is read from this thread's own copy of the environment (src/gfql/limits.ts): the server's setting wins.
if (options.maxIntermediateRows) process.env[MAX_INTERMEDIATE_ROWS_ENV] = String(options.maxIntermediateRows);

parentPort?.on("message", (message: { id: number; job: QueryJob; deadline: number }) => {
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
});
