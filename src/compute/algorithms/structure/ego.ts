// Ego graphs: cuGraph's ego_graph (the subgraph within `radius` hops of a node) and batched_ego_graphs (per edge,
// how many of the seeds' ego graphs hold it).
import type { AlgorithmEntry } from "../../types.ts";
import { ComputeInputError } from "../../types.ts";
import { inducedGraph, nodeRow } from "./adjacency.ts";
import { hops } from "./traversal.ts";

const RADIUS = { type: "integer", default: 1, min: 0, description: "hops from the center (out-edges of a directed graph)" } as const;

export const egoEntries: AlgorithmEntry[] = [
  {
    library: "cugraph",
    name: "ego_graph",
    params: {
      n: { type: "node", required: true, description: "the center node" },
      radius: RADIUS,
      center: { type: "boolean", default: true, description: "keep the center node itself" },
    },
    output: "graph",
    backends: ["cpu", "opencl"],
    doc: "graph: the nodes within radius hops of n (out-edges of a directed graph) and every edge between them",
    run: (graph, params, ctx) => {
      const center = nodeRow(params.n, graph.n, "n");
      const { dist } = hops(graph, Int32Array.of(center), params.radius as number, ctx);
      const keep = new Uint8Array(graph.n);
      for (let r = 0; r < graph.n; r++) keep[r] = (dist[r] as number) >= 0 ? 1 : 0;
      if (params.center === false) keep[center] = 0;
      return inducedGraph(graph, keep);
    },
  },
  {
    library: "cugraph",
    name: "batched_ego_graphs",
    params: {
      seeds: { type: "nodes", required: true, description: "the center nodes" },
      radius: RADIUS,
    },
    output: "edges",
    backends: ["cpu", "opencl"],
    doc: "edge column (int32): how many of the seeds' ego graphs (radius hops) hold the edge; 0 for none",
    run: (graph, params, ctx, label) => {
      const seeds = params.seeds as Int32Array;
      if (!(seeds instanceof Int32Array)) throw new ComputeInputError("seeds must be a list of node ids", "seeds");
      const count = new Int32Array(graph.m);
      const radius = params.radius as number;
      for (let i = 0; i < seeds.length; i++) {
        ctx.checkCancelled();
        const seed = nodeRow(seeds[i], graph.n, `seeds[${i}]`);
        const { dist } = hops(graph, Int32Array.of(seed), radius, ctx);
        // Every edge leaves exactly one node: walk the reached nodes' out-edges.
        for (let u = 0; u < graph.n; u++) {
          if ((dist[u] as number) < 0) continue;
          for (let j = graph.outStart[u] as number; j < (graph.outStart[u + 1] as number); j++) {
            if ((dist[graph.outDst[j] as number] as number) >= 0)
              count[graph.outEdges[j] as number] = (count[graph.outEdges[j] as number] as number) + 1;
          }
        }
        ctx.progress({ phase: "ego graphs", iteration: i + 1, fraction: (i + 1) / seeds.length });
      }
      return { kind: "edges", columns: [{ name: label, values: count, type: "int32" }] };
    },
  },
];
