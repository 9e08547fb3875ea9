// Spanning trees: cuGraph's minimum_spanning_tree (by the bound weight) and igraph's spanning_tree (by `weights`):
// Kruskal's algorithm over edge rows, answering the kept edges (a spanning forest: one tree per component).
import type { ComputeGraph } from "../../../../kernels/cpu/csr.ts";
import { type AlgorithmEntry, ComputeInputError, type ComputeOutput } from "../../types.ts";
import { checkedWeight } from "./adjacency.ts";
import { sortByWeight } from "./sort-by-weight.ts";

/** The edge rows of a minimum spanning forest (ties: the smaller edge row first; self-loops never kept), ascending. */
export function minimumSpanningForest(graph: ComputeGraph, weight: Float64Array | null): Int32Array {
  const { n, m, src, dst } = graph;
  const order = weight ? sortByWeight(weight) : new Int32Array(0);
  const parent = new Int32Array(n);
  for (let r = 0; r < n; r++) parent[r] = r;
  const kept = new Uint8Array(m);
  let count = 0;
  for (let i = 0; i < m && count < n - 1; i++) {
    const e = weight ? (order[i] as number) : i;
    let a = src[e] as number;
    let b = dst[e] as number;
    while ((parent[a] as number) !== a) {
      const g = parent[parent[a] as number] as number;
      parent[a] = g;
      a = g;
    }
    while ((parent[b] as number) !== b) {
      const g = parent[parent[b] as number] as number;
      parent[b] = g;
      b = g;
    }
    if (a === b) continue;
    if (a < b) parent[b] = a;
    else parent[a] = b;
    kept[e] = 1;
    count++;
  }
  const rows = new Int32Array(count);
  for (let e = 0, k = 0; e < m; e++) if (kept[e]) rows[k++] = e;
  return rows;
}

const forest = (edgeRows: Int32Array): ComputeOutput => ({ kind: "graph", nodeRows: null, edgeRows });

export const treeEntries: AlgorithmEntry[] = [
  {
    library: "cugraph",
    name: "minimum_spanning_tree",
    params: {},
    output: "graph",
    backends: ["cpu"],
    undirectedOnly: true,
    doc: "graph: every node and the edges of a minimum spanning forest by the bound edge weight (1 per edge when none)",
    run: (graph) => forest(minimumSpanningForest(graph, checkedWeight(graph.weight, "edge_weight", false))),
  },
  {
    library: "igraph",
    name: "spanning_tree",
    params: { weights: { type: "edgeColumn", nullable: true, description: "edge weights (a column); absent: unweighted" } },
    output: "graph",
    backends: ["cpu"],
    doc: "graph: every node and the edges of a minimum spanning forest by `weights` (edge direction ignored)",
    run: (graph, params) => {
      const weights = (params.weights as Float64Array | null | undefined) ?? null;
      if (weights && weights.length !== graph.m) throw new ComputeInputError("weights must give one value per edge", "weights");
      return forest(minimumSpanningForest(graph, checkedWeight(weights, "weights", false)));
    },
  },
];
