// Kernel "edge-similarity": per pair of nodes, the Jaccard / overlap / Sorensen similarity of their neighbour sets.
//
// Args (one plain object):
//   start, nbr   each node's distinct neighbours, sorted by row: nbr[start[r] .. start[r + 1])
//   wt           Float64Array weight per entry of nbr (weighted variants); length 0 = unweighted
//   total        Float64Array per node: the sum of its entries' weights (unweighted: its count of neighbours)
//   src, dst     Int32Array: the pairs to score (one per edge)
//   metric       0 = Jaccard, 1 = overlap, 2 = Sorensen
// With a = the shared part (unweighted: |N(u) ∩ N(v)|; weighted: the sum over shared neighbours x of
// min(w(u,x), w(v,x))) and t_u, t_v the totals: Jaccard a / (t_u + t_v - a) (weighted: the union's sum of max),
// overlap a / min(t_u, t_v), Sorensen 2a / (t_u + t_v). 0/0 gives NaN. Each pair is independent (one work-item
// each in OpenCL, binary-searching the longer list); the CPU twin groups pairs by their end with the longer list
// and scans the shorter list against that end's marked neighbours, O(sum of the shorter lists).
// Result: Float64Array, one value per pair.

export type EdgeSimilarityArgs = {
  start: Int32Array;
  nbr: Int32Array;
  wt: Float64Array;
  total: Float64Array;
  src: Int32Array;
  dst: Int32Array;
  metric: number;
};

export function edgeSimilarity(args: EdgeSimilarityArgs): Float64Array {
  const { start, nbr, wt, total, src, dst, metric } = args;
  const weighted = wt.length > 0;
  const n = total.length;
  const pairs = src.length;
  const out = new Float64Array(pairs);
  // Each pair goes to its end with the longer list; pairs are grouped by that end (counting sort), whose
  // neighbours are marked once (stamp + weight by node row); the shorter list is then scanned against the marks
  // in row order, the order a merge meets the shared neighbours, so sums are added in the same order.
  const big = new Int32Array(pairs);
  const groupStart = new Int32Array(n + 1);
  for (let e = 0; e < pairs; e++) {
    const u = src[e] as number;
    const v = dst[e] as number;
    const du = (start[u + 1] as number) - (start[u] as number);
    const dv = (start[v + 1] as number) - (start[v] as number);
    const b = du > dv || (du === dv && u < v) ? u : v;
    big[e] = b;
    groupStart[b + 1] = (groupStart[b + 1] as number) + 1;
  }
  for (let r = 0; r < n; r++) groupStart[r + 1] = (groupStart[r + 1] as number) + (groupStart[r] as number);
  const fill = groupStart.slice(0, n);
  const grouped = new Int32Array(pairs);
  for (let e = 0; e < pairs; e++) {
    const b = big[e] as number;
    const at = fill[b] as number;
    grouped[at] = e;
    fill[b] = at + 1;
  }
  // Marks of the current group's end: a byte per node (set, then cleared after the group), its weights beside.
  const marked = new Uint8Array(n);
  const mark = weighted ? new Float64Array(n) : new Float64Array(0);
  for (let b = 0; b < n; b++) {
    const gb = groupStart[b] as number;
    const ge = groupStart[b + 1] as number;
    if (gb === ge) continue;
    const bEnd = start[b + 1] as number;
    for (let j = start[b] as number; j < bEnd; j++) {
      const x = nbr[j] as number;
      marked[x] = 1;
      if (weighted) mark[x] = wt[j] as number;
    }
    for (let g = gb; g < ge; g++) {
      const e = grouped[g] as number;
      const u = src[e] as number;
      const o = u === b ? (dst[e] as number) : u;
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
    for (let j = start[b] as number; j < bEnd; j++) marked[nbr[j] as number] = 0;
  }
  return out;
}
