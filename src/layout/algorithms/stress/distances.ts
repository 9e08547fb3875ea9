// All-pairs shortest-path lengths with every edge read both ways (igraph's IGRAPH_ALL), as the dense n×n matrix the
// stress layouts (Kamada-Kawai, MDS) start from: BFS per source without weights, Dijkstra per source with them.
import { type ComputeGraph, undirected } from "../../../../kernels/cpu/csr.ts";
import { createDistHeap } from "../../../compute/algorithms/centrality/dist-heap.ts";
import { type ComputeContext, ComputeInputError } from "../../../compute/types.ts";

/** The most nodes a dense n×n layout takes (its distance matrix alone is 8·n² bytes: 800 MB at this size). */
export const DENSE_LAYOUT_MAX_NODES = 10_000;

export function checkDenseSize(n: number, layout: string): void {
  if (n > DENSE_LAYOUT_MAX_NODES)
    throw new ComputeInputError(
      `${layout} keeps an n×n distance matrix and takes at most ${DENSE_LAYOUT_MAX_NODES} nodes (this graph has ${n}); use fr, drl or force_atlas2`,
    );
}

/** Row-major n×n distances (Infinity between components, 0 on the diagonal); `weights` per edge, positive. */
export function allPairsDistances(graph: ComputeGraph, weights: Float64Array | null, ctx: ComputeContext): Float64Array {
  const n = graph.n;
  const { start, nbr, edge } = undirected(graph);
  const out = new Float64Array(n * n).fill(Number.POSITIVE_INFINITY);
  const queue = new Int32Array(n);
  for (let s = 0; s < n; s++) {
    if ((s & 255) === 0) ctx.checkCancelled();
    const dist = out.subarray(s * n, s * n + n);
    dist[s] = 0;
    if (!weights) {
      let head = 0;
      let tail = 0;
      queue[tail++] = s;
      while (head < tail) {
        const u = queue[head++] as number;
        const next = (dist[u] as number) + 1;
        for (let j = start[u] as number; j < (start[u + 1] as number); j++) {
          const v = nbr[j] as number;
          if (dist[v] === Number.POSITIVE_INFINITY) {
            dist[v] = next;
            queue[tail++] = v;
          }
        }
      }
      continue;
    }
    const heap = createDistHeap(dist);
    const done = new Uint8Array(n);
    heap.push(s);
    while (heap.size > 0) {
      const u = heap.pop();
      done[u] = 1;
      const du = dist[u] as number;
      for (let j = start[u] as number; j < (start[u + 1] as number); j++) {
        const v = nbr[j] as number;
        if (done[v]) continue;
        const alt = du + (weights[edge[j] as number] as number);
        const dv = dist[v] as number;
        if (alt < dv) {
          dist[v] = alt;
          if (dv === Number.POSITIVE_INFINITY) heap.push(v);
          else heap.decreased(v);
        }
      }
    }
  }
  return out;
}
