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
 * `weight` null: every distinct neighbour weighs 1 and `wt` is empty. `total` sums each node's entries.
 * Read straight from the CSR (each node's out-edges, then its in-edges: the undirected view's order, without
 * building or keeping that view): marks drop repeats, short lists are insertion-sorted in place.
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
  const { n } = graph;
  const { outStart, outDst, outEdges, inStart, inSrc, inEdges } = graph;
  const len = outDst.length + inSrc.length;
  const start = new Int32Array(n + 1);
  const nbr = new Int32Array(len);
  const wt = weight ? new Float64Array(len) : new Float64Array(0);
  const total = new Float64Array(n);
  const stamp = new Int32Array(n).fill(-1);
  const acc = weight ? new Float64Array(n) : null;
  let k = 0;
  for (let r = 0; r < n; r++) {
    const first = k;
    for (let j = outStart[r] as number; j < (outStart[r + 1] as number); j++) {
      const x = outDst[j] as number;
      if ((stamp[x] as number) !== r) {
        stamp[x] = r;
        nbr[k++] = x;
        if (acc) acc[x] = (weight as Float64Array)[outEdges[j] as number] as number;
      } else if (acc) acc[x] = (acc[x] as number) + ((weight as Float64Array)[outEdges[j] as number] as number);
    }
    // A self-loop is listed among both the out- and the in-edges: its in-edge entry is skipped.
    for (let j = inStart[r] as number; j < (inStart[r + 1] as number); j++) {
      const x = inSrc[j] as number;
      if (x === r) continue;
      if ((stamp[x] as number) !== r) {
        stamp[x] = r;
        nbr[k++] = x;
        if (acc) acc[x] = (weight as Float64Array)[inEdges[j] as number] as number;
      } else if (acc) acc[x] = (acc[x] as number) + ((weight as Float64Array)[inEdges[j] as number] as number);
    }
    if (k - first > 24) nbr.subarray(first, k).sort();
    else {
      for (let i = first + 1; i < k; i++) {
        const x = nbr[i] as number;
        let j = i - 1;
        while (j >= first && (nbr[j] as number) > x) {
          nbr[j + 1] = nbr[j] as number;
          j--;
        }
        nbr[j + 1] = x;
      }
    }
    let sum = 0;
    for (let i = first; i < k; i++) {
      if (acc) {
        const w = acc[nbr[i] as number] as number;
        wt[i] = w;
        sum += w;
      } else sum += 1;
    }
    total[r] = sum;
    start[r + 1] = k;
  }
  return { start, nbr: nbr.subarray(0, k), wt: weight ? wt.subarray(0, k) : wt, total };
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
