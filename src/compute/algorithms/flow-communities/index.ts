// The flow-communities algorithms of spec 2.9 (walktrap, edge betweenness, infomap, spinglass), as registry entries.
import type { ComputeGraph } from "../../../../kernels/cpu/csr.ts";
import { type AlgorithmEntry, ComputeInputError } from "../../types.ts";
import { cutDendrogram, firstAppearance, optimalCount } from "./dendrogram.ts";
import { ebMerges, removalOrder } from "./edge-betweenness.ts";
import { infomap } from "./infomap.ts";
import { FlowGraph } from "./infomap-flow.ts";
import { DEFAULT_SEED, random } from "./random.ts";
import { spinglass, spinNet } from "./spinglass.ts";
import { spinglassNeg } from "./spinglass-neg.ts";
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

/** Whether every node reaches every other with edges read both ways (igraph_is_connected, weak). */
function weaklyConnected(graph: ComputeGraph): boolean {
  const { n, src, dst } = graph;
  if (n === 0) return false;
  const parent = new Int32Array(n);
  for (let i = 0; i < n; i++) parent[i] = i;
  const find = (x: number): number => {
    while ((parent[x] as number) !== x) {
      parent[x] = parent[parent[x] as number] as number;
      x = parent[x] as number;
    }
    return x;
  };
  let parts = n;
  for (let e = 0; e < src.length; e++) {
    const a = find(src[e] as number);
    const b = find(dst[e] as number);
    if (a !== b) {
      parent[a] = b;
      parts--;
    }
  }
  return parts === 1;
}

const communitySpinglass: AlgorithmEntry = {
  library: "igraph",
  name: "community_spinglass",
  params: {
    weights: { type: "edgeColumn", nullable: true, description: "edge weights (a column of the edge table)" },
    spins: { type: "integer", default: 25, description: "number of spin states: the most communities" },
    parupdate: { type: "boolean", default: false, description: "update all spins at once (synchronously)" },
    start_temp: { type: "number", default: 1 },
    stop_temp: { type: "number", default: 0.01 },
    cool_fact: { type: "number", default: 0.99, description: "cooling factor of the annealing, in [0, 1)" },
    update_rule: {
      type: "enum",
      values: ["config", "simple"],
      default: "config",
      description: "null model: same degrees, or same edge count",
    },
    gamma: { type: "number", default: 1, description: "weight of missing against present edges" },
    implementation: {
      type: "enum",
      values: ["orig", "neg"],
      default: "orig",
      description: "'orig' (Reichardt & Bornholdt) or 'neg' (Traag & Bruggeman: negative weights repel)",
    },
    lambda_: { type: "number", default: 1, description: "weight of the negative links' null model ('neg' only; 'orig' ignores it)" },
  },
  output: "nodes",
  backends: ["cpu"],
  doc: "membership of Reichardt & Bornholdt's spinglass (simulated annealing of a Potts model), seeded; refuses disconnected graphs as igraph does",
  run(graph, params, ctx, label) {
    const spins = Number(params.spins ?? 25);
    const startTemp = Number(params.start_temp ?? 1);
    const stopTemp = Number(params.stop_temp ?? 0.01);
    const coolFact = Number(params.cool_fact ?? 0.99);
    const gamma = Number(params.gamma ?? 1);
    if (spins < 2) throw new ComputeInputError("igraph refuses spinglass: number of spins must be at least 2", "spins");
    if (coolFact < 0 || coolFact >= 1) throw new ComputeInputError("igraph refuses spinglass: invalid cooling factor", "cool_fact");
    if (gamma < 0) throw new ComputeInputError("igraph refuses spinglass: invalid gamma value", "gamma");
    if (startTemp / stopTemp < 1) {
      throw new ComputeInputError("igraph refuses spinglass: start_temp should be larger in absolute value than stop_temp", "start_temp");
    }
    const neg = params.implementation === "neg";
    if (neg && params.parupdate === true) {
      throw new ComputeInputError("igraph refuses spinglass: parallel spin update not implemented with negative gamma", "parupdate");
    }
    if (graph.n < 2) return membershipColumn(label, new Int32Array(graph.n));
    if (!weaklyConnected(graph)) throw new ComputeInputError("igraph refuses spinglass: cannot work with unconnected graph");
    const net = spinNet(graph.n, graph.src, graph.dst, weightsOf(params.weights));
    if (neg) {
      const lambda = Number(params.lambda_ ?? 1);
      const options = { spins, startTemp, stopTemp, coolFact, gamma, lambda, directed: graph.directed };
      return membershipColumn(label, firstAppearance(spinglassNeg(net, options, random(DEFAULT_SEED), ctx)));
    }
    const spin = spinglass(
      net,
      { spins, parupdate: params.parupdate === true, startTemp, stopTemp, coolFact, config: params.update_rule !== "simple", gamma },
      random(DEFAULT_SEED),
      ctx,
    );
    return membershipColumn(label, firstAppearance(spin));
  },
};

export const entries: AlgorithmEntry[] = [communityWalktrap, communityEdgeBetweenness, communityInfomap, communitySpinglass];
