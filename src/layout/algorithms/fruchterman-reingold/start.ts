// igraph's random start for Fruchterman-Reingold (igraph_i_layout_random_bounded(_3d) in src/layout/layout_random.c):
// each coordinate uniform in [-sqrt(n)/2, sqrt(n)/2], or within the vertex's own bounds where given (igraph widens
// the default box by the largest lower / smallest upper bound that falls outside it, and an infinite bound falls
// back to the default side). Seeded: the same request gives the same start.
import { seededRandom } from "../../seeded.ts";
import type { Bounds } from "./inputs.ts";

export function randomStart(n: number, dims: 2 | 3, bounds: Bounds, seed: number): Float64Array {
  const width = Math.sqrt(n);
  const random = seededRandom(seed);
  const dmin: number[] = [];
  const dmax: number[] = [];
  for (let k = 0; k < dims; k++) {
    let lo = -width / 2;
    let hi = width / 2;
    const minv = bounds.lower[k];
    const maxv = bounds.upper[k];
    if (minv && minv.length > 0) {
      let m = Number.NEGATIVE_INFINITY;
      for (const v of minv) if (v > m) m = v;
      if (m > hi) hi += m;
    }
    if (maxv && maxv.length > 0) {
      let m = Number.POSITIVE_INFINITY;
      for (const v of maxv) if (v < m) m = v;
      if (m < lo) lo -= m;
    }
    dmin.push(lo);
    dmax.push(hi);
  }
  const out = new Float64Array(n * dims);
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < dims; k++) {
      let a = bounds.lower[k] ? (bounds.lower[k]?.[i] as number) : (dmin[k] as number);
      let b = bounds.upper[k] ? (bounds.upper[k]?.[i] as number) : (dmax[k] as number);
      if (!Number.isFinite(a)) a = -width / 2;
      if (!Number.isFinite(b)) b = width / 2;
      out[i * dims + k] = a + random() * (b - a);
    }
  }
  return out;
}
