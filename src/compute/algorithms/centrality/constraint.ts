// igraph's Burt constraint (Graph.constraint, weights): per node, the squared sums of direct and two-step
// proportional tie strengths over its neighbours, computed as igraph 0.10's igraph_constraint does (directed
// graphs read in- and out-edges; self-loops skipped; isolated nodes null). CPU only.
import { undirected } from "../../../../kernels/cpu/csr.ts";
import { type AlgorithmEntry, ComputeInputError } from "../../types.ts";
import type { Adjacency } from "./adjacency.ts";

export const igraphConstraint: AlgorithmEntry = {
  library: "igraph",
  name: "constraint",
  params: { weights: { type: "edgeColumn", nullable: true, default: null, description: "edge column of tie strengths" } },
  output: "nodes",
  backends: ["cpu"],
  doc: "Burt's constraint per node (float64; null for isolated nodes)",
  run(graph, params, ctx, label) {
    const { n } = graph;
    const weights = (params.weights as Float64Array | null | undefined) ?? null;
    if (weights)
      for (let e = 0; e < weights.length; e++)
        if (Number.isNaN(weights[e])) throw new ComputeInputError("weights must not be NaN", "weights");
    const lists: Adjacency[] = graph.directed
      ? [
          { start: graph.inStart, nbr: graph.inSrc, edge: graph.inEdges },
          { start: graph.outStart, nbr: graph.outDst, edge: graph.outEdges },
        ]
      : [undirected(graph)];
    // Strength of each node over its edges other than self-loops.
    const degree = new Float64Array(n);
    for (let e = 0; e < graph.m; e++) {
      const s = graph.src[e] as number;
      const d = graph.dst[e] as number;
      if (s === d) continue;
      const w = weights ? (weights[e] as number) : 1;
      degree[s] = (degree[s] as number) + w;
      degree[d] = (degree[d] as number) + w;
    }
    const contrib = new Float64Array(n);
    const res = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      if (i % 4096 === 0) {
        ctx.checkCancelled();
        ctx.progress({ phase: "constraint", fraction: i / n });
      }
      let incident = 0;
      for (const l of lists) {
        for (let b = l.start[i] as number; b < (l.start[i + 1] as number); b++) contrib[l.nbr[b] as number] = 0;
        incident += (l.start[i + 1] as number) - (l.start[i] as number);
      }
      if (incident === 0) {
        res[i] = Number.NaN;
        continue;
      }
      const di = degree[i] as number;
      // Direct contributions.
      for (const l of lists) {
        for (let b = l.start[i] as number; b < (l.start[i + 1] as number); b++) {
          const j = l.nbr[b] as number;
          if (j === i) continue;
          contrib[j] = (contrib[j] as number) + (weights ? (weights[l.edge[b] as number] as number) : 1) / di;
        }
      }
      // Two-step contributions through each neighbour j.
      for (const l of lists) {
        for (let b = l.start[i] as number; b < (l.start[i + 1] as number); b++) {
          const j = l.nbr[b] as number;
          if (j === i) continue;
          const wij = weights ? (weights[l.edge[b] as number] as number) : 1;
          const dj = degree[j] as number;
          for (const l2 of lists) {
            for (let c = l2.start[j] as number; c < (l2.start[j + 1] as number); c++) {
              const q = l2.nbr[c] as number;
              if (q === j) continue;
              const wjq = weights ? (weights[l2.edge[c] as number] as number) : 1;
              contrib[q] = (contrib[q] as number) + (weights ? (wij * wjq) / di / dj : 1 / di / dj);
            }
          }
        }
      }
      // Squared sums over the neighbours (each counted once: its slot is cleared once read).
      let sum = 0;
      for (const l of lists) {
        for (let b = l.start[i] as number; b < (l.start[i + 1] as number); b++) {
          const j = l.nbr[b] as number;
          if (j === i) continue;
          sum += (contrib[j] as number) * (contrib[j] as number);
          contrib[j] = 0;
        }
      }
      res[i] = sum;
    }
    return { kind: "nodes", columns: [{ name: label, values: res }] };
  },
};
