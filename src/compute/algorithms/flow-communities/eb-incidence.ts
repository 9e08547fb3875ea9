// igraph's incidence lists, in igraph 0.10's order, for Girvan-Newman: per vertex, the edges sorted by the other
// endpoint (multi-edges newest first), as igraph_inclist_init builds them; lists shrink as edges are removed.
import type { ComputeGraph } from "../../../../kernels/cpu/csr.ts";

export type Incidence = { start: Int32Array; len: Int32Array; edges: Int32Array };

/** igraph's FROM and TO: an undirected graph stores each edge as (larger, smaller) endpoint. */
export function igraphEnds(graph: ComputeGraph): { from: Int32Array; to: Int32Array } {
  if (graph.directed) return { from: graph.src, to: graph.dst };
  const from = new Int32Array(graph.m);
  const to = new Int32Array(graph.m);
  for (let e = 0; e < graph.m; e++) {
    const a = graph.src[e] as number;
    const b = graph.dst[e] as number;
    from[e] = a > b ? a : b;
    to[e] = a > b ? b : a;
  }
  return { from, to };
}

type Entry = { owner: number; key: number; eid: number };

function build(n: number, entries: Entry[]): Incidence {
  entries.sort((x, y) => x.owner - y.owner || x.key - y.key || y.eid - x.eid);
  const start = new Int32Array(n + 1);
  for (const x of entries) start[x.owner + 1] = (start[x.owner + 1] as number) + 1;
  for (let v = 0; v < n; v++) start[v + 1] = (start[v + 1] as number) + (start[v] as number);
  const len = new Int32Array(n);
  for (let v = 0; v < n; v++) len[v] = (start[v + 1] as number) - (start[v] as number);
  const edges = new Int32Array(entries.length);
  for (let i = 0; i < entries.length; i++) edges[i] = (entries[i] as Entry).eid;
  return { start, len, edges };
}

/** Edges leaving (out) or entering (in) each vertex of a directed graph, each loop once. */
export function directedIncidence(n: number, from: Int32Array, to: Int32Array, out: boolean): Incidence {
  const entries: Entry[] = [];
  for (let e = 0; e < from.length; e++) {
    const owner = out ? (from[e] as number) : (to[e] as number);
    const other = out ? (to[e] as number) : (from[e] as number);
    entries.push({ owner, key: other, eid: e });
  }
  return build(n, entries);
}

/**
 * Every edge at both ends, loops twice. Undirected graph: the edges stored with the vertex as FROM, then those with it
 * as TO. Directed graph read both ways: out- and in-edges merged by the other endpoint, an out- and an in-edge
 * alternating where they tie.
 */
export function allIncidence(n: number, from: Int32Array, to: Int32Array, graphDirected: boolean): Incidence {
  const entries: Entry[] = [];
  if (!graphDirected) {
    // key: part (FROM side first) then the other endpoint.
    for (let e = 0; e < from.length; e++) {
      entries.push({ owner: from[e] as number, key: to[e] as number, eid: e });
      entries.push({ owner: to[e] as number, key: n + (from[e] as number), eid: e });
    }
    return build(n, entries);
  }
  // Rank of each edge among same (owner, other, side) edges, newest first; ties alternate out, in.
  const outs = directedIncidence(n, from, to, true);
  const ins = directedIncidence(n, from, to, false);
  const keyed: { owner: number; other: number; rank: number; side: number; eid: number }[] = [];
  const rank = (inc: Incidence, ends: Int32Array, side: number) => {
    for (let v = 0; v < n; v++) {
      let r = 0;
      for (let j = inc.start[v] as number; j < (inc.start[v + 1] as number); j++) {
        const eid = inc.edges[j] as number;
        const other = ends[eid] as number;
        if (j > (inc.start[v] as number) && (ends[inc.edges[j - 1] as number] as number) === other) r++;
        else r = 0;
        keyed.push({ owner: v, other, rank: r, side, eid });
      }
    }
  };
  rank(outs, to, 0);
  rank(ins, from, 1);
  keyed.sort((x, y) => x.owner - y.owner || x.other - y.other || x.rank - y.rank || x.side - y.side);
  return build(
    n,
    keyed.map((x, i) => ({ owner: x.owner, key: i, eid: x.eid })),
  );
}

/** Removes the first occurrence of `edge` from v's list, the last entry taking its place (igraph's way). */
export function removeIncident(inc: Incidence, v: number, edge: number): void {
  const s = inc.start[v] as number;
  const l = inc.len[v] as number;
  for (let j = s; j < s + l; j++) {
    if ((inc.edges[j] as number) === edge) {
      inc.edges[j] = inc.edges[s + l - 1] as number;
      inc.len[v] = l - 1;
      return;
    }
  }
}
