// bench/compute: runs one of our registered algorithms once, in its own process (so a time cap can kill it and its
// peak memory is its own), on the bench graph file, and prints one JSON line: load (tables), CSR build, run times,
// memory beyond the tables, the CSR's bytes, and for clusterings the modularity.
// Run by bench/compute.ts as: node --expose-gc bench/compute/run-ours.ts '<json request>'
import { readFileSync, writeFileSync } from "node:fs";
import { buildCsr, type ComputeGraph, type Csr, undirected } from "../../kernels/cpu/csr.ts";
import { createComputeContext, resolveBackend } from "../../src/compute/backend.ts";
import { findAlgorithm } from "../../src/compute/registry.ts";
import { type Backend, type ComputeContext, cpuContext } from "../../src/compute/types.ts";
import type { ParamValue } from "./cases.ts";
import { readGraph } from "./graph-file.ts";
import { modularity } from "./stats.ts";

export type OursRequest = {
  file: string;
  key: string;
  directed: boolean;
  weighted: boolean;
  params: Record<string, ParamValue>;
  backend: Backend;
  pivots: number;
  clustering: boolean;
  /** Runs the algorithm this many times (no more once capMs has been spent); the best time answers. */
  repeat: number;
  capMs: number;
  /** Writes the first output column here as float64, for the sampled-vs-exact comparison. */
  save?: string;
};

export type OursReply = {
  ok: boolean;
  error?: string;
  loadMs?: number;
  csrMs?: number;
  /** Best of the runs, and the first (cold) one. */
  runMs?: number;
  firstMs?: number;
  /** Peak RSS beyond the loaded tables (after they were read), and the CSR's own bytes. */
  beyondBytes?: number;
  csrBytes?: number;
  modularity?: number;
  communities?: number;
  dropped?: string[];
  output?: string;
};

function statusBytes(field: string): number {
  const status = readFileSync("/proc/self/status", "utf8");
  return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
}

const csrBytes = (c: Csr) =>
  c.outStart.byteLength + c.outEdges.byteLength + c.outDst.byteLength + c.inStart.byteLength + c.inEdges.byteLength + c.inSrc.byteLength;

function contextFor(backend: Backend): ComputeContext {
  if (backend === "cpu") return cpuContext;
  const resolved = resolveBackend("opencl");
  if (resolved.backend !== "opencl") throw new Error(`no OpenCL backend: ${resolved.reason}`);
  const ctx = createComputeContext({ backend: "opencl" });
  if (ctx.backend !== "opencl") throw new Error("createComputeContext gave no OpenCL context");
  return ctx;
}

function run(request: OursRequest): OursReply {
  const [library = "", name = ""] = request.key.split("/");
  const entry = findAlgorithm(library, name);
  if (!entry) return { ok: false, error: "not registered" };
  if (!entry.backends.includes(request.backend)) return { ok: false, error: `no ${request.backend} backend` };
  const ctx = contextFor(request.backend);

  let start = performance.now();
  const tables = readGraph(request.file);
  const loadMs = performance.now() - start;
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  // Peak RSS is counted from here: the tables are loaded, nothing else is.
  writeFileSync("/proc/self/clear_refs", "5");
  const baseline = statusBytes("VmRSS");

  start = performance.now();
  const csr = buildCsr(tables.n, tables.src, tables.dst);
  const graph: ComputeGraph = { ...csr, directed: request.directed, weight: request.weighted ? tables.weight : null };
  // The undirected view is cached per graph like the CSR itself: built with it, not inside the algorithm's time.
  if (!request.directed) undirected(graph);
  const csrMs = performance.now() - start;

  const params: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(entry.params)) if (spec.default !== undefined) params[key] = spec.default;
  const dropped: string[] = [];
  for (const [key, value] of Object.entries(request.params)) {
    if (!Object.hasOwn(entry.params, key)) {
      dropped.push(key);
      continue;
    }
    if (typeof value === "object") {
      if (value.bench === "hub") params[key] = tables.hub;
      else if (value.bench === "weight") params[key] = tables.weight;
      else if (value.bench === "seeds") params[key] = Int32Array.from({ length: Math.min(10, tables.n) }, (_, i) => i);
      else params[key] = request.pivots;
    } else params[key] = value;
  }

  // Best of `repeat` runs (the first pays for JIT compilation and, on OpenCL, building the program); all of them
  // count toward the peak memory.
  let runMs = Number.POSITIVE_INFINITY;
  let firstMs = 0;
  let out: ReturnType<typeof entry.run> = { kind: "nodes", columns: [] };
  let spent = 0;
  for (let r = 0; r < Math.max(1, request.repeat) && spent < request.capMs; r++) {
    if (r > 0) {
      out = { kind: "nodes", columns: [] };
      gc?.();
    }
    start = performance.now();
    out = entry.run(graph, params, ctx, name);
    const took = performance.now() - start;
    spent += took;
    if (r === 0) firstMs = took;
    runMs = Math.min(runMs, took);
  }
  const beyondBytes = statusBytes("VmHWM") - baseline;

  const reply: OursReply = { ok: true, loadMs, csrMs, runMs, firstMs, beyondBytes, csrBytes: csrBytes(csr), output: out.kind };
  if (dropped.length) reply.dropped = dropped;
  if (out.kind !== "graph") {
    const first = out.columns[0];
    if (first && request.clustering && out.kind === "nodes") {
      const membership = first.values as ArrayLike<number>;
      reply.modularity = modularity(tables, membership);
      reply.communities = new Set(Array.from({ length: tables.n }, (_, i) => membership[i])).size;
    }
    if (first && request.save) {
      const values = first.values as ArrayLike<number>;
      writeFileSync(
        request.save,
        Float64Array.from({ length: values.length }, (_, i) => Number(values[i])),
      );
    }
  }
  return reply;
}

let reply: OursReply;
try {
  reply = run(JSON.parse(process.argv[2] ?? "{}") as OursRequest);
} catch (error) {
  reply = { ok: false, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
}
process.stdout.write(`${JSON.stringify(reply)}\n`);
