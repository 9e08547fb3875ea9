// The pagerank kernel's loop (Jacobi steps, kernels/cpu/pagerank.ts) split across a kernel pool on the CPU
// backend for large graphs: each step the pool threads pull their share of rows (spmvRows over shared memory),
// then this thread applies damping, teleport and dangling mass and tests convergence exactly as the kernel does.
import type { PagerankArgs, PagerankResult } from "../../../../kernels/cpu/pagerank.ts";
import { type SpmvRowsArgs, spmvRows } from "../../../../kernels/cpu/spmv.ts";
import type { ComputeContext } from "../../types.ts";
import { kernelPool } from "./threads.ts";

/** Row ranges of about equal entry counts, one per thread. */
function ranges(start: Int32Array, n: number, parts: number): { from: number; to: number }[] {
  const total = start[n] as number;
  const out: { from: number; to: number }[] = [];
  let from = 0;
  for (let p = 1; p <= parts; p++) {
    let to = from;
    const goal = (total * p) / parts;
    while (to < n && ((start[to + 1] as number) <= goal || p === parts)) to++;
    if (to === from && to < n) to++;
    out.push({ from, to });
    from = to;
  }
  return out.filter((r) => r.to > r.from);
}

function shared(n: number): Float64Array {
  return new Float64Array(new SharedArrayBuffer(8 * Math.max(1, n)), 0, n);
}

export function parallelPagerank(ctx: ComputeContext, args: PagerankArgs, threads: number): PagerankResult {
  const { n, start, nbr, weight, outWeight, damping, personalization, maxIter, tol, relTol } = args;
  const share = shared(n);
  const sums = shared(n);
  let x = new Float64Array(n);
  let next = new Float64Array(n);
  if (args.initial) x.set(args.initial);
  else x.fill(1 / n);
  const uniform = 1 / n;
  let dangling = 0;
  for (let v = 0; v < n; v++) {
    const ow = outWeight[v] as number;
    if (ow === 0) dangling += x[v] as number;
    else share[v] = (x[v] as number) / ow;
  }
  const parts = ranges(start, n, threads);
  const base: SpmvRowsArgs = { n, start, nbr, weight, x: share, y: sums, from: 0, to: 0 };
  const pool = kernelPool<SpmvRowsArgs, null>(
    new URL("../../../../kernels/cpu/spmv.ts", import.meta.url),
    "spmvRows",
    base,
    spmvRows,
    parts.length,
  );
  let iterations = 0;
  let converged = false;
  try {
    while (iterations < maxIter) {
      iterations++;
      pool.run(parts);
      let err = 0;
      let worst = 0;
      let nextDangling = 0;
      for (let i = 0; i < n; i++) {
        const p = personalization ? (personalization[i] as number) : uniform;
        const value = damping * ((sums[i] as number) + dangling * p) + (1 - damping) * p;
        const change = Math.abs(value - (x[i] as number));
        err += change;
        if (change > worst * value) worst = value > 0 ? change / value : Number.POSITIVE_INFINITY;
        next[i] = value;
      }
      const swap = x;
      x = next;
      next = swap;
      for (let v = 0; v < n; v++) {
        const ow = outWeight[v] as number;
        if (ow === 0) nextDangling += x[v] as number;
        else share[v] = (x[v] as number) / ow;
      }
      dangling = nextDangling;
      if (iterations % 5 === 0) {
        ctx.checkCancelled();
        ctx.progress({ phase: "pagerank", iteration: iterations });
      }
      if (err < tol || (relTol > 0 && worst <= relTol)) {
        converged = true;
        break;
      }
    }
  } finally {
    pool.close();
  }
  return { rank: x, iterations, converged };
}
