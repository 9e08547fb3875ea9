// Kernel "spmv": one pull sparse-matrix x vector product, y[i] = sum over entries j of node i of w_j * x[nbr[j]]
// (katz, eigenvector centrality and HITS iterate it).
//
// Args: n; start (n + 1) / nbr: entries start[i] .. start[i + 1] of row i hold the column (node) of each non-zero;
// weight: each entry's value (null: 1 each); x: the vector (length n); y (optional, not x): the array to write the
// result into (iterations reuse two arrays instead of making one per step). Result: y (a new Float64Array of
// length n when none is given).
// spmvRows is the same product over rows from .. to - 1 only, written into y (the slice a pool thread computes).

import type { Csr } from "./csr.ts";

export type SpmvArgs = { n: number; start: Int32Array; nbr: Int32Array; weight: Float64Array | null; x: Float64Array; y?: Float64Array };

export function spmv(args: SpmvArgs): Float64Array {
  const y = args.y ?? new Float64Array(args.n);
  spmvRows({ ...args, y, from: 0, to: args.n });
  return y;
}

export type SpmvRowsArgs = Omit<SpmvArgs, "y"> & { y: Float64Array; from: number; to: number };

export function spmvRows(args: SpmvRowsArgs): null {
  const { start, nbr, weight, x, y, from, to } = args;
  let j = start[from] as number;
  for (let i = from; i < to; i++) {
    let sum = 0;
    const end = start[i + 1] as number;
    if (weight) for (; j < end; j++) sum += (weight[j] as number) * (x[nbr[j] as number] as number);
    else for (; j < end; j++) sum += x[nbr[j] as number] as number;
    y[i] = sum;
  }
  return null;
}

export type SpmvCsrArgs = Pick<Csr, "n" | "outStart" | "outEdges" | "outDst" | "inStart" | "inEdges" | "inSrc"> & {
  /** Per edge row (null: 1 each). */
  weight: Float64Array | null;
  /** float32 too (a solver's basis vector, read as it is stored). */
  x: Float64Array | Float32Array;
  y: Float64Array;
};

/**
 * The product with the undirected adjacency of a CSR, self-loops left out: y[v] = the sum over v's out-edges, then
 * its in-edges, of w_e * x[other end], skipping loops. The entries come in the order of the graph's undirected view
 * (out-edges, then in-edges), so the sums are those of spmv over that view, without the view's arrays (an int32 per
 * entry twice, and a float64 per entry when weighted). CPU only.
 */
export function spmvUndirectedCsr(args: SpmvCsrArgs): Float64Array {
  const { n, outStart, outEdges, outDst, inStart, inEdges, inSrc, weight, x, y } = args;
  for (let v = 0; v < n; v++) {
    let sum = 0;
    const outEnd = outStart[v + 1] as number;
    const inEnd = inStart[v + 1] as number;
    if (weight) {
      for (let j = outStart[v] as number; j < outEnd; j++) {
        const t = outDst[j] as number;
        if (t !== v) sum += (weight[outEdges[j] as number] as number) * (x[t] as number);
      }
      for (let j = inStart[v] as number; j < inEnd; j++) {
        const s = inSrc[j] as number;
        if (s !== v) sum += (weight[inEdges[j] as number] as number) * (x[s] as number);
      }
    } else {
      for (let j = outStart[v] as number; j < outEnd; j++) {
        const t = outDst[j] as number;
        if (t !== v) sum += x[t] as number;
      }
      for (let j = inStart[v] as number; j < inEnd; j++) {
        const s = inSrc[j] as number;
        if (s !== v) sum += x[s] as number;
      }
    }
    y[v] = sum;
  }
  return y;
}
