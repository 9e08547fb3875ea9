// igraph_modularity (resolution 1) summed in igraph 0.10's order, for choosing where a dendrogram is cut.

/**
 * Modularity of `membership` (any non-negative ids) over edges src[e] -> dst[e]: directed (k_out k_in / m) when
 * `directed`, else undirected (loops count twice). NaN when there are no edges.
 */
export function igraphModularity(
  src: Int32Array,
  dst: Int32Array,
  membership: Int32Array,
  weights: Float64Array | null,
  directed: boolean,
  scratch?: { e: Float64Array; kOut: Float64Array; kIn: Float64Array },
): number {
  const m = src.length;
  if (m === 0) return Number.NaN;
  let types = 0;
  for (let i = 0; i < membership.length; i++) if ((membership[i] as number) + 1 > types) types = (membership[i] as number) + 1;
  const e = scratch && scratch.e.length >= types ? scratch.e : new Float64Array(types);
  const kOut = scratch && scratch.kOut.length >= types ? scratch.kOut : new Float64Array(types);
  const kIn = scratch && scratch.kIn.length >= types ? scratch.kIn : new Float64Array(types);
  e.fill(0, 0, types);
  kOut.fill(0, 0, types);
  kIn.fill(0, 0, types);
  const mult = directed ? 1 : 2;
  let total = 0;
  for (let i = 0; i < m; i++) {
    const w = weights ? (weights[i] as number) : 1;
    const c1 = membership[src[i] as number] as number;
    const c2 = membership[dst[i] as number] as number;
    if (c1 === c2) e[c1] = (e[c1] as number) + mult * w;
    kOut[c1] = (kOut[c1] as number) + w;
    kIn[c2] = (kIn[c2] as number) + w;
    total += w;
  }
  if (!weights) total = m;
  if (!directed) {
    for (let i = 0; i < types; i++) {
      const s = (kOut[i] as number) + (kIn[i] as number);
      kOut[i] = s;
      kIn[i] = s;
    }
  }
  const scale = 1 / (mult * total);
  let q = 0;
  if (total > 0) {
    for (let i = 0; i < types; i++) {
      q += (e[i] as number) * scale;
      q -= (kOut[i] as number) * scale * ((kIn[i] as number) * scale);
    }
  }
  return q;
}
