// igraph's modularity community algorithms, as python-igraph 0.10's Graph.community_<alg>(**params) answers them.
import type { AlgorithmEntry } from "../../types.ts";
import { ComputeInputError } from "../../types.ts";
import { checkWeights, renumber, weightedUndirected } from "./graph.ts";
import { leiden } from "./leiden.ts";
import { louvain } from "./louvain.ts";
import { edgeValues, membershipOutput, nodeLabels, num } from "./output.ts";
import { DEFAULT_SEED } from "./rng.ts";

const weightsParam = { type: "edgeColumn", nullable: true, description: "edge weights (a column); absent: unweighted" } as const;

export const igraphEntries: AlgorithmEntry[] = [
  {
    library: "igraph",
    name: "community_multilevel",
    params: {
      weights: weightsParam,
      return_levels: { type: "boolean", default: false, description: "only false: pygraphistry stores one clustering" },
      resolution: { type: "number", default: 1, min: 0, description: "modularity resolution γ" },
    },
    output: "nodes",
    backends: ["cpu"],
    undirectedOnly: true,
    doc: "membership of the multilevel (Louvain) clustering of the best level",
    run: (graph, params, ctx, label) => {
      if (params.return_levels === true)
        throw new ComputeInputError("return_levels=True answers a list of clusterings, which no node column can hold", "return_levels");
      const weights = edgeValues(params, "weights");
      checkWeights(weights, graph.m, "weights");
      const g = weightedUndirected(graph, weights);
      const res = louvain(g, { resolution: num(params, "resolution", 1), maxLevels: 1000, threshold: 1e-10, seed: DEFAULT_SEED }, ctx);
      return membershipOutput(label, res.membership);
    },
  },
  {
    library: "igraph",
    name: "community_leiden",
    params: {
      objective_function: { type: "enum", values: ["CPM", "modularity", "cpm"], default: "CPM", description: "the quality optimised" },
      weights: weightsParam,
      resolution_parameter: { type: "number", default: 1, min: 0, description: "resolution γ" },
      resolution: {
        type: "number",
        nullable: true,
        min: 0,
        description: "resolution γ (python-igraph 0.10.5's name); overrides resolution_parameter",
      },
      beta: { type: "number", default: 0.01, min: 0, description: "randomness of the refinement" },
      initial_membership: { type: "nodeColumn", nullable: true, description: "a node column of starting cluster ids" },
      n_iterations: { type: "integer", default: 2, description: "runs of the algorithm; negative: until stable" },
      node_weights: {
        type: "nodeColumn",
        nullable: true,
        description: "node weights (a column); absent: 1 (CPM) or strength (modularity)",
      },
    },
    output: "nodes",
    backends: ["cpu"],
    undirectedOnly: true,
    doc: "membership of the Leiden clustering (CPM by default, as igraph)",
    run: (graph, params, ctx, label) => {
      const weights = edgeValues(params, "weights");
      checkWeights(weights, graph.m, "weights");
      const g = weightedUndirected(graph, weights);
      const modularityObjective = params.objective_function === "modularity";
      let nodeWeight = edgeValues(params, "node_weights");
      if (nodeWeight && nodeWeight.length !== g.n) throw new ComputeInputError("node_weights must give one value per node", "node_weights");
      if (!nodeWeight) nodeWeight = modularityObjective ? g.strength : new Float64Array(g.n).fill(1);
      let gamma = typeof params.resolution === "number" ? params.resolution : num(params, "resolution_parameter", 1);
      if (modularityObjective) {
        let sum = 0;
        for (let v = 0; v < g.n; v++) sum += nodeWeight[v] as number;
        gamma = sum > 0 ? gamma / sum : 0;
      }
      const initial = nodeLabels(params, "initial_membership", g.n);
      if (initial)
        for (let v = 0; v < g.n; v++)
          if ((initial[v] as number) < 0) throw new ComputeInputError("initial_membership must not be negative", "initial_membership");
      const membership = leiden(
        g,
        {
          gamma,
          nodeWeight,
          beta: num(params, "beta", 0.01),
          iterations: num(params, "n_iterations", 2),
          maxLevels: 1000,
          initial,
          seed: DEFAULT_SEED,
        },
        ctx,
      );
      renumber(membership);
      return membershipOutput(label, membership);
    },
  },
];
