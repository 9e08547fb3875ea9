// The adjacency views the centrality algorithms walk: out-, in- or both-way lists over a ComputeGraph, with each
// entry's edge row, and helpers for per-entry weights and igraph's `mode` argument.

import { type ComputeGraph, undirected } from "../../../../kernels/cpu/csr.ts";
import { sharedFloat64 } from "../../../../kernels/cpu/shared-arrays.ts";
import { ComputeInputError, type ParamSpec } from "../../types.ts";

/** Entries start[v] .. start[v + 1] of node v: the neighbour nbr[j] reached through edge row edge[j]. */
export type Adjacency = { start: Int32Array; nbr: Int32Array; edge: Int32Array };

export type Mode = "out" | "in" | "all";

/** igraph's neighbour mode, as python-igraph takes it ("in", "out", "all", any case). */
export const modeParam = (fallback: Mode): ParamSpec => ({
  type: "enum",
  values: ["in", "out", "all", "IN", "OUT", "ALL"],
  default: fallback,
  description: 'which paths: "out" follows edge directions, "in" against them, "all" ignores them',
});

export function readMode(value: unknown): Mode {
  const mode = String(value ?? "all").toLowerCase();
  if (mode !== "in" && mode !== "out" && mode !== "all") throw new ComputeInputError(`mode must be in, out or all`, "mode");
  return mode;
}

/** The lists for `mode`; an undirected graph (or mode "all") lists every edge at both ends, a self-loop twice. */
export function adjacency(graph: ComputeGraph, mode: Mode): Adjacency {
  if (!graph.directed || mode === "all") return undirected(graph);
  if (mode === "out") return { start: graph.outStart, nbr: graph.outDst, edge: graph.outEdges };
  return { start: graph.inStart, nbr: graph.inSrc, edge: graph.inEdges };
}

/** Each entry's weight: weights[edge[j]]. */
export function entryWeights(adj: Adjacency, weights: Float64Array): Float64Array {
  // Shared, as the lists are: a kernel pool reads it without a copy.
  const out = sharedFloat64(adj.edge.length);
  for (let j = 0; j < out.length; j++) out[j] = weights[adj.edge[j] as number] as number;
  return out;
}

/** The reversed direction of a mode ("out" paths from v are "in" paths to v). */
export function reverseMode(mode: Mode): Mode {
  return mode === "out" ? "in" : mode === "in" ? "out" : "all";
}

/** Refuses weights igraph's path algorithms refuse: any not strictly positive, or NaN. */
export function requirePositive(weights: Float64Array, field: string): void {
  for (let e = 0; e < weights.length; e++) {
    const w = weights[e] as number;
    if (!(w > 0)) throw new ComputeInputError(`Weight vector must be positive (edge row ${e} has ${w})`, field);
  }
}

/**
 * Simple-graph lists as networkx walks a multigraph's G[v]: each distinct neighbour once (self-loops dropped, as
 * they never lie on a shortest path), with `group` numbering the distinct (v, w) pairs; the edge rows of each
 * pair are members[memberStart[g] .. memberStart[g + 1]). On an undirected graph, a pair and its reverse share a
 * group. `weight` per entry is the smallest parallel edge's weight (null when unweighted).
 */
export type SimpleAdjacency = {
  start: Int32Array;
  nbr: Int32Array;
  group: Int32Array;
  groups: number;
  memberStart: Int32Array;
  members: Int32Array;
  weight: Float64Array | null;
};

export function simpleAdjacency(graph: ComputeGraph, weights: Float64Array | null): SimpleAdjacency {
  const adj = adjacency(graph, "out");
  const { n } = graph;
  const seen = new Int32Array(n).fill(-1);
  const slot = new Int32Array(n);
  const start = new Int32Array(n + 1);
  const nbr = new Int32Array(adj.nbr.length);
  const group = new Int32Array(adj.nbr.length);
  const weight = weights ? new Float64Array(adj.nbr.length) : null;
  // Group of each edge row: one per distinct directed pair (directed), or unordered pair (undirected).
  const edgeGroup = new Int32Array(graph.m).fill(-1);
  let groups = 0;
  let k = 0;
  for (let v = 0; v < n; v++) {
    start[v] = k;
    for (let j = adj.start[v] as number; j < (adj.start[v + 1] as number); j++) {
      const w = adj.nbr[j] as number;
      if (w === v) continue;
      const e = adj.edge[j] as number;
      if (seen[w] !== v) {
        seen[w] = v;
        slot[w] = k;
        nbr[k] = w;
        let g = edgeGroup[e] as number;
        if (g < 0) g = groups++;
        group[k] = g;
        if (weight && weights) weight[k] = weights[e] as number;
        k++;
      } else if (weight && weights) {
        const at = slot[w] as number;
        if ((weights[e] as number) < (weight[at] as number)) weight[at] = weights[e] as number;
      }
      edgeGroup[e] = group[slot[w] as number] as number;
    }
  }
  start[n] = k;
  // On an undirected graph an edge is listed at both ends: the second sighting must reuse the first's group.
  // edgeGroup already ties them through the shared edge row; a pair's other parallel edges joined at the first end.
  const memberStart = new Int32Array(groups + 1);
  for (let e = 0; e < graph.m; e++) {
    const g = edgeGroup[e] as number;
    if (g >= 0) memberStart[g + 1] = (memberStart[g + 1] as number) + 1;
  }
  for (let g = 0; g < groups; g++) memberStart[g + 1] = (memberStart[g + 1] as number) + (memberStart[g] as number);
  const fill = memberStart.slice(0, groups);
  const members = new Int32Array(memberStart[groups] as number);
  for (let e = 0; e < graph.m; e++) {
    const g = edgeGroup[e] as number;
    if (g >= 0) {
      const at = fill[g] as number;
      members[at] = e;
      fill[g] = at + 1;
    }
  }
  return {
    start,
    nbr: nbr.slice(0, k),
    group: group.slice(0, k),
    groups,
    memberStart,
    members,
    weight: weight ? weight.slice(0, k) : null,
  };
}
