// Kernel "pagerank": the whole PageRank power loop (pull form) with dangling redistribution and personalization.
//
// Args (one plain object; the OpenCL version takes the same):
// - n: node count; start (n + 1) / nbr: pull lists, entries start[i] .. start[i + 1] of node i hold the source node
//   of each link arriving at i (a node's in-links; on an undirected graph its neighbours);
// - weight: the weight of each entry (null: 1 each); outWeight: per node, the total weight of the links leaving it
//   (0 = dangling: its rank goes to `personalization`);
// - damping; personalization: the teleport (and dangling) distribution, summing to 1 (null: uniform 1/n);
// - initial: the start vector (null: uniform 1/n); maxIter; tol: the loop stops once sum |x - xlast| < tol;
// - relTol: when above 0, the loop also stops once no node's value moves by more than relTol of itself;
// - inPlace: false runs exact Jacobi steps (networkx's iterates, step for step); true lets a sweep read the values
//   it has already updated (Gauss-Seidel, about half the sweeps to the same fixed point; the dangling mass is the
//   sweep's starting one). A parallel version may run Jacobi steps for inPlace: the fixed point is the same.
// Each Jacobi step: x'[i] = damping * (sum_j x[src_j] * w_j / outWeight[src_j] + dangling * p[i]) + (1 - damping) * p[i],
// where dangling = the rank held by dangling nodes (networkx's _pagerank_scipy step, exactly).
// Result: rank (not renormalized), the iterations run, and whether the loop converged.

export type PagerankArgs = {
  n: number;
  start: Int32Array;
  nbr: Int32Array;
  weight: Float64Array | null;
  outWeight: Float64Array;
  damping: number;
  personalization: Float64Array | null;
  initial: Float64Array | null;
  maxIter: number;
  tol: number;
  relTol: number;
  inPlace: boolean;
};

export type PagerankResult = { rank: Float64Array; iterations: number; converged: boolean };

export function pagerank(args: PagerankArgs): PagerankResult {
  const { n, start, nbr, weight, outWeight, damping, personalization, maxIter, tol, relTol, inPlace } = args;
  let x = new Float64Array(n);
  let next = inPlace ? x : new Float64Array(n);
  let share = new Float64Array(n);
  let nextShare = inPlace ? share : new Float64Array(n);
  if (args.initial) x.set(args.initial);
  else x.fill(1 / n);
  const uniform = 1 / n;
  let dangling = 0;
  for (let v = 0; v < n; v++) {
    const ow = outWeight[v] as number;
    if (ow === 0) dangling += x[v] as number;
    else share[v] = (x[v] as number) / ow;
  }
  let iterations = 0;
  let converged = false;
  while (iterations < maxIter) {
    iterations++;
    let err = 0;
    let worst = 0;
    let nextDangling = 0;
    for (let i = 0; i < n; i++) {
      let sum = 0;
      const end = start[i + 1] as number;
      if (weight) for (let j = start[i] as number; j < end; j++) sum += (share[nbr[j] as number] as number) * (weight[j] as number);
      else for (let j = start[i] as number; j < end; j++) sum += share[nbr[j] as number] as number;
      const p = personalization ? (personalization[i] as number) : uniform;
      const value = damping * (sum + dangling * p) + (1 - damping) * p;
      const change = Math.abs(value - (x[i] as number));
      err += change;
      if (change > worst * value) worst = value > 0 ? change / value : Number.POSITIVE_INFINITY;
      next[i] = value;
      const ow = outWeight[i] as number;
      if (ow === 0) nextDangling += value;
      else nextShare[i] = value / ow;
    }
    if (!inPlace) {
      const swap = x;
      x = next;
      next = swap;
      const swapShare = share;
      share = nextShare;
      nextShare = swapShare;
    }
    dangling = nextDangling;
    if (err < tol || (relTol > 0 && worst <= relTol)) {
      converged = true;
      break;
    }
  }
  return { rank: x, iterations, converged };
}
