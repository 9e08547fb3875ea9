// Breadth-first search: cuGraph's bfs and bfs_edges (hop distance named by the label, `predecessor` beside it).
import { bfs } from "../../../../kernels/cpu/bfs.ts";
import type { ComputeGraph } from "../../../../kernels/cpu/csr.ts";
import type { AlgorithmEntry, ComputeContext, ComputeOutput, OutColumn } from "../../types.ts";
import { nodeRow, nullableInt, traversal } from "./adjacency.ts";

/** Hop distances from `sources` (out-edges of a directed graph, in-edges when `reverse`), -1 = not reached. */
export function hops(graph: ComputeGraph, sources: Int32Array, depthLimit: number, ctx: ComputeContext, reverse = false) {
  const adj = traversal(graph, reverse);
  return ctx.kernel("bfs", bfs)({ n: graph.n, start: adj.start, nbr: adj.nbr, sources, depthLimit });
}

function bfsOutput(
  graph: ComputeGraph,
  source: number,
  depth: unknown,
  withPred: boolean,
  reverse: boolean,
  ctx: ComputeContext,
  label: string,
): ComputeOutput {
  const depthLimit = typeof depth === "number" ? depth : -1;
  const { dist, pred } = hops(graph, Int32Array.of(source), depthLimit, ctx, reverse);
  const columns: OutColumn[] = [nullableInt(label, dist)];
  if (withPred) columns.push(nullableInt("predecessor", pred, "node"));
  return { kind: "nodes", columns };
}

const DEPTH = { type: "integer", nullable: true, min: 0, description: "the deepest hop count to reach (absent: no limit)" } as const;
const DOC =
  "node column: hop distance from the start (null where not reached), and `predecessor`: the node one hop closer with the smallest row (null at the start and where not reached)";

export const traversalEntries: AlgorithmEntry[] = [
  {
    library: "cugraph",
    name: "bfs",
    params: {
      start: { type: "node", required: true, description: "the node to search from" },
      depth_limit: DEPTH,
      return_predecessors: { type: "boolean", default: true, description: "also answer the predecessor column" },
    },
    output: "nodes",
    backends: ["cpu", "opencl"],
    doc: `${DOC}; out-edges on a directed graph`,
    run: (graph, params, ctx, label) =>
      bfsOutput(
        graph,
        nodeRow(params.start, graph.n, "start"),
        params.depth_limit,
        params.return_predecessors !== false,
        false,
        ctx,
        label,
      ),
  },
  {
    library: "cugraph",
    name: "bfs_edges",
    params: {
      source: { type: "node", required: true, description: "the node to search from" },
      reverse: { type: "boolean", default: false, description: "follow in-edges of a directed graph" },
      depth_limit: DEPTH,
    },
    output: "nodes",
    backends: ["cpu", "opencl"],
    doc: `${DOC}; out-edges on a directed graph (in-edges with reverse)`,
    run: (graph, params, ctx, label) =>
      bfsOutput(graph, nodeRow(params.source, graph.n, "source"), params.depth_limit, true, params.reverse === true, ctx, label),
  },
];
