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
// each in OpenCL); the intersection merges both lists, or binary-searches the longer one when sizes differ 16x.
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
  const out = new Float64Array(src.length);
  for (let e = 0; e < src.length; e++) {
    let u = src[e] as number;
    let v = dst[e] as number;
    let ub = start[u] as number;
    let ue = start[u + 1] as number;
    let vb = start[v] as number;
    let ve = start[v + 1] as number;
    if (ue - ub > ve - vb) {
      const t = u;
      u = v;
      v = t;
      const tb = ub;
      ub = vb;
      vb = tb;
      const te = ue;
      ue = ve;
      ve = te;
    }
    // Now u has the shorter list.
    let shared = 0;
    if (ve - vb > 16 * (ue - ub)) {
      let lo = vb;
      for (let i = ub; i < ue; i++) {
        const x = nbr[i] as number;
        let hi = ve;
        while (lo < hi) {
          const mid = (lo + hi) >>> 1;
          if ((nbr[mid] as number) < x) lo = mid + 1;
          else hi = mid;
        }
        if (lo < ve && (nbr[lo] as number) === x) {
          if (weighted) {
            const a = wt[i] as number;
            const b = wt[lo] as number;
            shared += a < b ? a : b;
          } else shared++;
          lo++;
        }
      }
    } else {
      let i = ub;
      let j = vb;
      while (i < ue && j < ve) {
        const x = nbr[i] as number;
        const y = nbr[j] as number;
        if (x < y) i++;
        else if (y < x) j++;
        else {
          if (weighted) {
            const a = wt[i] as number;
            const b = wt[j] as number;
            shared += a < b ? a : b;
          } else shared++;
          i++;
          j++;
        }
      }
    }
    const tu = total[u] as number;
    const tv = total[v] as number;
    if (metric === 0) out[e] = shared / (tu + tv - shared);
    else if (metric === 1) out[e] = shared / (tu < tv ? tu : tv);
    else out[e] = (2 * shared) / (tu + tv);
  }
  return out;
}
