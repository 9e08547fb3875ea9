// The worker thread that runs compute jobs (compute-pool.ts): reads a version's tables (kept, with their CSR, for
// the next job), runs the entries (then the layout, if any), writes the new version's tables.
import path from "node:path";
import { parentPort, workerData } from "node:worker_threads";
import type pl from "nodejs-polars";
import { isAppError } from "../errors/app-error.ts";
import { createTableCache } from "../gfql/surface/table-cache.ts";
import { linkTable, writeTable } from "../ingest/table-files.ts";
import { loadAlgorithms } from "./algorithm-lookup.ts";
import { createComputeContext } from "./backend.ts";
import type { ComputeJob, ComputeJobResult, ComputeProgress, WorkerMessage, WorkerReply } from "./compute-pool.ts";
import { parseCompute } from "./params.ts";
import { runEntries } from "./run-entries.ts";
import { ComputeCancelled } from "./types.ts";

await loadAlgorithms();

const cache = createTableCache(Number((workerData as { cacheBytes?: number } | null)?.cacheBytes ?? 0));
/** Progress is posted at most this often per job (the last report of an entry always goes). */
const PROGRESS_MS = 100;

async function run(id: number, job: ComputeJob, flag: Int32Array): Promise<ComputeJobResult> {
  // The layout runs last, as one more entry: its x, y (z) columns land on the tables the compute entries left.
  const entries = [
    ...(job.compute === null || job.compute === undefined ? [] : parseCompute(job.compute)),
    // the layout registry loads on the first job that lays out
    ...(job.layout === null || job.layout === undefined
      ? []
      : [(await import("../layout/parse.ts")).parseLayout(job.layout, job.layoutField)]),
  ];
  const start = {
    nodes: cache.read(job.nodesPath),
    edges: job.edgesPath ? cache.read(job.edgesPath) : undefined,
    nodeId: job.nodeId,
    source: job.source,
    destination: job.destination,
    edgeWeight: job.edgeWeight,
  };
  let last = 0;
  const post = (progress: ComputeProgress, force = false) => {
    const now = Date.now();
    if (!force && now - last < PROGRESS_MS) return;
    last = now;
    parentPort?.postMessage({ id, progress } satisfies WorkerReply);
  };
  const { tables, summaries } = runEntries(start, entries, (parsed, index) => {
    const where = { label: parsed.label, index, count: entries.length };
    post({ ...where, phase: "start", fraction: 0 }, true);
    return createComputeContext({
      backend: job.backend,
      onProgress: (p) => post({ ...p, ...where }),
      cancelled: () => Atomics.load(flag, 0) !== 0,
    });
  });
  // A table no entry changed is the previous version's file, linked (no copy, no rewrite).
  const store = (frame: pl.DataFrame, before: pl.DataFrame | undefined, from: string | undefined, name: string) => {
    const to = path.join(job.outDir, `${name}.arrow`);
    return frame === before && from ? linkTable(from, to, name, frame.height) : writeTable(frame, to, name);
  };
  const nodes = await store(tables.nodes, start.nodes, job.nodesPath, "nodes");
  const edges = tables.edges ? await store(tables.edges, start.edges, job.edgesPath, "edges") : undefined;
  return { nodes, edges, nodeCount: tables.nodes.height, edgeCount: tables.edges?.height ?? 0, summaries };
}

parentPort?.on("message", (message: WorkerMessage) => {
  const flag = new Int32Array(message.cancel);
  run(message.id, message.job, flag).then(
    (result) => parentPort?.postMessage({ id: message.id, result } satisfies WorkerReply),
    (error: unknown) => {
      if (error instanceof ComputeCancelled) parentPort?.postMessage({ id: message.id, cancelled: true } satisfies WorkerReply);
      else if (isAppError(error))
        parentPort?.postMessage({
          id: message.id,
          failure: { code: error.code, message: error.message, details: error.details },
        } satisfies WorkerReply);
      else
        parentPort?.postMessage({
          id: message.id,
          failure: { code: "INTERNAL", message: error instanceof Error ? error.message : String(error) },
        } satisfies WorkerReply);
    },
  );
});
