// Brandes' dependency accumulation over weighted shortest paths (Dijkstra with an indexed binary heap): the
// CPU-only path of weighted betweenness. Distances that agree within igraph's relative epsilon (1e-10) tie.
import { createDistHeap } from "./dist-heap.ts";

export type WeightedBrandesArgs = {
  n: number;
  start: Int32Array;
  nbr: Int32Array;
  /** Each adjacency entry's length (positive). */
  weight: Float64Array;
  /** Slot of each entry's edge score (null: no edge scores) and the number of slots. */
  link: Int32Array | null;
  links: number;
  sources: Int32Array;
  /** Paths longer than this are ignored (-1: no limit). */
  cutoff: number;
  endpoints: boolean;
};

const EPS = 1e-10;

/** -1, 0 or 1 as a < b, a ~ b (relative 1e-10, as igraph_cmp_epsilon), a > b. */
export function compareEps(a: number, b: number): number {
  if (a === b) return 0;
  const diff = Math.abs(a - b);
  const sum = Math.abs(a) + Math.abs(b);
  if (diff <= EPS * sum) return 0;
  return a < b ? -1 : 1;
}

export function weightedBrandes(args: WeightedBrandesArgs): { node: Float64Array; edge: Float64Array | null } {
  const { n, start, nbr, weight, link, sources, cutoff, endpoints } = args;
  const node = new Float64Array(n);
  const edge = link ? new Float64Array(args.links) : null;
  const dist = new Float64Array(n).fill(Number.POSITIVE_INFINITY);
  const sigma = new Float64Array(n);
  const delta = new Float64Array(n);
  const settled = new Uint8Array(n);
  const order = new Int32Array(n);
  const limit = cutoff < 0 ? Number.POSITIVE_INFINITY : cutoff;
  const queue = createDistHeap(dist);

  for (let b = 0; b < sources.length; b++) {
    const s = sources[b] as number;
    let count = 0;
    dist[s] = 0;
    sigma[s] = 1;
    queue.push(s);
    while (queue.size > 0) {
      const v = queue.pop();
      settled[v] = 1;
      order[count++] = v;
      const dv = dist[v] as number;
      const sv = sigma[v] as number;
      for (let j = start[v] as number; j < (start[v + 1] as number); j++) {
        const w = nbr[j] as number;
        if (settled[w]) continue;
        const alt = dv + (weight[j] as number);
        if (alt > limit && compareEps(alt, limit) > 0) continue;
        const dw = dist[w] as number;
        if (dw === Number.POSITIVE_INFINITY) {
          dist[w] = alt;
          sigma[w] = sv;
          queue.push(w);
          continue;
        }
        const cmp = compareEps(alt, dw);
        if (cmp < 0) {
          dist[w] = alt;
          sigma[w] = sv;
          queue.decreased(w);
        } else if (cmp === 0) sigma[w] = (sigma[w] as number) + sv;
      }
    }
    for (let k = count - 1; k >= 0; k--) {
      const v = order[k] as number;
      const dv = dist[v] as number;
      const sv = sigma[v] as number;
      let dep = 0;
      for (let j = start[v] as number; j < (start[v + 1] as number); j++) {
        const w = nbr[j] as number;
        if (!settled[w] || w === v) continue;
        if (compareEps(dv + (weight[j] as number), dist[w] as number) !== 0) continue;
        const c = (sv / (sigma[w] as number)) * (1 + (delta[w] as number));
        dep += c;
        if (edge && link) {
          const slot = link[j] as number;
          edge[slot] = (edge[slot] as number) + c;
        }
      }
      delta[v] = dep;
      if (v !== s) node[v] = (node[v] as number) + dep + (endpoints ? 1 : 0);
    }
    if (endpoints) node[s] = (node[s] as number) + (count - 1);
    for (let k = 0; k < count; k++) {
      const v = order[k] as number;
      dist[v] = Number.POSITIVE_INFINITY;
      sigma[v] = 0;
      delta[v] = 0;
      settled[v] = 0;
    }
  }
  return { node, edge };
}
