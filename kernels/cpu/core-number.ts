// Kernel "core-number": k-core numbers by level peeling (as ParK), or Batagelj and Zaversnik's bucket peeling.
//
// Args (one plain object):
//   n              number of nodes
//   start, nbr     the adjacency whose list lengths are the degrees (a self-loop listed twice counts twice)
//   rstart, rnbr   the adjacency of the nodes whose degree drops when a node is peeled (the reverse direction:
//                  out-neighbours for in-degree cores; the same arrays for undirected cores)
// Result: Int32Array core number per node, as igraph's coreness(mode) answers. The twin peels level by level
// (each level's nodes found by one scan of the nodes left; a decrement touches only the neighbour's degree), and
// falls back to bucket peeling when the scans would pass 4(n + m) (graphs with very many distinct core numbers).
// The core numbers are unique, so an OpenCL version may reach them by the data-parallel h-index iteration (each
// node takes the h-index of its neighbours' values until nothing changes).

export type CoreNumberArgs = { n: number; start: Int32Array; nbr: Int32Array; rstart: Int32Array; rnbr: Int32Array };

/** Batagelj-Zaversnik bucket peeling: O(n + m) whatever the graph. */
function bucketPeel(args: CoreNumberArgs): Int32Array {
  const { n, start, rstart, rnbr } = args;
  const deg = new Int32Array(n);
  let maxDeg = 0;
  for (let v = 0; v < n; v++) {
    const d = (start[v + 1] as number) - (start[v] as number);
    deg[v] = d;
    if (d > maxDeg) maxDeg = d;
  }
  // bin[d] = first position of degree d in vert (nodes sorted by current degree); pos[v] = v's position.
  const bin = new Int32Array(maxDeg + 2);
  for (let v = 0; v < n; v++) bin[deg[v] as number] = (bin[deg[v] as number] as number) + 1;
  let first = 0;
  for (let d = 0; d <= maxDeg; d++) {
    const count = bin[d] as number;
    bin[d] = first;
    first += count;
  }
  const vert = new Int32Array(n);
  const pos = new Int32Array(n);
  for (let v = 0; v < n; v++) {
    const d = deg[v] as number;
    const p = bin[d] as number;
    pos[v] = p;
    vert[p] = v;
    bin[d] = p + 1;
  }
  for (let d = maxDeg; d > 0; d--) bin[d] = bin[d - 1] as number;
  bin[0] = 0;
  for (let i = 0; i < n; i++) {
    const v = vert[i] as number;
    const dv = deg[v] as number;
    const end = rstart[v + 1] as number;
    for (let j = rstart[v] as number; j < end; j++) {
      const u = rnbr[j] as number;
      const du = deg[u] as number;
      if (du > dv) {
        const pu = pos[u] as number;
        const pw = bin[du] as number;
        const w = vert[pw] as number;
        if (u !== w) {
          pos[u] = pw;
          vert[pu] = w;
          pos[w] = pu;
          vert[pw] = u;
        }
        bin[du] = pw + 1;
        deg[u] = du - 1;
      }
    }
  }
  return deg;
}

/**
 * Level peeling: at level k (the smallest degree left), every node of degree k and every node dropping to k while
 * they are removed gets core k. Null when the scans of the nodes left would pass the budget.
 */
function levelPeel(args: CoreNumberArgs): Int32Array | null {
  const { n, start, rstart, rnbr } = args;
  // deg[v] >= 0: the degree left; removed nodes hold -1 - core.
  const deg = new Int32Array(n);
  for (let v = 0; v < n; v++) deg[v] = (start[v + 1] as number) - (start[v] as number);
  const remaining = new Int32Array(n);
  for (let v = 0; v < n; v++) remaining[v] = v;
  const queue = new Int32Array(n);
  let left = n;
  let budget = 4 * (n + rnbr.length);
  let k = 0;
  while (left > 0) {
    // Compact the nodes left and find the next level: the smallest degree among them.
    let min = 0x7fffffff;
    let kept = 0;
    for (let i = 0; i < left; i++) {
      const v = remaining[i] as number;
      const d = deg[v] as number;
      if (d < 0) continue;
      remaining[kept++] = v;
      if (d < min) min = d;
    }
    budget -= left;
    left = kept;
    if (left === 0) break;
    if (budget < 0) return null;
    if (min > k) k = min;
    let qt = 0;
    for (let i = 0; i < left; i++) {
      const v = remaining[i] as number;
      if ((deg[v] as number) === k) queue[qt++] = v;
    }
    for (let qh = 0; qh < qt; qh++) {
      const v = queue[qh] as number;
      const end = rstart[v + 1] as number;
      for (let j = rstart[v] as number; j < end; j++) {
        const u = rnbr[j] as number;
        const du = deg[u] as number;
        if (du > k) {
          deg[u] = du - 1;
          if (du - 1 === k) queue[qt++] = u;
        }
      }
    }
    for (let i = 0; i < qt; i++) deg[queue[i] as number] = -1 - k;
  }
  for (let v = 0; v < n; v++) deg[v] = -1 - (deg[v] as number);
  return deg;
}

export function coreNumber(args: CoreNumberArgs): Int32Array {
  return levelPeel(args) ?? bucketPeel(args);
}

/** Both peelings, for tests: level peeling (null past its budget) and bucket peeling. */
export const corePeelings = { levelPeel, bucketPeel };
