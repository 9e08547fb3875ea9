// A linear-time live layout for bench/layout-stream (loaded into the server with COMPUTE_EXTRA_ALGORITHMS): Koren's
// spectral drawing by power iteration (each step moves every node halfway to its neighbours' mean, then centres the
// axes, makes y orthogonal to x and scales both to unit spread). One step is O(n + m), so the frame rate it streams
// at is the stream's own capacity, not the layout's speed.
import type { ComputeGraph } from "../kernels/cpu/csr.ts";
import { randomPositions } from "../src/layout/seeded.ts";
import { type LayoutEntry, type LayoutIteration, layoutEntry } from "../src/layout/types.ts";

function normalize(axis: Float64Array, against?: Float64Array): void {
  const n = axis.length;
  let mean = 0;
  for (let i = 0; i < n; i++) mean += axis[i] as number;
  mean /= n;
  for (let i = 0; i < n; i++) axis[i] = (axis[i] as number) - mean;
  if (against) {
    let dot = 0;
    let norm = 0;
    for (let i = 0; i < n; i++) {
      dot += (axis[i] as number) * (against[i] as number);
      norm += (against[i] as number) ** 2;
    }
    if (norm > 0) for (let i = 0; i < n; i++) axis[i] = (axis[i] as number) - (dot / norm) * (against[i] as number);
  }
  let spread = 0;
  for (let i = 0; i < n; i++) spread += (axis[i] as number) ** 2;
  const scale = spread > 0 ? Math.sqrt(n / spread) : 1;
  for (let i = 0; i < n; i++) axis[i] = (axis[i] as number) * scale;
}

function start(graph: ComputeGraph, params: Record<string, unknown>, _ctx: unknown, initial?: Float32Array): LayoutIteration {
  const n = graph.n;
  const seeded = randomPositions(n, 2, Number(params.seed ?? 42));
  const x = new Float64Array(n);
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    x[i] = initial ? (initial[i * 2] as number) : (seeded[i * 2] as number);
    y[i] = initial ? (initial[i * 2 + 1] as number) : (seeded[i * 2 + 1] as number);
  }
  const nx = new Float64Array(n);
  const ny = new Float64Array(n);
  const out = new Float32Array(n * 2);
  let iteration = 0;
  return {
    dims: 2,
    get iteration() {
      return iteration;
    },
    step() {
      nx.fill(0);
      ny.fill(0);
      const degree = new Float64Array(n);
      for (let e = 0; e < graph.m; e++) {
        const a = graph.src[e] as number;
        const b = graph.dst[e] as number;
        nx[a] = (nx[a] as number) + (x[b] as number);
        ny[a] = (ny[a] as number) + (y[b] as number);
        nx[b] = (nx[b] as number) + (x[a] as number);
        ny[b] = (ny[b] as number) + (y[a] as number);
        degree[a] = (degree[a] as number) + 1;
        degree[b] = (degree[b] as number) + 1;
      }
      for (let i = 0; i < n; i++) {
        const d = degree[i] as number;
        if (d === 0) continue;
        x[i] = 0.5 * (x[i] as number) + (0.5 * (nx[i] as number)) / d;
        y[i] = 0.5 * (y[i] as number) + (0.5 * (ny[i] as number)) / d;
      }
      normalize(x);
      normalize(y, x);
      iteration += 1;
    },
    positions() {
      for (let i = 0; i < n; i++) {
        out[i * 2] = x[i] as number;
        out[i * 2 + 1] = y[i] as number;
      }
      return out;
    },
  };
}

const spectral = layoutEntry({
  library: "cugraph",
  name: "bench_spectral",
  dims: 2,
  params: {
    max_iter: { type: "integer", default: 100, min: 0, description: "iterations" },
    seed: { type: "integer", default: 42, description: "seed of the start" },
  },
  doc: "spectral drawing by power iteration (bench fixture)",
  place(graph, params, ctx) {
    const iteration = start(graph, params, ctx);
    for (let i = 0; i < Number(params.max_iter ?? 100); i++) iteration.step();
    return Float64Array.from(iteration.positions());
  },
  start,
  liveParams: ["max_iter"],
});

export const entries: LayoutEntry[] = [spectral];
