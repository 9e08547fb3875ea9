// Kernel "brandes": a batch of unweighted single-source shortest-path dependency accumulations (Brandes 2001),
// summed over the batch's sources, for node and optionally edge betweenness.
//
// Args:
// - n; start (n + 1) / nbr: the adjacency the paths follow (entries start[v] .. start[v + 1] are v's successors;
//   a repeated successor counts as that many distinct paths, as igraph counts multi-edges);
// - link: per adjacency entry, the slot its edge score goes to (an edge row; null when no edge scores are wanted);
//   links: the number of slots;
// - sources: the batch of source nodes; cutoff: paths longer than this many hops are ignored (-1: no limit);
// - endpoints: count path endpoints too (networkx's endpoints=True: each source gains reached - 1, each reached
//   node gains 1 more per source).
// Result: node (length n) and edge (length links, or null) dependency sums over the batch, unscaled.
// Memory per call: 4 arrays of n (distances, path counts, dependencies, visit order); no per-node allocation.

export type BrandesArgs = {
  n: number;
  start: Int32Array;
  nbr: Int32Array;
  link: Int32Array | null;
  links: number;
  sources: Int32Array;
  cutoff: number;
  endpoints: boolean;
};

export type BrandesResult = { node: Float64Array; edge: Float64Array | null };

export function brandes(args: BrandesArgs): BrandesResult {
  const { n, start, nbr, link, sources, cutoff, endpoints } = args;
  const node = new Float64Array(n);
  const edge = link ? new Float64Array(args.links) : null;
  const dist = new Int32Array(n).fill(-1);
  const sigma = new Float64Array(n);
  const delta = new Float64Array(n);
  const order = new Int32Array(n);
  const limit = cutoff < 0 ? 0x7fffffff : cutoff;
  for (let b = 0; b < sources.length; b++) {
    const s = sources[b] as number;
    // Breadth-first search: `order` is the queue and, read backwards, the order of non-increasing distance.
    let head = 0;
    let tail = 1;
    order[0] = s;
    dist[s] = 0;
    sigma[s] = 1;
    while (head < tail) {
      const v = order[head++] as number;
      const dv = dist[v] as number;
      if (dv >= limit) continue;
      const sv = sigma[v] as number;
      const end = start[v + 1] as number;
      for (let j = start[v] as number; j < end; j++) {
        const w = nbr[j] as number;
        const dw = dist[w] as number;
        if (dw < 0) {
          dist[w] = dv + 1;
          sigma[w] = sv;
          order[tail++] = w;
        } else if (dw === dv + 1) sigma[w] = (sigma[w] as number) + sv;
      }
    }
    // Dependencies in reverse order: delta[v] = sum over successors w on shortest paths of sigma[v]/sigma[w](1+delta[w]).
    for (let k = tail - 1; k >= 0; k--) {
      const v = order[k] as number;
      const dv = dist[v] as number;
      const sv = sigma[v] as number;
      let dep = 0;
      if (dv < limit) {
        const end = start[v + 1] as number;
        for (let j = start[v] as number; j < end; j++) {
          const w = nbr[j] as number;
          if (dist[w] === dv + 1) {
            const c = (sv / (sigma[w] as number)) * (1 + (delta[w] as number));
            dep += c;
            if (edge && link) {
              const slot = link[j] as number;
              edge[slot] = (edge[slot] as number) + c;
            }
          }
        }
      }
      delta[v] = dep;
      if (v !== s) node[v] = (node[v] as number) + dep + (endpoints ? 1 : 0);
    }
    if (endpoints) node[s] = (node[s] as number) + (tail - 1);
    for (let k = 0; k < tail; k++) {
      const v = order[k] as number;
      dist[v] = -1;
      sigma[v] = 0;
      delta[v] = 0;
    }
  }
  return { node, edge };
}
