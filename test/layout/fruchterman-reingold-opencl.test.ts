// Kernel "fruchterman-reingold" on OpenCL against its CPU twin: the same positions within 1e-9 over the first
// steps (all pairs, disconnected, weighted, bounded, coincident vertices, the grid in 2D and 3D; later steps of a
// force layout amplify rounding differences, so whole runs are compared by their quality), and fr / fr_3d placed
// on the opencl backend: deterministic, finite, and as good as on the CPU.
import { describe, expect, it } from "vitest";
import { computeGraph, undirected } from "../../kernels/cpu/csr.ts";
import { type FrArgs, type FrStepper, frStepper } from "../../kernels/cpu/fruchterman-reingold.ts";
import { openclStatus } from "../../kernels/opencl/index.ts";
import { createComputeContext } from "../../src/compute/backend.ts";
import { cpuContext } from "../../src/compute/types.ts";
import { randomStart } from "../../src/layout/algorithms/fruchterman-reingold/start.ts";
import { findLayout } from "../../src/layout/registry.ts";
import { allFinite, layoutStress, randomGraph } from "../helpers/layout-quality.ts";
import { kernelOn } from "../kernels/backends.ts";
import { median, ourStresses } from "./fruchterman-reingold-fixtures.ts";

const available = openclStatus().available;

type Variant = {
  name: string;
  n: number;
  m: number;
  dims: 2 | 3;
  grid: boolean;
  disconnected?: boolean;
  weighted?: boolean;
  bounded?: boolean;
};

function argsOf(v: Variant): FrArgs {
  const edges = randomGraph(v.n, v.m, 21);
  const g = computeGraph(v.n, edges, { directed: false });
  const adj = undirected(g);
  const positions = randomStart(v.n, v.dims, { lower: [], upper: [] }, 4);
  // vertices 3 and 5 start at the same point
  for (let k = 0; k < v.dims; k++) positions[3 * v.dims + k] = positions[5 * v.dims + k] as number;
  const lower = v.bounded ? Float64Array.from({ length: v.n * v.dims }, (_, i) => (i % 5 === 0 ? -0.5 : Number.NEGATIVE_INFINITY)) : null;
  const upper = v.bounded ? Float64Array.from({ length: v.n * v.dims }, (_, i) => (i % 5 === 0 ? 0.5 : Number.POSITIVE_INFINITY)) : null;
  return {
    n: v.n,
    dims: v.dims,
    src: g.src,
    dst: g.dst,
    weight: v.weighted ? Float64Array.from(edges, (_, e) => 0.5 + (e % 3)) : null,
    adjStart: adj.start,
    adjNbr: adj.nbr,
    adjEdge: adj.edge,
    positions,
    grid: v.grid,
    disconnected: v.disconnected ?? false,
    lower,
    upper,
    seed: 42,
  };
}

const variants: Variant[] = [
  { name: "all pairs 2D", n: 120, m: 240, dims: 2, grid: false },
  { name: "all pairs 2D, disconnected form, weighted", n: 120, m: 100, dims: 2, grid: false, disconnected: true, weighted: true },
  { name: "all pairs 3D, bounded", n: 90, m: 200, dims: 3, grid: false, bounded: true },
  { name: "grid 2D, weighted, bounded", n: 700, m: 1400, dims: 2, grid: true, weighted: true, bounded: true },
  { name: "grid 3D", n: 600, m: 1200, dims: 3, grid: true },
];

describe.runIf(available)("kernel fruchterman-reingold on OpenCL", () => {
  it.each(variants)("matches the CPU twin step by step: $name", (v) => {
    const args = argsOf(v);
    const cpu = frStepper(args);
    const cl = kernelOn<FrArgs, FrStepper>("opencl", "fruchterman-reingold", frStepper)(args);
    try {
      const a = new Float64Array(v.n * v.dims);
      const b = new Float64Array(v.n * v.dims);
      const scale = Math.sqrt(v.n) / 10;
      for (let s = 0; s < 4; s++) {
        cpu.step(scale * (1 - s / 10));
        cl.step(scale * (1 - s / 10));
        cpu.read(a);
        cl.read(b);
        let worst = 0;
        for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs((a[i] as number) - (b[i] as number)));
        expect(worst).toBeLessThan(1e-9);
      }
      expect(Array.from(a)).not.toEqual(Array.from(args.positions));
    } finally {
      cl.dispose();
    }
  });

  it.each([
    { dims: 2 as const, grid: "nogrid", n: 150, m: 300 },
    { dims: 2 as const, grid: "grid", n: 1100, m: 2200 },
    { dims: 3 as const, grid: "grid", n: 900, m: 1800 },
  ])(
    "places fr ($dims D, $grid) on the opencl backend: deterministic, finite, as good as the CPU",
    ({ dims, grid, n, m }) => {
      const ctx = createComputeContext({ backend: "opencl" });
      const entry = findLayout("igraph", dims === 3 ? "fr_3d" : "fr");
      const edges = randomGraph(n, m, 31);
      const g = computeGraph(n, edges, { directed: false });
      const a = entry?.place(g, { grid }, ctx) as Float64Array;
      const b = entry?.place(g, { grid }, ctx) as Float64Array;
      expect(allFinite(a)).toBe(true);
      expect(Array.from(a)).toEqual(Array.from(b));
      const c = { n, edges };
      const onCl = median(ourStresses(c, dims, { grid, niter: 200 }, ctx, [1, 2, 3]));
      const onCpu = median(ourStresses(c, dims, { grid, niter: 200 }, cpuContext, [1, 2, 3]));
      expect(onCl).toBeLessThan(onCpu * 1.05);
      expect(onCl).toBeLessThan(layoutStress(n, edges, randomStart(n, dims, { lower: [], upper: [] }, 9), dims) * 0.8);
    },
    120_000,
  );
});
