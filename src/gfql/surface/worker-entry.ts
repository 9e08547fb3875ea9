// The worker thread that runs GFQL queries, so a query past its time limit can be stopped by ending the thread.
import { parentPort } from "node:worker_threads";
import { failureOf, type QueryJob, runQuery } from "./run-query.ts";

parentPort?.on("message", (message: { id: number; job: QueryJob }) => {
  try {
    parentPort?.postMessage({ id: message.id, answer: runQuery(message.job) });
  } catch (error) {
    parentPort?.postMessage({ id: message.id, failure: failureOf(error) });
  }
});
