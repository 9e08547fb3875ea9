// The flow-communities algorithms of spec 2.9 (walktrap, edge betweenness, infomap, spinglass), as registry entries.
import { type AlgorithmEntry, ComputeInputError } from "../../types.ts";
import { cutDendrogram, firstAppearance, optimalCount } from "./dendrogram.ts";
import { ebMerges, removalOrder } from "./edge-betweenness.ts";
import { infomap } from "./infomap.ts";
import { FlowGraph } from "./infomap-flow.ts";
import { DEFAULT_SEED, random } from "./random.ts";
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

const communityEdgeBetweenness: AlgorithmEntry = {
  library: "igraph",
  name: "community_edge_betweenness",
  params: {
    clusters: {
      type: "integer",
      nullable: true,
      min: 1,
      description: "cut the dendrogram at this many clusters (default: max modularity)",
    },
    directed: { type: "boolean", default: true, description: "directed betweenness on a directed graph" },
    weights: { type: "edgeColumn", nullable: true, description: "edge lengths for the shortest paths (a column of the edge table)" },
  },
  output: "nodes",
  backends: ["cpu"],
  doc: "membership of the Girvan-Newman dendrogram (highest-betweenness edge removed, recomputed) cut at its maximum modularity, or at `clusters`; with weights python-igraph 0.10 has no modularity and cuts at 1 cluster",
  run(graph, params, ctx, label) {
    const weights = weightsOf(params.weights);
    if (weights && weights.length > 0) {
      let min = Number.POSITIVE_INFINITY;
      for (let e = 0; e < weights.length; e++) min = Math.min(min, weights[e] as number);
      if (!(min > 0))
        throw new ComputeInputError("igraph refuses edge betweenness communities: weights must be strictly positive", "weights");
    }
    const directed = params.directed !== false;
    const clusters = typeof params.clusters === "number" ? params.clusters : null;
    if (clusters !== null && clusters > graph.n) {
      throw new ComputeInputError(`igraph refuses this cut: ${clusters} clusters of ${graph.n} vertices`, "clusters");
    }
    const removed = removalOrder(graph, directed, weights, ctx);
    const { merges, q } = ebMerges(graph, removed, directed, weights === null);
    const count = clusters ?? (q ? optimalCount(q) : 1);
    return membershipColumn(label, cutDendrogram(graph.n, merges, count));
  },
};

const communityInfomap: AlgorithmEntry = {
  library: "igraph",
  name: "community_infomap",
  params: {
    edge_weights: { type: "edgeColumn", nullable: true, description: "edge weights (a column of the edge table)" },
    vertex_weights: { type: "nodeColumn", nullable: true, description: "node teleportation weights (a column of the node table)" },
    trials: { type: "integer", default: 10, min: 1, description: "partitions tried; the shortest code length wins" },
  },
  output: "nodes",
  backends: ["cpu"],
  doc: "membership of the two-level map equation's partition (Rosvall & Bergstrom, igraph's infomap), best of `trials`, seeded",
  run(graph, params, ctx, label) {
    const flow = FlowGraph.fromGraph(graph, weightsOf(params.edge_weights), weightsOf(params.vertex_weights));
    const trials = Number(params.trials ?? 10);
    const { membership } = infomap(flow, trials, random(DEFAULT_SEED), ctx);
    return membershipColumn(label, firstAppearance(membership));
  },
};

export const entries: AlgorithmEntry[] = [communityWalktrap, communityEdgeBetweenness, communityInfomap];
