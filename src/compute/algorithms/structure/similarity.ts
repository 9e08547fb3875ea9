// The similarity family (cuGraph's jaccard, overlap, sorensen, their _coefficient and _w names): for each edge,
// the similarity of its endpoints' neighbour sets on the undirected graph, as an edge column named by the label.
import type { ComputeGraph } from "../../../../kernels/cpu/csr.ts";
import { edgeSimilarity } from "../../../../kernels/cpu/edge-similarity.ts";
import { edgeSimilarityCsr } from "../../../../kernels/cpu/edge-similarity-csr.ts";
import type { AlgorithmEntry, ComputeContext, ComputeOutput, ParamSpec } from "../../types.ts";
import { checkedWeight, neighbourSets } from "./adjacency.ts";

const METRIC = { jaccard: 0, overlap: 1, sorensen: 2 } as const;
type Metric = keyof typeof METRIC;

/**
 * Per edge row, the similarity of N(src) and N(dst): distinct neighbours, edge direction ignored, a self-loop making
 * a node its own neighbour as cuGraph's adjacency lists it (networkx's common_neighbors leaves the pair's own ends
 * out). Weighted (cuGraph 24's use_weight, by the bound edge weight, parallel edges' weights summed): shared = the
 * sum of min(w(u,x), w(v,x)) over common neighbours x, against each node's total weight.
 */
export function similarity(graph: ComputeGraph, metric: Metric, weighted: boolean, ctx: ComputeContext): Float64Array {
  const weight = weighted ? checkedWeight(graph.weight, "edge_weight", true) : null;
  const kernel = ctx.kernel("edge-similarity", edgeSimilarity);
  // On the CPU the edges are scored straight from the CSR (edge-similarity-csr.ts): no sorted neighbour lists, an
  // int32 (and a float64, weighted) per entry fewer. The OpenCL kernel binary-searches those lists.
  if (kernel === edgeSimilarity) return edgeSimilarityCsr({ ...graph, weight, metric: METRIC[metric] });
  const sets = neighbourSets(graph, weight);
  // The CSR's out- and in-edge lists together list every edge at both its ends: the twin scores each edge from
  // them without grouping arrays or the undirected view.
  return kernel({
    start: sets.start,
    nbr: sets.nbr,
    wt: sets.wt,
    total: sets.total,
    src: graph.src,
    dst: graph.dst,
    metric: METRIC[metric],
    incStart: graph.outStart,
    incPair: graph.outEdges,
    incStart2: graph.inStart,
    incPair2: graph.inEdges,
  });
}

const USE_WEIGHT: ParamSpec = {
  type: "boolean",
  default: false,
  description: "weigh by the bound edge weight (cuGraph 24's use_weight)",
};

const FORMULA: Record<Metric, string> = {
  jaccard: "|N(u) ∩ N(v)| / |N(u) ∪ N(v)|",
  overlap: "|N(u) ∩ N(v)| / min(|N(u)|, |N(v)|)",
  sorensen: "2 |N(u) ∩ N(v)| / (|N(u)| + |N(v)|)",
};

function entry(name: string, metric: Metric, mode: "flag" | "weighted" | "plain"): AlgorithmEntry {
  const weightedDoc =
    " weighted by the bound edge weight (sums of min over shared neighbours against each end's total; parallel edges summed)";
  return {
    library: "cugraph",
    name,
    params: mode === "flag" ? { use_weight: USE_WEIGHT } : {},
    output: "edges",
    backends: ["cpu", "opencl"],
    doc: `edge column: ${FORMULA[metric]} of the edge's endpoints on the undirected graph${mode === "weighted" ? `,${weightedDoc}` : mode === "flag" ? `; use_weight:${weightedDoc}` : ""}`,
    run: (graph, params, ctx, label): ComputeOutput => {
      const weighted = mode === "weighted" || (mode === "flag" && params.use_weight === true);
      return { kind: "edges", columns: [{ name: label, values: similarity(graph, metric, weighted, ctx), type: "float64" }] };
    },
  };
}

export const similarityEntries: AlgorithmEntry[] = [
  entry("jaccard", "jaccard", "flag"),
  entry("jaccard_w", "jaccard", "weighted"),
  entry("overlap", "overlap", "flag"),
  entry("overlap_coefficient", "overlap", "plain"),
  entry("overlap_w", "overlap", "weighted"),
  entry("sorensen", "sorensen", "flag"),
  entry("sorensen_coefficient", "sorensen", "plain"),
  entry("sorensen_w", "sorensen", "weighted"),
];
