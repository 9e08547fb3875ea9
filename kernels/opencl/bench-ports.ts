// Quick measure of each OpenCL port against its CPU twin on a seeded power-law graph (not a test: prints a table).
// Usage: node kernels/opencl/bench-ports.ts [edges=2000000] [nodes=edges/5]
import { bfs } from "../cpu/bfs.ts";
import { brandes } from "../cpu/brandes.ts";
import { components } from "../cpu/components.ts";
import { coreNumber } from "../cpu/core-number.ts";
import { buildCsr, undirected } from "../cpu/csr.ts";
import { edgeSimilarity } from "../cpu/edge-similarity.ts";
import { pagerank } from "../cpu/pagerank.ts";
import { pathStats } from "../cpu/path-stats.ts";
import { spmv } from "../cpu/spmv.ts";
import { sssp } from "../cpu/sssp.ts";
import { openclKernel, openclStatus } from "./index.ts";

const m = Number(process.argv[2] ?? 2_000_000);
const n = Number(process.argv[3] ?? Math.floor(m / 5));

// mulberry32, and endpoints drawn by a power law (x^3 of a uniform: a few rows take most edges).
let state = 12345;
function rand(): number {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const src = new Int32Array(m);
const dst = new Int32Array(m);
for (let e = 0; e < m; e++) {
  src[e] = Math.floor(rand() ** 3 * n);
  dst[e] = Math.floor(rand() * n);
}
const weight = Float64Array.from({ length: m }, () => 0.1 + rand());
const csr = buildCsr(n, src, dst);
const u = undirected(csr);

// Distinct sorted neighbour lists for the similarity kernel.
const simStart = new Int32Array(n + 1);
const simNbr: number[] = [];
for (let v = 0; v < n; v++) {
  const list = [...new Set(u.nbr.subarray(u.start[v] as number, u.start[v + 1] as number))].sort((a, b) => a - b);
  for (const x of list) simNbr.push(x);
  simStart[v + 1] = simNbr.length;
}
const total = Float64Array.from({ length: n }, (_, v) => (simStart[v + 1] as number) - (simStart[v] as number));
const outWeight = new Float64Array(n);
for (let e = 0; e < m; e++) outWeight[src[e] as number] = (outWeight[src[e] as number] as number) + 1;
const x = Float64Array.from({ length: n }, () => rand());
const pivots = Int32Array.from({ length: 8 }, (_, i) => (i * 7919) % n);

// biome-ignore lint/suspicious/noExplicitAny: each kernel takes its own argument object
const cases: [string, (args: any) => unknown, unknown][] = [
  [
    "pagerank",
    pagerank,
    {
      n,
      start: csr.inStart,
      nbr: csr.inSrc,
      weight: null,
      outWeight,
      damping: 0.85,
      personalization: null,
      initial: null,
      maxIter: 100,
      tol: 1e-6 * n,
      relTol: 0,
      inPlace: false,
    },
  ],
  ["spmv", spmv, { n, start: csr.inStart, nbr: csr.inSrc, weight: null, x }],
  ["bfs", bfs, { n, start: u.start, nbr: u.nbr, sources: new Int32Array([0]), depthLimit: -1 }],
  ["components", components, { n, src, dst }],
  ["core-number", coreNumber, { n, start: u.start, nbr: u.nbr, rstart: u.start, rnbr: u.nbr }],
  ["sssp", sssp, { n, start: csr.outStart, nbr: csr.outDst, edge: csr.outEdges, weight, source: 0, cutoff: Number.POSITIVE_INFINITY }],
  [
    "edge-similarity",
    edgeSimilarity,
    { start: simStart, nbr: Int32Array.from(simNbr), wt: new Float64Array(0), total, src, dst, metric: 0 },
  ],
  ["brandes", brandes, { n, start: u.start, nbr: u.nbr, link: u.edge, links: m, sources: pivots, cutoff: -1, endpoints: false }],
  ["path-stats", pathStats, { n, start: u.start, nbr: u.nbr, sources: pivots, cutoff: -1 }],
];

function time(f: () => unknown): number {
  const t = performance.now();
  f();
  return performance.now() - t;
}

console.log(`graph: ${n} nodes, ${m} edges; OpenCL: ${JSON.stringify(openclStatus())}`);
console.log("kernel            cpu ms   opencl ms (first, with program build)");
for (const [name, cpu, args] of cases) {
  const port = openclKernel(name);
  const cpuMs = Math.min(
    time(() => cpu(args)),
    time(() => cpu(args)),
  );
  let cl = "n/a";
  if (port) {
    const first = time(() => port(args));
    const best = Math.min(
      time(() => port(args)),
      time(() => port(args)),
    );
    cl = `${best.toFixed(0)} (${first.toFixed(0)})`;
  }
  console.log(`${name.padEnd(16)} ${cpuMs.toFixed(0).padStart(7)}   ${cl}`);
}
