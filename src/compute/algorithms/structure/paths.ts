// Weighted shortest paths: cuGraph's sssp, shortest_path and shortest_path_length over the bound edge weight.
import type { ComputeGraph } from "../../../../kernels/cpu/csr.ts";
import { sssp } from "../../../../kernels/cpu/sssp.ts";
import type { AlgorithmEntry, ComputeContext, ComputeOutput, OutColumn } from "../../types.ts";
import { checkedWeight, nodeRow, nullableInt, traversal } from "./adjacency.ts";

/** Distances from `source` by the bound weight (1 per edge when none is bound or `unweighted`). */
export function distances(graph: ComputeGraph, source: number, cutoff: number, unweighted: boolean, ctx: ComputeContext) {
  const weight = unweighted ? null : checkedWeight(graph.weight, "edge_weight", true);
  const adj = traversal(graph);
  return ctx.kernel(
    "sssp",
    sssp,
  )({
    n: graph.n,
    start: adj.start,
    nbr: adj.nbr,
    edge: adj.edge,
    weight: weight ?? new Float64Array(0),
    source,
    cutoff,
  });
}

function pathOutput(graph: ComputeGraph, params: Record<string, unknown>, ctx: ComputeContext, label: string): ComputeOutput {
  const source = nodeRow(params.source, graph.n, "source");
  const cutoff = typeof params.cutoff === "number" ? params.cutoff : Number.POSITIVE_INFINITY;
  const { dist, pred } = distances(graph, source, cutoff, params.unweighted === true, ctx);
  const columns: OutColumn[] = [{ name: label, values: dist, type: "float64" }];
  if (params.return_predecessors !== false) columns.push(nullableInt("predecessor", pred, "node"));
  return { kind: "nodes", columns };
}

const SOURCE = { type: "node", required: true, description: "the node the paths start from" } as const;
const DOC =
  "node column: the shortest distance from source by the bound edge weight (null where unreachable), and `predecessor`: the previous node on a shortest path";

export const pathEntries: AlgorithmEntry[] = [
  {
    library: "cugraph",
    name: "sssp",
    params: {
      source: SOURCE,
      cutoff: { type: "number", nullable: true, min: 0, description: "distances above it count as unreachable" },
      unweighted: { type: "boolean", default: false, description: "ignore the bound weight (every edge weighs 1)" },
      return_predecessors: { type: "boolean", default: true, description: "also answer the predecessor column" },
    },
    output: "nodes",
    backends: ["cpu", "opencl"],
    doc: `${DOC}; negative weights answer 400`,
    run: pathOutput,
  },
  {
    library: "cugraph",
    name: "shortest_path",
    params: {
      source: SOURCE,
      unweighted: { type: "boolean", default: false, description: "ignore the bound weight (every edge weighs 1)" },
      return_predecessors: { type: "boolean", default: true, description: "also answer the predecessor column" },
    },
    output: "nodes",
    backends: ["cpu", "opencl"],
    doc: `${DOC} (as sssp)`,
    run: pathOutput,
  },
  {
    library: "cugraph",
    name: "shortest_path_length",
    params: {
      source: SOURCE,
      target: { type: "node", nullable: true, description: "only this node's distance (the other rows null)" },
    },
    output: "nodes",
    backends: ["cpu", "opencl"],
    doc: "node column: the shortest distance from source by the bound edge weight (null where unreachable; with target, only the target's row)",
    run: (graph, params, ctx, label) => {
      const source = nodeRow(params.source, graph.n, "source");
      const { dist } = distances(graph, source, Number.POSITIVE_INFINITY, false, ctx);
      if (params.target !== undefined && params.target !== null) {
        const target = nodeRow(params.target, graph.n, "target");
        const only = new Float64Array(graph.n).fill(Number.NaN);
        only[target] = dist[target] as number;
        return { kind: "nodes", columns: [{ name: label, values: only, type: "float64" }] };
      }
      return { kind: "nodes", columns: [{ name: label, values: dist, type: "float64" }] };
    },
  },
];
