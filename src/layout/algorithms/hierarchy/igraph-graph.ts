// A small igraph-shaped graph for porting igraph's layouts exactly: an edge list (edge e runs from[e] -> to[e],
// undirected when `directed` is false) and neighbour/incident-edge lists in the order igraph_neighbors and
// igraph_incident give them, which decides igraph's tie-breaks: sorted by the other endpoint, parallel edges by
// decreasing edge id (igraph's edge index is a two-pass radix sort that leaves equal pairs in that order).
import type { ComputeGraph } from "../../../../kernels/cpu/csr.ts";

export type Mode = "out" | "in" | "all";

export type IGraph = { n: number; from: Int32Array; to: Int32Array; directed: boolean };

/** The graph as igraph holds it: node rows as vertex ids, edge rows as edge ids. */
export function fromComputeGraph(graph: ComputeGraph): IGraph {
  return { n: graph.n, from: graph.src, to: graph.dst, directed: graph.directed };
}

export type Incidence = {
  /** The incident edges of v: edges[start[v] .. start[v + 1]); nbr[j] is the other endpoint of edges[j]. */
  start: Int32Array;
  edges: Int32Array;
  nbr: Int32Array;
};

/**
 * igraph_incident(graph, v, mode) for every v (an undirected graph reads every mode as "all"; a self-loop is
 * listed twice in "all", once otherwise).
 */
export function incidence(graph: IGraph, mode: Mode): Incidence {
  const { n, from, to } = graph;
  const m = from.length;
  const effective: Mode = graph.directed ? mode : "all";
  // igraph's index: per vertex, the edges it starts ("out") sorted by the other end, and those it ends ("in")
  // sorted likewise, parallel edges by decreasing id. An undirected edge starts at its larger end.
  const outs: [number, number][][] = Array.from({ length: n }, () => []);
  const ins: [number, number][][] = Array.from({ length: n }, () => []);
  for (let e = 0; e < m; e++) {
    let a = from[e] as number;
    let b = to[e] as number;
    if (!graph.directed && a < b) [a, b] = [b, a];
    if (effective === "out" || effective === "all") outs[a]?.push([b, e]);
    if (effective === "in" || effective === "all") ins[b]?.push([a, e]);
  }
  const byEnd = (x: [number, number], y: [number, number]) => x[0] - y[0] || y[1] - x[1];
  const start = new Int32Array(n + 1);
  const edges = new Int32Array(effective === "all" ? 2 * m : m);
  const nbr = new Int32Array(edges.length);
  let k = 0;
  for (let v = 0; v < n; v++) {
    const o = (outs[v] as [number, number][]).sort(byEnd);
    const i = (ins[v] as [number, number][]).sort(byEnd);
    const take = (pair: [number, number]) => {
      nbr[k] = pair[0];
      edges[k++] = pair[1];
    };
    if (!graph.directed) {
      // Undirected: the started edges reach smaller (or equal) ends, the ended ones larger (or equal): one after
      // the other is sorted (a self-loop is in both, so listed twice).
      for (const pair of o) take(pair);
      for (const pair of i) take(pair);
    } else {
      let a = 0;
      let b = 0;
      while (a < o.length && b < i.length) {
        const x = o[a] as [number, number];
        const y = i[b] as [number, number];
        if (x[0] < y[0]) {
          take(x);
          a++;
        } else if (x[0] > y[0]) {
          take(y);
          b++;
        } else {
          take(x);
          take(y);
          a++;
          b++;
        }
      }
      for (; a < o.length; a++) take(o[a] as [number, number]);
      for (; b < i.length; b++) take(i[b] as [number, number]);
    }
    start[v + 1] = k;
  }
  return { start, edges, nbr };
}

/** igraph_adjlist_init(graph, mode, IGRAPH_NO_LOOPS, IGRAPH_NO_MULTIPLE): sorted distinct neighbours, no self. */
export function simpleAdjacency(graph: IGraph, mode: Mode): { start: Int32Array; nbr: Int32Array } {
  const inc = incidence(graph, mode);
  const start = new Int32Array(graph.n + 1);
  const out: number[] = [];
  for (let v = 0; v < graph.n; v++) {
    let last = -1;
    for (let j = inc.start[v] as number; j < (inc.start[v + 1] as number); j++) {
      const w = inc.nbr[j] as number;
      if (w === v || w === last) continue;
      out.push(w);
      last = w;
    }
    start[v + 1] = out.length;
  }
  return { start, nbr: Int32Array.from(out) };
}

/** igraph_degree(graph, mode, loops = false): incident non-loop edges per vertex in `mode`. */
export function degreesNoLoops(graph: IGraph, mode: Mode): Float64Array {
  const out = new Float64Array(graph.n);
  const effective: Mode = graph.directed ? mode : "all";
  for (let e = 0; e < graph.from.length; e++) {
    const a = graph.from[e] as number;
    const b = graph.to[e] as number;
    if (a === b) continue;
    if (effective !== "in") out[a] = (out[a] as number) + 1;
    if (effective !== "out") out[b] = (out[b] as number) + 1;
  }
  return out;
}

/**
 * Weakly connected components over an adjacency (every edge at both ends): component ids in order of each
 * component's lowest vertex, as igraph_connected_components(WEAK) numbers them.
 */
export function weakComponentsOf(n: number, adj: { start: Int32Array; nbr: Int32Array }): { membership: Int32Array; count: number } {
  const membership = new Int32Array(n).fill(-1);
  const queue = new Int32Array(n);
  let count = 0;
  for (let s = 0; s < n; s++) {
    if ((membership[s] as number) >= 0) continue;
    membership[s] = count;
    let head = 0;
    let tail = 0;
    queue[tail++] = s;
    while (head < tail) {
      const u = queue[head++] as number;
      for (let j = adj.start[u] as number; j < (adj.start[u + 1] as number); j++) {
        const w = adj.nbr[j] as number;
        if ((membership[w] as number) < 0) {
          membership[w] = count;
          queue[tail++] = w;
        }
      }
    }
    count++;
  }
  return { membership, count };
}
