// Kernel "bfs": level-synchronous breadth-first search from a set of sources (hop distances, smallest-row parents).
//
// Args (one plain object):
//   n            number of nodes
//   start, nbr   the adjacency to follow: node r's neighbours are nbr[start[r] .. start[r + 1])
//   sources      Int32Array of source rows (distance 0); rows outside [0, n) are ignored
//   depthLimit   deepest level reached (-1: no limit)
// Result: dist (Int32Array, -1 = not reached) and pred (Int32Array: among the neighbours one level closer that reach
// the node, the smallest row; -1 for sources and unreached nodes). Each level expands the whole frontier at once, so
// an OpenCL version runs one work-item per frontier node (atomic_cmpxchg on dist, atomic_min on pred).

export type BfsArgs = { n: number; start: Int32Array; nbr: Int32Array; sources: Int32Array; depthLimit: number };
export type BfsResult = { dist: Int32Array; pred: Int32Array };

export function bfs(args: BfsArgs): BfsResult {
  const { n, start, nbr, sources, depthLimit } = args;
  const dist = new Int32Array(n).fill(-1);
  const pred = new Int32Array(n).fill(-1);
  let frontier = new Int32Array(n);
  let next = new Int32Array(n);
  let size = 0;
  for (let i = 0; i < sources.length; i++) {
    const s = sources[i] as number;
    if (s < 0 || s >= n || dist[s] !== -1) continue;
    dist[s] = 0;
    frontier[size++] = s;
  }
  let level = 0;
  while (size > 0 && (depthLimit < 0 || level < depthLimit)) {
    const reach = level + 1;
    let nextSize = 0;
    for (let i = 0; i < size; i++) {
      const u = frontier[i] as number;
      const end = start[u + 1] as number;
      for (let j = start[u] as number; j < end; j++) {
        const v = nbr[j] as number;
        const d = dist[v] as number;
        if (d === -1) {
          dist[v] = reach;
          pred[v] = u;
          next[nextSize++] = v;
        } else if (d === reach && u < (pred[v] as number)) {
          pred[v] = u;
        }
      }
    }
    const swap = frontier;
    frontier = next;
    next = swap;
    size = nextSize;
    level = reach;
  }
  return { dist, pred };
}
