// Kernel "pagerank" on each backend: a hand-checked graph, the fixed-point equation on seeded graphs, and the
// OpenCL version against the CPU twin within 1e-9 relative.
import { describe, expect, it } from "vitest";
import type { Csr } from "../../kernels/cpu/csr.ts";
import { type PagerankArgs, pagerank } from "../../kernels/cpu/pagerank.ts";
import { backends, kernelOn } from "./backends.ts";
import { maxRelDiff, skewedGraph, weights } from "./graphs.ts";

/** Pull-form args over the CSR's in-links, weighted by edge weights when given. */
function argsOf(csr: Csr, w: Float64Array | null, extra: Partial<PagerankArgs> = {}): PagerankArgs {
  const weight = w ? Float64Array.from(csr.inEdges, (e) => w[e] as number) : null;
  const outWeight = new Float64Array(csr.n);
  for (let e = 0; e < csr.m; e++) {
    const s = csr.src[e] as number;
    outWeight[s] = (outWeight[s] as number) + (w ? (w[e] as number) : 1);
  }
  return {
    n: csr.n,
    start: csr.inStart,
    nbr: csr.inSrc,
    weight,
    outWeight,
    damping: 0.85,
    personalization: null,
    initial: null,
    maxIter: 200,
    tol: 1e-12,
    relTol: 0,
    inPlace: false,
    ...extra,
  };
}

/** max |x - F(x)| where F is one PageRank step: the result must be a fixed point. */
function fixedPointError(a: PagerankArgs, x: Float64Array): number {
  let dangling = 0;
  for (let v = 0; v < a.n; v++) if (a.outWeight[v] === 0) dangling += x[v] as number;
  let worst = 0;
  for (let i = 0; i < a.n; i++) {
    let sum = 0;
    for (let j = a.start[i] as number; j < (a.start[i + 1] as number); j++) {
      const s = a.nbr[j] as number;
      sum += ((x[s] as number) / (a.outWeight[s] as number)) * (a.weight ? (a.weight[j] as number) : 1);
    }
    const p = a.personalization ? (a.personalization[i] as number) : 1 / a.n;
    worst = Math.max(worst, Math.abs(a.damping * (sum + dangling * p) + (1 - a.damping) * p - (x[i] as number)));
  }
  return worst;
}

describe.each(backends)("kernel pagerank on %s", (backend) => {
  const run = kernelOn(backend, "pagerank", pagerank);

  it("ranks a 3-cycle with a dangling node as the closed form says", () => {
    // 0 -> 1 -> 2 -> 0, and 3 -> 0 with node 3 receiving nothing: x3 = 0.15/4 + 0.85 * 0 + dangling 0.
    const start = new Int32Array([0, 2, 3, 4, 4]);
    const nbr = new Int32Array([2, 3, 0, 1]);
    const outWeight = new Float64Array([1, 1, 1, 1]);
    const r = run({
      n: 4,
      start,
      nbr,
      weight: null,
      outWeight,
      damping: 0.85,
      personalization: null,
      initial: null,
      maxIter: 500,
      tol: 1e-14,
      relTol: 0,
      inPlace: false,
    });
    expect(r.converged).toBe(true);
    const x3 = 0.15 / 4;
    expect(r.rank[3]).toBeCloseTo(x3, 12);
    // x1 = 0.0375 + 0.85 x0, x2 = 0.0375 + 0.85 x1, x0 = 0.0375 + 0.85 (x2 + x3); sum = 1.
    const x0 = r.rank[0] as number;
    expect(r.rank[1]).toBeCloseTo(0.0375 + 0.85 * x0, 12);
    expect(x0).toBeCloseTo(0.0375 + 0.85 * ((r.rank[2] as number) + x3), 12);
    expect((r.rank as Float64Array).reduce((s, v) => s + v, 0)).toBeCloseTo(1, 12);
  });

  for (const [seed, n, m, weighted] of [
    [11, 2000, 9000, false],
    [12, 5000, 30000, true],
    [13, 300, 200, false],
  ] as const) {
    it(`reaches the fixed point on a seeded graph (seed ${seed}, ${n} nodes, ${m} edges${weighted ? ", weighted" : ""})`, () => {
      const csr = skewedGraph(seed, n, m);
      const a = argsOf(csr, weighted ? weights(seed, m) : null);
      const r = run(a);
      expect(r.converged).toBe(true);
      expect(fixedPointError(a, r.rank)).toBeLessThan(1e-12);
      const cpu = pagerank(a);
      expect(maxRelDiff(r.rank, cpu.rank)).toBeLessThan(1e-9);
      expect(Math.abs(r.iterations - cpu.iterations)).toBeLessThanOrEqual(1);
    });
  }

  it("takes personalization and a start vector, and stops at maxIter", () => {
    const csr = skewedGraph(21, 1000, 5000);
    const personalization = new Float64Array(1000);
    personalization[3] = 0.5;
    personalization[7] = 0.5;
    const initial = new Float64Array(1000).fill(1 / 1000);
    const a = argsOf(csr, null, { personalization, initial });
    const r = run(a);
    expect(fixedPointError(a, r.rank)).toBeLessThan(1e-12);
    expect(maxRelDiff(r.rank, pagerank(a).rank)).toBeLessThan(1e-9);
    const capped = run({ ...a, maxIter: 3 });
    expect(capped).toMatchObject({ iterations: 3, converged: false });
    expect(maxRelDiff(capped.rank, pagerank({ ...a, maxIter: 3 }).rank)).toBeLessThan(1e-12);
  });

  it("stops on the relative tolerance, and reaches the same fixed point for inPlace", () => {
    const csr = skewedGraph(22, 3000, 15000);
    const a = argsOf(csr, null, { tol: 0, relTol: 1e-9, maxIter: 1000 });
    const r = run(a);
    const cpu = pagerank(a);
    expect(r.converged).toBe(true);
    expect(Math.abs(r.iterations - cpu.iterations)).toBeLessThanOrEqual(1);
    expect(maxRelDiff(r.rank, cpu.rank)).toBeLessThan(1e-8);
    const jacobi = run({ ...a, relTol: 0, tol: 1e-13 });
    const inPlace = run({ ...a, relTol: 0, tol: 1e-13, inPlace: true });
    expect(inPlace.converged).toBe(true);
    expect(fixedPointError(a, inPlace.rank)).toBeLessThan(1e-12);
    expect(maxRelDiff(inPlace.rank, jacobi.rank)).toBeLessThan(1e-9);
  });
});
