// bench/layout: ForceAtlas2, 100 iterations, on seeded power-law graphs: our OpenCL backend, our CPU backend,
// graphology's forceAtlas2 (Barnes-Hut, cuGraph's defaults) and, for scale, python-igraph's
// layout_fruchterman_reingold(niter=100) against our Fruchterman-Reingold (igraph fr) on both backends.
// Run: node bench/layout.ts [--edges 100000,1000000] [--iterations 100] [--graphology-iterations 10]
//      [--no-graphology] [--no-igraph] [--no-fr] [--cap 600]
// The graphs are bench/compute's (powerLawGraph, Chung-Lu with gamma 2.5, one node per ten edges: mean degree 20,
// the same graphs the compute benchmark times): 100k edges = 10k nodes, 1M edges = 100k nodes. graphology runs
// --graphology-iterations (default 10) at 1M edges and more, all iterations below; every figure is also given per
// iteration, and the ratios are per iteration. graphology runs in a child process of its own. Times include each run's setup (adjacency, random start) and the
// final positions read back; graph building (ours: the CSR; graphology: its Graph; igraph: its Graph) is not timed.

import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { computeGraph } from "../kernels/cpu/csr.ts";
import { openclKernel, openclStatus } from "../kernels/opencl/index.ts";
import { checkParams } from "../src/compute/params.ts";
import { type ComputeContext, cpuContext } from "../src/compute/types.ts";
import { findLayout } from "../src/layout/registry.ts";
import { randomPositions } from "../src/layout/seeded.ts";
import { powerLawGraph, writeGraph } from "./compute/graph-file.ts";
import { LineServer } from "./compute/line-server.ts";
import { formatMs, table } from "./compute/results.ts";
import { loadAverageLine } from "./load-average.ts";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const flag = (name: string) => args.includes(`--${name}`);
const option = (name: string, fallback: string) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 && args[at + 1] !== undefined ? (args[at + 1] as string) : fallback;
};
const SIZES = option("edges", "100000,1000000").split(",").map(Number);
const ITERATIONS = Number(option("iterations", "100"));
const GRAPHOLOGY_ITERATIONS = Number(option("graphology-iterations", "10"));
const CAP_MS = Number(option("cap", "600")) * 1000;
const nodesFor = (m: number) => Math.max(10, Math.floor(m / 10));

// graphology's packages are CommonJS whose typings NodeNext resolution reads as namespaces: required, with the
// few signatures used here.
type GraphologyGraph = { addNode(key: number, attributes: Record<string, number>): void; addEdge(a: number, b: number): void };
const require = createRequire(import.meta.url);
const Graph = require("graphology") as new (options: Record<string, unknown>) => GraphologyGraph;
const forceAtlas2 = require("graphology-layout-forceatlas2") as {
  assign(graph: GraphologyGraph, options: { iterations: number; settings: Record<string, unknown> }): void;
};

const opencl = openclStatus();
const openclContext: ComputeContext = {
  ...cpuContext,
  backend: "opencl",
  kernel: <A, R>(name: string, cpu: (a: A) => R) => (openclKernel(name) as ((a: A) => R) | undefined) ?? cpu,
};

type Cell = { ms: number; iterations: number } | { skipped: string };
const perIteration = (c: Cell | undefined) => (c && "ms" in c ? c.ms / c.iterations : undefined);
const show = (c: Cell | undefined) =>
  !c
    ? ""
    : "ms" in c
      ? `${formatMs(c.ms)} (${formatMs(c.ms / c.iterations)}/it${c.iterations !== ITERATIONS ? `, ${c.iterations} it` : ""})`
      : "—";
const ratio = (slow: number | undefined, fast: number | undefined) =>
  slow !== undefined && fast !== undefined && fast > 0 ? `${(slow / fast).toFixed(1)}x` : "";

function time<T>(run: () => T): { ms: number; value: T } {
  const start = performance.now();
  const value = run();
  return { ms: performance.now() - start, value };
}

/**
 * graphology's forceAtlas2 in a fresh Node process (this file with --graphology-child m iterations): its heap of a
 * JavaScript object per node and edge does not share a garbage collector with our runs.
 */
function graphologyInChild(m: number, iterations: number): Cell {
  const self = fileURLToPath(import.meta.url);
  const child = spawnSync(process.execPath, [self, "--graphology-child", String(m), String(iterations)], {
    encoding: "utf8",
    timeout: CAP_MS,
    maxBuffer: 1 << 20,
  });
  if (child.status !== 0) return { skipped: child.error ? child.error.message : `exit ${child.status}: ${child.stderr.slice(-300)}` };
  return { ms: Number(JSON.parse(child.stdout.trim().split("\n").pop() as string).ms), iterations };
}

/** The child: builds graphology's graph of the same power-law graph and start (not timed), then times forceAtlas2. */
function graphologyChild(m: number, iterations: number): void {
  const bench = powerLawGraph(m, nodesFor(m), 14_000 + m);
  const g = new Graph({ type: "undirected" });
  const start = randomPositions(bench.n, 2, 42, 100);
  for (let i = 0; i < bench.n; i++) g.addNode(i, { x: start[2 * i] as number, y: start[2 * i + 1] as number });
  for (let e = 0; e < bench.m; e++) g.addEdge(bench.src[e] as number, bench.dst[e] as number);
  const settings = { outboundAttractionDistribution: true, scalingRatio: 2, gravity: 1, barnesHutOptimize: true, barnesHutTheta: 0.5 };
  console.log(JSON.stringify({ ms: time(() => forceAtlas2.assign(g, { iterations, settings })).ms }));
}

