// Power iteration over the "spmv" kernel for the eigenvector-type centralities, and the per-entry weights that
// read a self-loop once on an undirected graph (networkx's and igraph's HITS adjacency) instead of twice.
import { type SpmvArgs, spmv } from "../../../../kernels/cpu/spmv.ts";
import type { ComputeContext } from "../../types.ts";
import { type Adjacency, entryWeights } from "./adjacency.ts";

/** Pull lists with their weights: row i of the matrix is entries start[i] .. start[i + 1] of `lists`. */
export type Matrix = { n: number; start: Int32Array; nbr: Int32Array; weight: Float64Array | null };

/** y = M x through the kernel, written into `into` when given (not x); answers y. */
export function product(ctx: ComputeContext, m: Matrix, x: Float64Array, into?: Float64Array): Float64Array {
  const args: SpmvArgs = { n: m.n, start: m.start, nbr: m.nbr, weight: m.weight, x };
  if (into) args.y = into;
  return ctx.kernel<SpmvArgs, Float64Array>("spmv", spmv)(args);
}

/**
 * The matrix of `lists` with each entry weighted by its edge's weight (null: 1), a self-loop's two entries at
 * half weight each when `loopOnce` (so that the loop counts once).
 */
export function matrix(n: number, lists: Adjacency, weights: Float64Array | null, loopOnce: boolean): Matrix {
  let weight = weights ? entryWeights(lists, weights) : null;
  if (loopOnce) {
    for (let v = 0; v < n; v++) {
      for (let j = lists.start[v] as number; j < (lists.start[v + 1] as number); j++) {
        if (lists.nbr[j] !== v) continue;
        if (!weight) weight = new Float64Array(lists.nbr.length).fill(1);
        weight[j] = (weight[j] as number) / 2;
      }
    }
  }
  return { n, start: lists.start, nbr: lists.nbr, weight };
}

/**
 * The dominant eigenvector of `apply` (a non-negative operator) by power iteration on apply + shift * I, scaled to
 * a largest entry of 1; stops once no entry moves by more than `tol` or after maxIter steps. `apply(x, into)` may
 * write its answer into `into` (never x): the steps then reuse two arrays instead of making one each.
 */
export function dominant(
  ctx: ComputeContext,
  n: number,
  apply: (x: Float64Array, into: Float64Array) => Float64Array,
  start: Float64Array,
  options: { shift: number; tol: number; maxIter: number; phase: string },
): { vector: Float64Array; iterations: number; converged: boolean } {
  let x = scaleToMax(Float64Array.from(start));
  let spare: Float64Array = new Float64Array(n);
  // Rounding can hold the change just above a very small tol: below 1e-10, 200 steps without halving it end the loop.
  let best = Number.POSITIVE_INFINITY;
  let stale = 0;
  for (let it = 1; it <= options.maxIter; it++) {
    const y = apply(x, spare);
    if (options.shift !== 0) for (let i = 0; i < n; i++) y[i] = (y[i] as number) + options.shift * (x[i] as number);
    scaleToMax(y);
    let change = 0;
    for (let i = 0; i < n; i++) change = Math.max(change, Math.abs((y[i] as number) - (x[i] as number)));
    spare = x;
    x = y;
    if (it % 50 === 0) {
      ctx.checkCancelled();
      ctx.progress({ phase: options.phase, iteration: it });
    }
    if (change < options.tol) return { vector: x, iterations: it, converged: true };
    if (change < best / 2) {
      best = change;
      stale = 0;
    } else if (change < 1e-10 && ++stale >= 200) return { vector: x, iterations: it, converged: true };
  }
  return { vector: x, iterations: options.maxIter, converged: false };
}

/** Divides by the largest absolute entry (in place); an all-zero vector stays zero. */
export function scaleToMax(x: Float64Array): Float64Array {
  let max = 0;
  for (let i = 0; i < x.length; i++) max = Math.max(max, Math.abs(x[i] as number));
  if (max > 0) for (let i = 0; i < x.length; i++) x[i] = (x[i] as number) / max;
  return x;
}

/** Divides by the Euclidean length (in place). */
export function scaleToUnit(x: Float64Array): Float64Array {
  let sum = 0;
  for (let i = 0; i < x.length; i++) sum += (x[i] as number) * (x[i] as number);
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < x.length; i++) x[i] = (x[i] as number) / norm;
  return x;
}
