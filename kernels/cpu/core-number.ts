// Kernel "core-number": k-core numbers by Batagelj and Zaversnik's bucket peeling (O(n + m)).
//
// Args (one plain object):
//   n              number of nodes
//   start, nbr     the adjacency whose list lengths are the degrees (a self-loop listed twice counts twice)
//   rstart, rnbr   the adjacency of the nodes whose degree drops when a node is peeled (the reverse direction:
//                  out-neighbours for in-degree cores; the same arrays for undirected cores)
// Result: Int32Array core number per node, as igraph's coreness(mode) answers. The core numbers are unique, so an
// OpenCL version may reach them by the data-parallel h-index iteration (each node takes the h-index of its
// neighbours' values until nothing changes).

export type CoreNumberArgs = { n: number; start: Int32Array; nbr: Int32Array; rstart: Int32Array; rnbr: Int32Array };

export function coreNumber(args: CoreNumberArgs): Int32Array {
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