async function main(): Promise<void> {
  const loadLine = loadAverageLine();
  const fa2 = findLayout("cugraph", "force_atlas2");
  if (!fa2) throw new Error("cugraph force_atlas2 is not registered");
  const fr = flag("no-fr") ? undefined : findLayout("igraph", "fr");
  const work = mkdtempSync(path.join(os.tmpdir(), "bench-layout-"));
  const python = flag("no-igraph") ? undefined : new LineServer("/usr/bin/python3", [path.join(HERE, "compute/igraph_server.py")]);
  const fa2Rows: string[][] = [];
  const frRows: string[][] = [];
  console.log(
    `ForceAtlas2 ${ITERATIONS} iterations; OpenCL: ${opencl.available ? opencl.device : `none (${opencl.error})`}; ${os.cpus().length} CPU cores`,
  );
  try {
    for (const m of SIZES) {
      const label = m >= 1e6 ? `${m / 1e6}M` : `${m / 1e3}k`;
      const bench = powerLawGraph(m, nodesFor(m), 14_000 + m);
      const graph = computeGraph(bench.n, { src: bench.src, dst: bench.dst }, { directed: false });
      const params = checkParams(fa2, { max_iter: ITERATIONS }, "layout.params");
      const cells: Record<string, Cell> = {};
      if (opencl.available) {
        fa2.place(graph, { ...params, max_iter: 1 }, openclContext); // builds the program once
        cells.opencl = { ms: time(() => fa2.place(graph, params, openclContext)).ms, iterations: ITERATIONS };
        console.log(`${label} opencl ${show(cells.opencl)}`);
      } else cells.opencl = { skipped: "no OpenCL device" };
      cells.cpu = { ms: time(() => fa2.place(graph, params, cpuContext)).ms, iterations: ITERATIONS };
      console.log(`${label} cpu ${show(cells.cpu)}`);
      if (!flag("no-graphology")) {
        const iterations = m >= 1e6 ? GRAPHOLOGY_ITERATIONS : ITERATIONS;
        cells.graphology = graphologyInChild(m, iterations);
        console.log(`${label} graphology ${show(cells.graphology)}`);
      }
      const gr = perIteration(cells.graphology);
      fa2Rows.push([
        label,
        `${bench.n} nodes`,
        show(cells.opencl),
        show(cells.cpu),
        show(cells.graphology),
        ratio(gr, perIteration(cells.opencl)),
        ratio(gr, perIteration(cells.cpu)),
      ]);

      // Fruchterman-Reingold, 100 iterations: igraph's against ours.
      const frCells: Record<string, Cell> = {};
      if (python) {
        const file = path.join(work, `${label}.bin`);
        writeGraph(file, bench);
        const outcome = await python.request(
          { file, directed: false, expr: `g.layout_fruchterman_reingold(niter=${ITERATIONS})`, kind: "other" },
          CAP_MS,
        );
        if ("reply" in outcome && outcome.reply.ok) frCells.igraph = { ms: Number(outcome.reply.seconds) * 1000, iterations: ITERATIONS };
        else frCells.igraph = { skipped: "timedOut" in outcome ? `over ${CAP_MS / 1000} s` : JSON.stringify(outcome) };
        console.log(`${label} igraph fr ${show(frCells.igraph)}`);
      }
      if (fr) {
        const frParams = checkParams(fr, { niter: ITERATIONS }, "layout.params");
        if (opencl.available && fr.backends.includes("opencl")) {
          fr.place(graph, { ...frParams, niter: 1 }, openclContext);
          frCells.opencl = { ms: time(() => fr.place(graph, frParams, openclContext)).ms, iterations: ITERATIONS };
          console.log(`${label} our fr opencl ${show(frCells.opencl)}`);
        }
        frCells.cpu = { ms: time(() => fr.place(graph, frParams, cpuContext)).ms, iterations: ITERATIONS };
        console.log(`${label} our fr cpu ${show(frCells.cpu)}`);
      }
      const ig = perIteration(frCells.igraph);
      frRows.push([
        label,
        `${bench.n} nodes`,
        show(frCells.opencl),
        show(frCells.cpu),
        show(frCells.igraph),
        ratio(ig, perIteration(frCells.opencl)),
        ratio(ig, perIteration(frCells.cpu)),
      ]);
    }
  } finally {
    python?.stop();
    rmSync(work, { recursive: true, force: true });
  }
  console.log(`\nForceAtlas2, ${ITERATIONS} iterations (graphology: Barnes-Hut, theta 0.5, cuGraph's defaults; ratios per iteration)`);
  console.log(table(["graph", "nodes", "ours opencl", "ours cpu", "graphology", "graphology/opencl", "graphology/cpu"], fa2Rows));
  if (fr || python) {
    console.log(`\nFruchterman-Reingold, ${ITERATIONS} iterations (igraph fr; python-igraph's call alone is timed)`);
    console.log(table(["graph", "nodes", "ours opencl", "ours cpu", "python-igraph", "igraph/opencl", "igraph/cpu"], frRows));
  }
  console.log("\nTargets: graphology/opencl >= 10x at 1M edges; our FR time <= igraph's (igraph/ours >= 1x).");
  console.log(loadLine());
}

const childAt = args.indexOf("--graphology-child");
if (childAt >= 0) graphologyChild(Number(args[childAt + 1]), Number(args[childAt + 2]));
else await main();
