// Adjacency views the structure algorithms traverse (out, in, undirected, with edge rows), sorted distinct
// neighbour sets for the similarity family, and the shared output helpers (graph output of a node set, nullable columns).
import { type ComputeGraph, undirected } from "../../../../kernels/cpu/csr.ts";
import { ComputeInputError, type OutColumn } from "../../types.ts";

/** A neighbour list over node rows with the edge row of each entry. */
export type Adjacency = { start: Int32Array; nbr: Int32Array; edge: Int32Array };

/** What a traversal follows: out-edges on a directed graph (in-edges when `reverse`), both directions otherwise. */
export function traversal(graph: ComputeGraph, reverse = false): Adjacency {
  if (!graph.directed) return undirected(graph);
  return reverse
    ? { start: graph.inStart, nbr: graph.inSrc, edge: graph.inEdges }
    : { start: graph.outStart, nbr: graph.outDst, edge: graph.outEdges };
}

/** Out-neighbours sorted by row (parallel edges kept): in-edge groups are already in destination order. */
export function sortedOut(graph: ComputeGraph): { start: Int32Array; nbr: Int32Array } {
  const { n } = graph;
  const next = graph.outStart.slice(0, n);
  const nbr = new Int32Array(graph.m);
  for (let t = 0; t < n; t++) {
    for (let j = graph.inStart[t] as number; j < (graph.inStart[t + 1] as number); j++) {
      const s = graph.inSrc[j] as number;
      nbr[next[s] as number] = t;
      next[s] = (next[s] as number) + 1;
    }
  }
  return { start: graph.outStart, nbr };
}

/**
 * Each node's distinct neighbours on the undirected graph, sorted by row, with the summed weight of the edges
 * joining them (a self-loop makes a node its own neighbour, its weight counted once per loop edge).
 * `weight` null: every distinct neighbour weighs 1. `total` sums each node's entries.
 */
export function neighbourSets(
  graph: ComputeGraph,
  weight: Float64Array | null,
): {
  start: Int32Array;
  nbr: Int32Array;
  wt: Float64Array;
  total: Float64Array;
} {
  const { n, m, src, dst } = graph;
  // Both directions of every edge (a self-loop once), bucketed by the far end then by the near end: sorted lists.
  const byFar = new Int32Array(n + 1);
  for (let e = 0; e < m; e++) {
    const s = src[e] as number;
    const d = dst[e] as number;
    byFar[d + 1] = (byFar[d + 1] as number) + 1;
    if (s !== d) byFar[s + 1] = (byFar[s + 1] as number) + 1;
  }
  for (let r = 0; r < n; r++) byFar[r + 1] = (byFar[r + 1] as number) + (byFar[r] as number);
  const total2 = byFar[n] as number;
  const fill = byFar.slice(0, n);
  const nearOf = new Int32Array(total2);
  const edgeOf = new Int32Array(total2);
  for (let e = 0; e < m; e++) {
    const s = src[e] as number;
    const d = dst[e] as number;
    let k = fill[d] as number;
    nearOf[k] = s;
    edgeOf[k] = e;
    fill[d] = k + 1;
    if (s !== d) {
      k = fill[s] as number;
      nearOf[k] = d;
      edgeOf[k] = e;
      fill[s] = k + 1;
    }
  }
  const cap = new Int32Array(n + 1);
  for (let k = 0; k < total2; k++) cap[(nearOf[k] as number) + 1] = (cap[(nearOf[k] as number) + 1] as number) + 1;
  for (let r = 0; r < n; r++) cap[r + 1] = (cap[r + 1] as number) + (cap[r] as number);
  // Walk entries in far order; for each near node append the far node, merging repeats (parallel edges).
  const end = cap.slice(0, n);
  const nbr = new Int32Array(total2);
  const wt = new Float64Array(total2);
  for (let far = 0; far < n; far++) {
    for (let k = byFar[far] as number; k < (byFar[far + 1] as number); k++) {
      const near = nearOf[k] as number;
      const w = weight ? (weight[edgeOf[k] as number] as number) : 1;
      const at = end[near] as number;
      if (at > (cap[near] as number) && (nbr[at - 1] as number) === far) {
        if (weight) wt[at - 1] = (wt[at - 1] as number) + w;
      } else {
        nbr[at] = far;
        wt[at] = w;
        end[near] = at + 1;
      }
    }
  }
  // Compact.
  const start = new Int32Array(n + 1);
  for (let r = 0; r < n; r++) start[r + 1] = (start[r] as number) + ((end[r] as number) - (cap[r] as number));
  const cnbr = new Int32Array(start[n] as number);
  const cwt = new Float64Array(start[n] as number);
  const total = new Float64Array(n);
  for (let r = 0; r < n; r++) {
    let k = start[r] as number;
    let sum = 0;
    for (let j = cap[r] as number; j < (end[r] as number); j++, k++) {
      cnbr[k] = nbr[j] as number;
      cwt[k] = wt[j] as number;
      sum += wt[j] as number;
    }
    total[r] = sum;
  }
  return { start, nbr: cnbr, wt: cwt, total };
}

/** The bound weight checked for shortest paths and trees: finite, and not negative where `nonNegative`. */
export function checkedWeight(weight: Float64Array | null, field: string, nonNegative: boolean): Float64Array | null {
  if (!weight) return null;
  for (let e = 0; e < weight.length; e++) {
    const w = weight[e] as number;
    if (Number.isNaN(w) || !Number.isFinite(w))
      throw new ComputeInputError(`${field}: edge ${e} has weight ${w}; weights must be finite numbers`, field);
    if (nonNegative && w < 0)
      throw new ComputeInputError(`${field}: edge ${e} has the negative weight ${w}; shortest paths take non-negative weights`, field);
  }
  return weight;
}

/** Graph output of an induced subgraph: the kept node rows (sorted) and every edge with both ends kept. */
export function inducedGraph(graph: ComputeGraph, keep: Uint8Array): { kind: "graph"; nodeRows: Int32Array; edgeRows: Int32Array } {
  let nodes = 0;
  for (let r = 0; r < graph.n; r++) if (keep[r]) nodes++;
  const nodeRows = new Int32Array(nodes);
  for (let r = 0, k = 0; r < graph.n; r++) if (keep[r]) nodeRows[k++] = r;
  let edges = 0;
  for (let e = 0; e < graph.m; e++) if (keep[graph.src[e] as number] && keep[graph.dst[e] as number]) edges++;
  const edgeRows = new Int32Array(edges);
  for (let e = 0, k = 0; e < graph.m; e++) if (keep[graph.src[e] as number] && keep[graph.dst[e] as number]) edgeRows[k++] = e;
  return { kind: "graph", nodeRows, edgeRows };
}

/** An Int32Array column whose negative values are null. */
export function nullableInt(name: string, values: Int32Array, ref?: "node"): OutColumn {
  const valid = new Uint8Array(values.length);
  for (let i = 0; i < values.length; i++) valid[i] = (values[i] as number) >= 0 ? 1 : 0;
  return ref ? { name, values, type: "int32", valid, ref } : { name, values, type: "int32", valid };
}

/** The source rows to start from, checked to be inside the graph. */
export function nodeRow(value: unknown, n: number, field: string): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value >= n)
    throw new ComputeInputError(`${field} must name a node of the graph`, field);
  return value;
}
