// The flow-communities algorithms of spec 2.9 (walktrap, edge betweenness, infomap, spinglass), as registry entries.
import { type AlgorithmEntry, ComputeInputError } from "../../types.ts";
import { cutDendrogram, optimalCount } from "./dendrogram.ts";
import { walktrap } from "./walktrap.ts";
import { walkGraph } from "./walktrap-graph.ts";

/** The edge weights a request bound (a Float64Array per edge), or null. */
export function weightsOf(value: unknown): Float64Array | null {
  return value instanceof Float64Array ? value : null;
}

function membershipColumn(label: string, membership: Int32Array) {
  return { kind: "nodes" as const, columns: [{ name: label, values: membership, type: "int64" as const }] };
}

const communityWalktrap: AlgorithmEntry = {
  library: "igraph",
  name: "community_walktrap",
  params: {
    weights: { type: "edgeColumn", nullable: true, description: "edge weights (a column of the edge table)" },
    steps: { type: "integer", default: 4, min: 1, description: "length of the random walks" },
  },
  output: "nodes",
  backends: ["cpu"],
  doc: "membership of Pons & Latapy's walktrap dendrogram cut at its maximum modularity (as_clustering())",
  run(graph, params, ctx, label) {
    const weights = weightsOf(params.weights);
    if (weights) {
      for (let e = 0; e < weights.length; e++) {
        if (!((weights[e] as number) >= 0))
          throw new ComputeInputError("igraph refuses walktrap: weight vector must be non-negative", "weights");
      }
    }
    const steps = Number(params.steps ?? 4);
    if (!(steps > 0)) throw new ComputeInputError("igraph refuses walktrap: length of random walks must be positive", "steps");
    const g = walkGraph(graph, weights);
    for (let v = 0; v < g.n; v++) {
      if ((g.strength[v] as number) === 0) {
        throw new ComputeInputError(
          "igraph refuses walktrap: vertex with zero strength found: all vertices must have positive strength",
          "weights",
        );
      }
    }
    const { merges, q } = walktrap(g, steps, ctx);
    return membershipColumn(label, cutDendrogram(graph.n, merges, optimalCount(q)));
  },
};

export const entries: AlgorithmEntry[] = [communityWalktrap];
