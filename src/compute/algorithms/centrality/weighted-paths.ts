// Weighted single-source distances (Dijkstra, binary heap) summarized per source as the "path-stats" kernel
// summarizes breadth-first ones: the CPU-only path of weighted closeness and harmonic centrality.
import type { PathStatsResult } from "../../../../kernels/cpu/path-stats.ts";

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
  const heap = new Int32Array(n);
  const pos = new Int32Array(n).fill(-1);
  const limit = cutoff < 0 ? Number.POSITIVE_INFINITY : cutoff;
  let size = 0;
  const up = (at: number) => {
    const v = heap[at] as number;
    const d = dist[v] as number;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      const p = heap[parent] as number;
      if ((dist[p] as number) <= d) break;
      heap[at] = p;
      pos[p] = at;
      at = parent;
    }
    heap[at] = v;
    pos[v] = at;
  };
  const down = (at: number) => {
    const v = heap[at] as number;
    const d = dist[v] as number;
    for (;;) {
      let child = 2 * at + 1;
      if (child >= size) break;
      const right = child + 1;
      if (right < size && (dist[heap[right] as number] as number) < (dist[heap[child] as number] as number)) child = right;
      const c = heap[child] as number;
      if ((dist[c] as number) >= d) break;
      heap[at] = c;
      pos[c] = at;
      at = child;
    }
    heap[at] = v;
    pos[v] = at;
  };
  for (let b = 0; b < count; b++) {
    const s = sources[b] as number;
    let seen = 0;
    let total = 0;
    let inverse = 0;
    let far = 0;
    dist[s] = 0;
    heap[0] = s;
    size = 1;
    touched[seen++] = s;
    let settledCount = 0;
    while (size > 0) {
      const v = heap[0] as number;
      size--;
      pos[v] = -1;
      if (size > 0) {
        heap[0] = heap[size] as number;
        down(0);
      }
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
          heap[size] = w;
          size++;
          up(size - 1);
        } else if (alt < dw) {
          dist[w] = alt;
          up(pos[w] as number);
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
