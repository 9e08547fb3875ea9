// Sugiyama's first step when no layers are given, as igraph 0.10 does it without GLPK: directed graphs get Eades,
// Lin and Smyth's feedback arc set ordering and the longest-path layering along it (every edge that is not a
// feedback edge points to a higher layer); undirected graphs get BFS depths from the highest-strength vertex of
// each component. (igraph built with GLPK solves an LP instead for directed graphs of at most 1000 vertices; its
// optimum is not unique, so that variant is not reproduced.)
import { type IGraph, incidence } from "./igraph-graph.ts";
import { qsortInd } from "./igraph-qsort.ts";

/** A layer index per vertex (0 = top). */
export function sugiyamaLayers(graph: IGraph, weights: Float64Array | null): Int32Array {
  const n = graph.n;
  if (graph.from.length === 0) return new Int32Array(n);
  return graph.directed ? eadesLayers(graph, weights) : bfsLayers(graph, weights);
}

/** igraph_i_feedback_arc_set_undirected's layering: BFS depths, roots by decreasing strength (loops excluded). */
function bfsLayers(graph: IGraph, weights: Float64Array | null): Int32Array {
  const n = graph.n;
  const strength = new Float64Array(n);
  for (let e = 0; e < graph.from.length; e++) {
    const a = graph.from[e] as number;
    const b = graph.to[e] as number;
    if (a === b) continue;
    const w = weights ? (weights[e] as number) : 1;
    strength[a] = (strength[a] as number) + w;
    strength[b] = (strength[b] as number) + w;
  }
  const roots = qsortInd(strength, "descending");
  const inc = incidence(graph, "all");
  const dist = new Int32Array(n);
  const seen = new Uint8Array(n);
  const queue = new Int32Array(n);
  for (const root of roots) {
    if (seen[root]) continue;
    seen[root] = 1;
    dist[root] = 0;
    let head = 0;
    let tail = 0;
    queue[tail++] = root;
    while (head < tail) {
      const u = queue[head++] as number;
      for (let j = inc.start[u] as number; j < (inc.start[u + 1] as number); j++) {
        const w = inc.nbr[j] as number;
        if (seen[w]) continue;
        seen[w] = 1;
        dist[w] = (dist[u] as number) + 1;
        queue[tail++] = w;
      }
    }
  }
  return dist;
}

/** igraph_i_feedback_arc_set_eades with its layering output. */
function eadesLayers(graph: IGraph, weights: Float64Array | null): Int32Array {
  const n = graph.n;
  const { from, to } = graph;
  const m = from.length;
  const indeg = new Int32Array(n);
  const outdeg = new Int32Array(n);
  const instr = new Float64Array(n);
  const outstr = new Float64Array(n);
  for (let e = 0; e < m; e++) {
    const a = from[e] as number;
    const b = to[e] as number;
    if (a === b) continue;
    const w = weights ? (weights[e] as number) : 1;
    outdeg[a] = (outdeg[a] as number) + 1;
    indeg[b] = (indeg[b] as number) + 1;
    outstr[a] = (outstr[a] as number) + w;
    instr[b] = (instr[b] as number) + w;
  }
  const outInc = incidence(graph, "out");
  const inInc = incidence(graph, "in");
  const weight = (e: number) => (weights ? (weights[e] as number) : 1);
  const ordering = new Int32Array(n);
  let nextPos = 0;
  let nextNeg = -1;
  let nodesLeft = n;
  const sources: number[] = [];
  const sinks: number[] = [];
  let sourceHead = 0;
  let sinkHead = 0;
  for (let i = 0; i < n; i++) {
    if (indeg[i] === 0) {
      if (outdeg[i] === 0) {
        nodesLeft--;
        ordering[i] = nextPos++;
        indeg[i] = outdeg[i] = -1;
      } else sources.push(i);
    } else if (outdeg[i] === 0) sinks.push(i);
  }
  // Removing a vertex: its out-edges' targets lose in-degree (may become sources); its in-edges' sources lose
  // out-degree (may become sinks).
  const dropOut = (v: number) => {
    for (let j = outInc.start[v] as number; j < (outInc.start[v + 1] as number); j++) {
      const e = outInc.edges[j] as number;
      const k = to[e] as number;
      if ((indeg[k] as number) <= 0) continue;
      indeg[k] = (indeg[k] as number) - 1;
      instr[k] = (instr[k] as number) - weight(e);
      if (indeg[k] === 0) sources.push(k);
    }
  };
  const dropIn = (v: number, sinkOnlyIfEntered: boolean) => {
    for (let j = inInc.start[v] as number; j < (inInc.start[v + 1] as number); j++) {
      const e = inInc.edges[j] as number;
      const k = from[e] as number;
      if ((outdeg[k] as number) <= 0) continue;
      outdeg[k] = (outdeg[k] as number) - 1;
      outstr[k] = (outstr[k] as number) - weight(e);
      if (outdeg[k] === 0 && (!sinkOnlyIfEntered || (indeg[k] as number) > 0)) sinks.push(k);
    }
  };
  while (nodesLeft > 0) {
    while (sourceHead < sources.length) {
      const i = sources[sourceHead++] as number;
      ordering[i] = nextPos++;
      indeg[i] = outdeg[i] = -1;
      dropOut(i);
      nodesLeft--;
    }
    while (sinkHead < sinks.length) {
      const i = sinks[sinkHead++] as number;
      if ((indeg[i] as number) < 0) continue;
      ordering[i] = nextNeg--;
      indeg[i] = outdeg[i] = -1;
      dropIn(i, false);
      nodesLeft--;
    }
    let v = -1;
    let maxdiff = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < n; i++) {
      if ((outdeg[i] as number) < 0) continue;
      const diff = (outstr[i] as number) - (instr[i] as number);
      if (diff > maxdiff) {
        maxdiff = diff;
        v = i;
      }
    }
    if (v >= 0) {
      ordering[v] = nextPos++;
      dropOut(v);
      dropIn(v, true);
      outdeg[v] = -1;
      indeg[v] = -1;
      nodesLeft--;
    }
  }
  for (let i = 0; i < n; i++) if ((ordering[i] as number) < 0) ordering[i] = (ordering[i] as number) + n;
  // Longest paths along the ordering, feedback edges (pointing backwards) left out.
  const layers = new Int32Array(n);
  for (const u of qsortInd(ordering, "ascending")) {
    for (let j = outInc.start[u] as number; j < (outInc.start[u + 1] as number); j++) {
      const w = outInc.nbr[j] as number;
      if (w === u || (ordering[u] as number) > (ordering[w] as number)) continue;
      if ((layers[w] as number) < (layers[u] as number) + 1) layers[w] = (layers[u] as number) + 1;
    }
  }
  return layers;
}
