// Kernel "sssp": single-source shortest paths over non-negative edge weights (distances and parents).
//
// Args (one plain object):
//   n            number of nodes
//   start, nbr   the adjacency to follow: node r's neighbours are nbr[start[r] .. start[r + 1])
//   edge         the edge row of each adjacency entry (same length as nbr)
//   weight       Float64Array of non-negative weights per edge row; length 0 = every edge weighs 1
//   source       the source row
//   cutoff       distances above it count as unreached (Infinity: none)
// Result: dist (Float64Array, Infinity = not reached) and pred (Int32Array, -1 for the source and unreached nodes):
// a neighbour u with dist[u] + w(u, v) = dist[v], settled before v; among equally short ones, the smallest row.
// Distances are exact minima over paths of left-to-right sums, so a frontier Bellman-Ford (the OpenCL version)
// gives the same distances; its parents are any tight neighbour.
// The CPU twin is Dijkstra's algorithm over an indexed binary heap (typed arrays, no allocation per node).

export type SsspArgs = {
  n: number;
  start: Int32Array;
  nbr: Int32Array;
  edge: Int32Array;
  weight: Float64Array;
  source: number;
  cutoff: number;
};
export type SsspResult = { dist: Float64Array; pred: Int32Array };

export function sssp(args: SsspArgs): SsspResult {
  const { n, start, nbr, edge, weight, source, cutoff } = args;
  const unit = weight.length === 0;
  const dist = new Float64Array(n).fill(Number.POSITIVE_INFINITY);
  const pred = new Int32Array(n).fill(-1);
  if (source < 0 || source >= n) return { dist, pred };
  // heap[0 .. size) holds node rows ordered by dist; where[v] = v's index in heap, -1 = never queued, -2 = settled.
  const heap = new Int32Array(n);
  const where = new Int32Array(n).fill(-1);
  let size = 0;
  const up = (i0: number) => {
    let i = i0;
    const v = heap[i] as number;
    const dv = dist[v] as number;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const u = heap[p] as number;
      if ((dist[u] as number) <= dv) break;
      heap[i] = u;
      where[u] = i;
      i = p;
    }
    heap[i] = v;
    where[v] = i;
  };
  const down = (i0: number) => {
    let i = i0;
    const v = heap[i] as number;
    const dv = dist[v] as number;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= size) break;
      if (c + 1 < size && (dist[heap[c + 1] as number] as number) < (dist[heap[c] as number] as number)) c++;
      const u = heap[c] as number;
      if ((dist[u] as number) >= dv) break;
      heap[i] = u;
      where[u] = i;
      i = c;
    }
    heap[i] = v;
    where[v] = i;
  };
  dist[source] = 0;
  heap[0] = source;
  where[source] = 0;
  size = 1;
  while (size > 0) {
    const u = heap[0] as number;
    where[u] = -2;
    size--;
    if (size > 0) {
      heap[0] = heap[size] as number;
      down(0);
    }
    const du = dist[u] as number;
    const end = start[u + 1] as number;
    for (let j = start[u] as number; j < end; j++) {
      const v = nbr[j] as number;
      const at = where[v] as number;
      if (at === -2) continue;
      const dv = du + (unit ? 1 : (weight[edge[j] as number] as number));
      if (dv > cutoff) continue;
      const old = dist[v] as number;
      if (dv < old) {
        dist[v] = dv;
        pred[v] = u;
        if (at === -1) {
          heap[size] = v;
          size++;
          up(size - 1);
        } else up(at);
      } else if (dv === old && u < (pred[v] as number)) {
        pred[v] = u;
      }
    }
  }
  return { dist, pred };
}
