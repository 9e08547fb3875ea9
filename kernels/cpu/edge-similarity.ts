// Kernel "edge-similarity": per pair of nodes, the Jaccard / overlap / Sorensen similarity of their neighbour sets.
//
// Args (one plain object):
//   start, nbr   each node's distinct neighbours, sorted by row: nbr[start[r] .. start[r + 1])
//   wt           Float64Array weight per entry of nbr (weighted variants); length 0 = unweighted
//   total        Float64Array per node: the sum of its entries' weights (unweighted: its count of neighbours)
//   src, dst     Int32Array: the pairs to score (one per edge)
//   metric       0 = Jaccard, 1 = overlap, 2 = Sorensen
//   incStart, incPair (optional) the pairs touching each node, incPair[incStart[r] .. incStart[r + 1]) (every pair
//                listed at both its ends; the graph's undirected view, when the pairs are its edges). The CPU twin
//                then needs no grouping arrays of its own; results are the same without them.
//   incStart2, incPair2 (optional, with incStart/incPair) more pairs touching each node: the CSR's out-edge lists
//                as incStart/incPair and its in-edge lists here list every edge at both its ends with no copy.
// With a = the shared part (unweighted: |N(u) ∩ N(v)|; weighted: the sum over shared neighbours x of
// min(w(u,x), w(v,x))) and t_u, t_v the totals: Jaccard a / (t_u + t_v - a) (weighted: the union's sum of max),
// overlap a / min(t_u, t_v), Sorensen 2a / (t_u + t_v). 0/0 gives NaN. Each pair is independent (one work-item
// each in OpenCL, binary-searching the longer list); the CPU twin takes each pair at its end with the longer list
// (ties: the smaller row), marks that end's neighbours once, and scans the shorter list against the marks in row
// order (the order a merge meets the shared neighbours, so sums are added in the same order): O(sum of the
// shorter lists).
// Result: Float64Array, one value per pair.

export type EdgeSimilarityArgs = {
  start: Int32Array;
  nbr: Int32Array;
  wt: Float64Array;
  total: Float64Array;
  src: Int32Array;
  dst: Int32Array;
  metric: number;
  incStart?: Int32Array;
  incPair?: Int32Array;
  incStart2?: Int32Array;
  incPair2?: Int32Array;
};

/** The end of pair (u, v) that scores it: the one with the longer list, the smaller row on a tie. */
function bigEnd(start: Int32Array, u: number, v: number): number {
  const du = (start[u + 1] as number) - (start[u] as number);
  const dv = (start[v + 1] as number) - (start[v] as number);
  return du > dv || (du === dv && u < v) ? u : v;
}

/** Pairs grouped by their scoring end (a counting sort), when the caller gives no incidence lists. */
function groupPairs(start: Int32Array, src: Int32Array, dst: Int32Array, n: number): { incStart: Int32Array; incPair: Int32Array } {
  const pairs = src.length;
  const incStart = new Int32Array(n + 1);
  for (let e = 0; e < pairs; e++) {
    const b = bigEnd(start, src[e] as number, dst[e] as number);
    incStart[b + 1] = (incStart[b + 1] as number) + 1;
  }
  for (let r = 0; r < n; r++) incStart[r + 1] = (incStart[r + 1] as number) + (incStart[r] as number);
  const fill = incStart.slice(0, n);
  const incPair = new Int32Array(pairs);
  for (let e = 0; e < pairs; e++) {
    const b = bigEnd(start, src[e] as number, dst[e] as number);
    const at = fill[b] as number;
    incPair[at] = e;
    fill[b] = at + 1;
  }
  return { incStart, incPair };
}

/** Scores the pairs pairs[gb .. ge) of node b whose big end is b, against b's marked neighbours (and their weights). */
function scorePairs(
  args: EdgeSimilarityArgs,
  b: number,
  pairs: Int32Array,
  gb: number,
  ge: number,
  marked: Uint8Array,
  mark: Float64Array,
  out: Float64Array,
): void {
  const { start, nbr, wt, total, src, dst, metric } = args;
  const weighted = wt.length > 0;
  for (let g = gb; g < ge; g++) {
    const e = pairs[g] as number;
    const u = src[e] as number;
    const v = dst[e] as number;
    // A pair listed at both ends is scored at its big end only (a pair (b, b) twice, to the same value).
    if (bigEnd(start, u, v) !== b) continue;
    const o = u === b ? v : u;
    let shared = 0;
    const oEnd = start[o + 1] as number;
    for (let j = start[o] as number; j < oEnd; j++) {
      const x = nbr[j] as number;
      if (marked[x] === 0) continue;
      if (weighted) {
        const a = wt[j] as number;
        const c = mark[x] as number;
        shared += a < c ? a : c;
      } else shared++;
    }
    const tu = total[b] as number;
    const tv = total[o] as number;
    if (metric === 0) out[e] = shared / (tu + tv - shared);
    else if (metric === 1) out[e] = shared / (tu < tv ? tu : tv);
    else out[e] = (2 * shared) / (tu + tv);
  }
}

export function edgeSimilarity(args: EdgeSimilarityArgs): Float64Array {
  const { start, nbr, wt, total, src, dst } = args;
  const weighted = wt.length > 0;
  const n = total.length;
  const out = new Float64Array(src.length);
  const { incStart, incPair } =
    args.incStart && args.incPair ? { incStart: args.incStart, incPair: args.incPair } : groupPairs(start, src, dst, n);
  const incStart2 = args.incStart && args.incPair && args.incStart2 && args.incPair2 ? args.incStart2 : null;
  const incPair2 = incStart2 ? (args.incPair2 as Int32Array) : null;
  // Marks of the current end: a byte per node (set, then cleared after the end's pairs), its weights beside.
  const marked = new Uint8Array(n);
  const mark = weighted ? new Float64Array(n) : new Float64Array(0);
  for (let b = 0; b < n; b++) {
    const gb = incStart[b] as number;
    const ge = incStart[b + 1] as number;
    const gb2 = incStart2 ? (incStart2[b] as number) : 0;
    const ge2 = incStart2 ? (incStart2[b + 1] as number) : 0;
    if (gb === ge && gb2 === ge2) continue;
    const bEnd = start[b + 1] as number;
    for (let j = start[b] as number; j < bEnd; j++) {
      const x = nbr[j] as number;
      marked[x] = 1;
      if (weighted) mark[x] = wt[j] as number;
    }
    scorePairs(args, b, incPair, gb, ge, marked, mark, out);
    if (incPair2) scorePairs(args, b, incPair2, gb2, ge2, marked, mark, out);
    for (let j = start[b] as number; j < bEnd; j++) marked[nbr[j] as number] = 0;
  }
  return out;
}
