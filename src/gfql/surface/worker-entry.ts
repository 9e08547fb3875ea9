// The worker thread that runs GFQL queries, so a query past its time limit can be stopped by ending the thread.
import { parentPort, workerData } from "node:worker_threads";
import { failureOf, type QueryJob, runQuery } from "./run-query.ts";
import { createTableCache } from "./table-cache.ts";

const cache = createTableCache(Number((workerData as { cacheBytes?: number } | undefined)?.cacheBytes ?? 0));

parentPort?.on("message", (message: { id: number; job: QueryJob }) => {
  try {
    parentPort?.postMessage({ id: message.id, answer: runQuery(message.job, cache.read) });
  } catch (error) {
    parentPort?.postMessage({ id: message.id, failure: failureOf(error) });
  }
});
