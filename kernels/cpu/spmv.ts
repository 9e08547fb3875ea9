// Kernel "spmv": one pull sparse-matrix x vector product, y[i] = sum over entries j of node i of w_j * x[nbr[j]]
// (katz, eigenvector centrality and HITS iterate it).
//
// Args: n; start (n + 1) / nbr: entries start[i] .. start[i + 1] of row i hold the column (node) of each non-zero;
// weight: each entry's value (null: 1 each); x: the vector (length n); y (optional, not x): the array to write the
// result into (iterations reuse two arrays instead of making one per step). Result: y (a new Float64Array of
// length n when none is given).
// spmvRows is the same product over rows from .. to - 1 only, written into y (the slice a pool thread computes).

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
