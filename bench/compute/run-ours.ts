// bench/compute: runs one of our registered algorithms on each requested backend in turn, in its own process (so a
// time cap can kill it and its peak memory is its own), on one CSR of the bench graph file, and prints one JSON line
// per backend: load (tables), CSR build, run times, memory beyond the tables, the CSR's bytes, clusterings' modularity.
// Run by bench/compute.ts as: node --expose-gc bench/compute/run-ours.ts '<json request>'
import { readFileSync, writeFileSync } from "node:fs";
import { buildCsr, type ComputeGraph, type Csr, undirected } from "../../kernels/cpu/csr.ts";
import { createComputeContext } from "../../src/compute/backend.ts";
import { findAlgorithm } from "../../src/compute/registry.ts";
import { type Backend, ComputeCancelled, type ComputeOutput } from "../../src/compute/types.ts";
import type { ParamValue } from "./cases.ts";
import { readGraph } from "./graph-file.ts";
import { modularity } from "./stats.ts";

export type OursRequest = {
  file: string;
  key: string;
  directed: boolean;
  weighted: boolean;
  params: Record<string, ParamValue>;
  /** Run in turn on one CSR; each answers its own JSON line. */
  backends: Backend[];
  pivots: number;
  clustering: boolean;
  /** Runs the algorithm up to this many times per backend (no more once capMs has been spent); the best time answers. */
  repeat: number;
  /** Past this a run is cancelled (through the context's checkCancelled) and answers timedOut. */
  capMs: number;
  /** Writes the first output column to `${save}-${backend}.f64` as float64, for the sampled-vs-exact comparison. */
  save?: string;
  /**
   * --warm: before memory is counted, each backend runs the algorithm once on the graph's first twentieth of edges,
   * as a compute worker that has run jobs before has (compiled code, the compiler's freed zones kept by the allocator).
   */
  warm?: boolean;
};

export type OursReply = {
  backend?: Backend;
  ok: boolean;
  error?: string;
  timedOut?: boolean;
  loadMs?: number;
  csrMs?: number;
  /** Best of the runs, and the first (cold) one. */
  runMs?: number;
  firstMs?: number;
  /** Peak RSS beyond the loaded tables (after they were read), and the CSR's own bytes. */
  beyondBytes?: number;
  /** Resident growth from building the kept graph (the CSR; an undirected view is built when an algorithm reads it). */
  graphBytes?: number;
  csrBytes?: number;
  modularity?: number;
  communities?: number;
  dropped?: string[];
  output?: string;
  /** The last line (no backend): the time to build the undirected view (with its edge rows) of this CSR. */
  viewMs?: number;
};

function statusBytes(field: string): number {
  const status = readFileSync("/proc/self/status", "utf8");
  return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
}

const csrBytes = (c: Csr) =>
  c.outStart.byteLength + c.outEdges.byteLength + c.outDst.byteLength + c.inStart.byteLength + c.inEdges.byteLength + c.inSrc.byteLength;

function say(reply: OursReply): void {
  process.stdout.write(`${JSON.stringify(reply)}\n`);
}
const message = (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));

type Entry = NonNullable<ReturnType<typeof findAlgorithm>>;

/** The entry's defaults, then the request's parameters (the bench's own values read from the tables; `m`: edges used). */
function paramsOf(request: OursRequest, tables: ReturnType<typeof readGraph>, entry: Entry, m = tables.src.length) {
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
      else if (value.bench === "weight") params[key] = tables.weight.subarray(0, m);
      else if (value.bench === "seeds") params[key] = Int32Array.from({ length: Math.min(10, tables.n) }, (_, i) => i);
      else params[key] = request.pivots;
    } else params[key] = value;
  }
  return { params, dropped };
}

