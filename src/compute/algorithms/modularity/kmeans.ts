// k-means (k-means++ seeding, then Lloyd's iterations) over the rows of a dense n×d embedding, for spectral clustering.
import type { Rng } from "./rng.ts";

export type KMeansOptions = {
  k: number;
  tol: number;
  maxIter: number;
  rng: Rng;
  /** An array of at least n numbers to work in (a caller's, overwritten), instead of a new one. */
  scratch?: Float64Array;
};

/**
 * Cluster of each row of the n×d embedding given as its d columns (row i: columns[0][i] .. columns[d - 1][i]; the
 * eigenvectors themselves, with no n×d copy). Stops when the inertia improves by less than tol (relative).
 */
export function kmeans(columns: readonly (Float64Array | Float32Array)[], n: number, o: KMeansOptions): Int32Array {
  const d = columns.length;
  const k = Math.max(1, Math.min(o.k, n));
  const centers = new Float64Array(k * d);
  const assign = new Int32Array(n);
  if (n === 0) return assign;
  const dist = o.scratch && o.scratch.length >= n ? o.scratch : new Float64Array(n);
  const sq = (i: number, c: number) => {
    let s = 0;
    for (let t = 0; t < d; t++) {
      const diff = ((columns[t] as Float64Array)[i] as number) - (centers[c * d + t] as number);
      s += diff * diff;
    }
    return s;
  };
  // k-means++: each next center drawn with probability ∝ squared distance to the nearest chosen one.
  let first = o.rng.below(n);
  for (let t = 0; t < d; t++) centers[t] = (columns[t] as Float64Array)[first] as number;
  for (let i = 0; i < n; i++) dist[i] = sq(i, 0);
  for (let c = 1; c < k; c++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += dist[i] as number;
    let pick = n - 1;
    if (sum > 0) {
      let target = o.rng.next() * sum;
      for (let i = 0; i < n; i++) {
        target -= dist[i] as number;
        if (target < 0) {
          pick = i;
          break;
        }
      }
    } else pick = o.rng.below(n);
    first = pick;
    for (let t = 0; t < d; t++) centers[c * d + t] = (columns[t] as Float64Array)[pick] as number;
    for (let i = 0; i < n; i++) dist[i] = Math.min(dist[i] as number, sq(i, c));
  }
  const sums = new Float64Array(k * d);
  const counts = new Int32Array(k);
  let previous = Number.POSITIVE_INFINITY;
  for (let iter = 0; iter < Math.max(1, o.maxIter); iter++) {
    let inertia = 0;
    for (let i = 0; i < n; i++) {
      let best = 0;
      let bestD = sq(i, 0);
      for (let c = 1; c < k; c++) {
        const dc = sq(i, c);
        if (dc < bestD) {
          bestD = dc;
          best = c;
        }
      }
      assign[i] = best;
      inertia += bestD;
    }
    sums.fill(0);
    counts.fill(0);
    for (let i = 0; i < n; i++) {
      const c = assign[i] as number;
      counts[c] = (counts[c] as number) + 1;
      for (let t = 0; t < d; t++) sums[c * d + t] = (sums[c * d + t] as number) + ((columns[t] as Float64Array)[i] as number);
    }
    for (let c = 0; c < k; c++) {
      const count = counts[c] as number;
      if (count === 0) continue; // an empty cluster keeps its center
      for (let t = 0; t < d; t++) centers[c * d + t] = (sums[c * d + t] as number) / count;
    }
    if (previous - inertia <= o.tol * Math.max(previous === Number.POSITIVE_INFINITY ? inertia : previous, 1e-300)) break;
    previous = inertia;
  }
  return assign;
}
