// Connected components: cuGraph's connected_components / weakly_ / strongly_connected_components (the `labels`
// column) and igraph's clusters (the membership vector).
import { components } from "../../../../kernels/cpu/components.ts";
import type { ComputeGraph } from "../../../../kernels/cpu/csr.ts";
import type { AlgorithmEntry, ComputeContext, ComputeOutput } from "../../types.ts";
import { numberBySmallestRow, strongComponents } from "./scc.ts";

/** Weak components numbered 0, 1, ... in the order of their smallest node row (igraph's weak membership). */
export function weakMembership(graph: ComputeGraph, ctx: ComputeContext): Int32Array {
  const label = ctx.kernel("components", components)({ n: graph.n, src: graph.src, dst: graph.dst });
  const out = new Int32Array(graph.n);
  let next = 0;
  for (let r = 0; r < graph.n; r++) {
    const root = label[r] as number;
    out[r] = root === r ? next++ : (out[root] as number);
  }
  return out;
}

function strongMembership(graph: ComputeGraph, ctx: ComputeContext, igraphOrder: boolean): Int32Array {
  if (!graph.directed) return weakMembership(graph, ctx);
  const membership = strongComponents(graph);
  if (igraphOrder) return membership;
  let clusters = 0;
  for (let r = 0; r < membership.length; r++) if ((membership[r] as number) >= clusters) clusters = (membership[r] as number) + 1;
  return numberBySmallestRow(membership, clusters);
}

const labels = (label: string, values: Int32Array): ComputeOutput => ({
  kind: "nodes",
  columns: [{ name: label, values, type: "int32" }],
});

const LABELS_DOC = "node column: the component's number, components numbered 0, 1, ... in the order of their smallest node row";

export const componentEntries: AlgorithmEntry[] = [
  {
    library: "cugraph",
    name: "connected_components",
    params: {
      connection: {
        type: "enum",
        values: ["weak", "strong"],
        default: "weak",
        description: "weak or strong components of a directed graph",
      },
    },
    output: "nodes",
    backends: ["cpu", "opencl"],
    doc: `${LABELS_DOC} (connection: weak, or strong on a directed graph)`,
    run: (graph, params, ctx, label) =>
      labels(label, params.connection === "strong" ? strongMembership(graph, ctx, false) : weakMembership(graph, ctx)),
  },
  {
    library: "cugraph",
    name: "weakly_connected_components",
    params: {},
    output: "nodes",
    backends: ["cpu", "opencl"],
    doc: `${LABELS_DOC} (edges read both ways)`,
    run: (graph, _params, ctx, label) => labels(label, weakMembership(graph, ctx)),
  },
  {
    library: "cugraph",
    name: "strongly_connected_components",
    params: {},
    output: "nodes",
    backends: ["cpu"],
    doc: `${LABELS_DOC} (strong components of a directed graph; weak ones of an undirected graph)`,
    run: (graph, _params, ctx, label) => labels(label, strongMembership(graph, ctx, false)),
  },
  {
    library: "igraph",
    name: "clusters",
    params: {
      mode: { type: "enum", values: ["strong", "weak"], default: "strong", description: "igraph's mode (ignored on undirected graphs)" },
    },
    output: "nodes",
    backends: ["cpu", "opencl"],
    doc: "node column: igraph's membership vector (weak: numbered by smallest node row; strong: igraph's Kosaraju order)",
    run: (graph, params, ctx, label) =>
      labels(label, params.mode === "weak" ? weakMembership(graph, ctx) : strongMembership(graph, ctx, true)),
  },
];
