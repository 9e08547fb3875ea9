// Weighted single-source distances (Dijkstra, binary heap) summarized per source as the "path-stats" kernel
// summarizes breadth-first ones: the CPU-only path of weighted closeness and harmonic centrality.
import type { PathStatsResult } from "../../../../kernels/cpu/path-stats.ts";
import { createDistHeap } from "./dist-heap.ts";

export type WeightedPathStatsArgs = {
  n: number;
  start: Int32Array;
  nbr: Int32Array;
  weight: Float64Array;
  sources: Int32Array;
  cutoff: number;
};

export function weightedPathStats(args: WeightedPathStatsArgs): PathStatsResult {
  const { n, start, nbr, weight, sources, cutoff } = args;
  const count = sources.length;
  const sum = new Float64Array(count);
  const reached = new Int32Array(count);
  const harmonic = new Float64Array(count);
  const farthest = new Float64Array(count);
  const dist = new Float64Array(n).fill(Number.POSITIVE_INFINITY);
  const done = new Uint8Array(n);
  const touched = new Int32Array(n);
  const limit = cutoff < 0 ? Number.POSITIVE_INFINITY : cutoff;
  const queue = createDistHeap(dist);
  for (let b = 0; b < count; b++) {
    const s = sources[b] as number;
    let seen = 0;
    let total = 0;
    let inverse = 0;
    let far = 0;
    dist[s] = 0;
    queue.push(s);
    touched[seen++] = s;
    let settledCount = 0;
    while (queue.size > 0) {
      const v = queue.pop();
      done[v] = 1;
      settledCount++;
      const dv = dist[v] as number;
      if (dv > 0) {
        total += dv;
        inverse += 1 / dv;
        if (dv > far) far = dv;
      }
      for (let j = start[v] as number; j < (start[v + 1] as number); j++) {
        const w = nbr[j] as number;
        if (done[w]) continue;
        const alt = dv + (weight[j] as number);
        if (alt > limit) continue;
        const dw = dist[w] as number;
        if (dw === Number.POSITIVE_INFINITY) {
          dist[w] = alt;
          touched[seen++] = w;
          queue.push(w);
        } else if (alt < dw) {
          dist[w] = alt;
          queue.decreased(w);
        }
      }
    }
    sum[b] = total;
    reached[b] = settledCount;
    harmonic[b] = inverse;
    farthest[b] = far;
    for (let k = 0; k < seen; k++) {
      const v = touched[k] as number;
      dist[v] = Number.POSITIVE_INFINITY;
      done[v] = 0;
    }
  }
  return { sum, reached, harmonic, farthest };
}
