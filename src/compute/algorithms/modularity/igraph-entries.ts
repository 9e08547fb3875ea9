// igraph's modularity community algorithms, as python-igraph 0.10's Graph.community_<alg>(**params) answers them.
import type { AlgorithmEntry } from "../../types.ts";
import { ComputeInputError } from "../../types.ts";
import { fastGreedy } from "./fastgreedy.ts";
import { checkWeights, renumber, splitUndirected, type WGraph, weightedUndirected } from "./graph.ts";
import { labelPropagation } from "./label-propagation.ts";
import { leadingEigenvector } from "./leading-eigenvector.ts";
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
      const g = splitUndirected(graph, weights);
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
      const g = splitUndirected(graph, weights);
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

  {
    library: "igraph",
    name: "community_fastgreedy",
    params: { weights: weightsParam },
    output: "nodes",
    backends: ["cpu"],
    undirectedOnly: true,
    doc: "membership of the greedy (Clauset-Newman-Moore) dendrogram cut at its best modularity",
    run: (graph, params, ctx, label) => {
      const weights = edgeValues(params, "weights");
      checkWeights(weights, graph.m, "weights");
      const g = weightedUndirected(graph, weights);
      if (hasMultiEdges(g))
        throw new ComputeInputError(
          "fast greedy community detection works only on graphs without multi-edges (an edge both ways counts twice when directed is false)",
        );
      return membershipOutput(label, fastGreedy(g, ctx));
    },
  },
  {
    library: "igraph",
    name: "community_label_propagation",
    params: {
      weights: weightsParam,
      initial: { type: "nodeColumn", nullable: true, description: "a node column of starting labels (negative: unlabelled)" },
      fixed: { type: "nodeColumn", nullable: true, description: "a node column, true where the initial label never changes" },
    },
    output: "nodes",
    backends: ["cpu"],
    doc: "membership by label propagation (edge direction ignored)",
    run: (graph, params, ctx, label) => {
      const weights = edgeValues(params, "weights");
      checkWeights(weights, graph.m, "weights");
      const g = weightedUndirected(graph, weights);
      const initial = nodeLabels(params, "initial", g.n);
      const fixedColumn = edgeValues(params, "fixed");
      let fixed: Uint8Array | null = null;
      if (fixedColumn) {
        if (fixedColumn.length !== g.n) throw new ComputeInputError("fixed must give one value per node", "fixed");
        fixed = new Uint8Array(g.n);
        for (let v = 0; v < g.n; v++) fixed[v] = fixedColumn[v] !== 0 ? 1 : 0;
      }
      return membershipOutput(label, labelPropagation(g, { initial, fixed, seed: DEFAULT_SEED, maxSweeps: 1000 }, ctx));
    },
  },
  {
    library: "igraph",
    name: "community_leading_eigenvector",
    params: {
      clusters: { type: "integer", nullable: true, min: 1, description: "communities at most; absent: as many as the method finds" },
      weights: weightsParam,
    },
    output: "nodes",
    backends: ["cpu"],
    doc: "membership by Newman's leading eigenvector splits (edge direction ignored)",
    run: (graph, params, ctx, label) => {
      const weights = edgeValues(params, "weights");
      checkWeights(weights, graph.m, "weights");
      const g = weightedUndirected(graph, weights);
      const steps = typeof params.clusters === "number" ? params.clusters - 1 : g.n - 1;
      return membershipOutput(label, leadingEigenvector(g, steps, DEFAULT_SEED, ctx));
    },
  },
];

/** Whether two edges join the same pair of nodes (igraph's fast greedy refuses such graphs). */
function hasMultiEdges(g: WGraph): boolean {
  const last = new Int32Array(g.n).fill(-1);
  for (let v = 0; v < g.n; v++)
    for (let j = g.start[v] as number; j < (g.start[v + 1] as number); j++) {
      const u = g.nbr[j] as number;
      if (last[u] === v) return true;
      last[u] = v;
    }
  return false;
}