/** One run per backend on the first twentieth of the edges (same nodes, the same parameters); its outputs are dropped. */
function warmUp(request: OursRequest, tables: ReturnType<typeof readGraph>, entry: Entry, name: string): void {
  const m = Math.max(1, Math.ceil(tables.src.length / 20));
  const csr = buildCsr(tables.n, tables.src.subarray(0, m), tables.dst.subarray(0, m));
  const graph: ComputeGraph = { ...csr, directed: request.directed, weight: request.weighted ? tables.weight.subarray(0, m) : null };
  const { params } = paramsOf(request, tables, entry, m);
  for (const backend of request.backends) {
    if (!entry.backends.includes(backend)) continue;
    try {
      entry.run(graph, params, createComputeContext({ backend, cancelled: () => false }), name);
    } catch {
      // A warm-up that fails (a parameter the small graph cannot take) warms what it ran.
    }
  }
}

function run(request: OursRequest): void {
  const [library = "", name = ""] = request.key.split("/");
  const entry = findAlgorithm(library, name);
  if (!entry) {
    say({ ok: false, error: "not registered" });
    return;
  }

  let start = performance.now();
  const tables = readGraph(request.file);
  const loadMs = performance.now() - start;
  const gc = (globalThis as { gc?: () => void }).gc;
  if (request.warm) warmUp(request, tables, entry, name);
  gc?.();
  // Peak RSS is counted from here: the tables are loaded, nothing else is (but a warm-up's compiled code, --warm).
  writeFileSync("/proc/self/clear_refs", "5");
  const baseline = statusBytes("VmRSS");

  start = performance.now();
  const csr = buildCsr(tables.n, tables.src, tables.dst);
  const graph: ComputeGraph = { ...csr, directed: request.directed, weight: request.weighted ? tables.weight : null };
  // The undirected view is cached per graph like the CSR, but built only when an algorithm reads it (its memory
  // is then that algorithm's, and the first run's time holds its build; the best of the runs does not).
  const csrMs = performance.now() - start;
  gc?.();
  const graphBytes = statusBytes("VmRSS") - baseline;

  const { params, dropped } = paramsOf(request, tables, entry);

  for (const backend of request.backends) {
    if (!entry.backends.includes(backend)) {
      say({ backend, ok: false, error: `no ${backend} backend` });
      continue;
    }
    gc?.();
    // Each backend's peak is its own: the counter restarts from what is resident now (tables, CSR, garbage-free).
    writeFileSync("/proc/self/clear_refs", "5");
    const deadline = performance.now() + request.capMs;
    const ctx = createComputeContext({ backend, cancelled: () => performance.now() > deadline });
    // Best of `repeat` runs (the first pays for JIT compilation and, on OpenCL, building the program).
    let runMs = Number.POSITIVE_INFINITY;
    let firstMs = 0;
    let spent = 0;
    let last = 0;
    let out: ComputeOutput | undefined;
    try {
      for (let r = 0; r < Math.max(1, request.repeat) && spent + last < request.capMs; r++) {
        out = undefined;
        if (r > 0) gc?.();
        start = performance.now();
        out = entry.run(graph, params, ctx, name);
        last = performance.now() - start;
        spent += last;
        if (r === 0) firstMs = last;
        runMs = Math.min(runMs, last);
      }
    } catch (error) {
      if (error instanceof ComputeCancelled) say({ backend, ok: false, timedOut: true });
      else say({ backend, ok: false, error: message(error) });
      continue;
    }
    if (!out) continue;
    const beyondBytes = statusBytes("VmHWM") - baseline;
    const reply: OursReply = {
      backend,
      ok: true,
      loadMs,
      csrMs,
      runMs,
      firstMs,
      beyondBytes,
      graphBytes,
      csrBytes: csrBytes(csr),
      output: out.kind,
    };
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
          `${request.save}-${backend}.f64`,
          Float64Array.from({ length: values.length }, (_, i) => Number(values[i])),
        );
      }
    }
    say(reply);
    out = undefined;
  }
  if (!request.directed) {
    // The view's build time for the load table, on a graph object of its own (the cache is per object).
    start = performance.now();
    void undirected({ ...graph }).edge;
    say({ ok: true, viewMs: performance.now() - start });
  }
}

try {
  run(JSON.parse(process.argv[2] ?? "{}") as OursRequest);
} catch (error) {
  say({ ok: false, error: message(error) });
}
// Kernel pools' worker threads or an OpenCL queue may keep the process alive: the answer is out, so leave.
process.exit(0);
