// cuGraph's modularity community algorithms, as cugraph.<alg>(G, **params) answers them (partition / cluster
// renamed to the label); cuGraph weighs by the bound edge weight.
import { spmv } from "../../../../kernels/cpu/spmv.ts";
import type { AlgorithmEntry } from "../../types.ts";
import { ecg } from "./ecg.ts";
import { checkWeights, splitUndirected, weightedUndirected } from "./graph.ts";
import { leiden } from "./leiden.ts";
import { louvain } from "./louvain.ts";
import { membershipOutput, num } from "./output.ts";
import { DEFAULT_SEED } from "./rng.ts";
import { csrOperator, spectralClustering, viewOperator } from "./spectral.ts";

const spectralParams = {
  num_clusters: { type: "integer", required: true, min: 1, description: "clusters wanted" },
  num_eigen_vects: { type: "integer", default: 2, min: 1, description: "eigenvectors in the embedding" },
  evs_tolerance: { type: "number", default: 0.00001, min: 0, exclusive: true, description: "eigensolver residual tolerance" },
  evs_max_iter: { type: "integer", default: 100, min: 1, description: "eigensolver restarts at most" },
  kmean_tolerance: { type: "number", default: 0.00001, min: 0, description: "k-means relative inertia tolerance" },
  kmean_max_iter: { type: "integer", default: 100, min: 1, description: "k-means iterations at most" },
} as const;

function spectralEntry(name: string, kind: "modularity" | "balanced", doc: string): AlgorithmEntry {
  return {
    library: "cugraph",
    name,
    params: spectralParams,
    output: "nodes",
    backends: ["cpu", "opencl"],
    doc,
    run: (graph, params, ctx, label) => {
      checkWeights(graph.weight, graph.m, "edge_weight");
      // On the CPU the products read the CSR itself (no undirected view); OpenCL's spmv kernel reads the view.
      const g =
        ctx.kernel("spmv", spmv) === spmv ? csrOperator(graph, graph.weight) : viewOperator(weightedUndirected(graph, graph.weight), ctx);
      const membership = spectralClustering(
        g,
        kind,
        {
          clusters: num(params, "num_clusters", 2),
          eigenVectors: num(params, "num_eigen_vects", 2),
          evsTolerance: num(params, "evs_tolerance", 1e-5),
          evsMaxIter: num(params, "evs_max_iter", 100),
          kmeansTolerance: num(params, "kmean_tolerance", 1e-5),
          kmeansMaxIter: num(params, "kmean_max_iter", 100),
          seed: DEFAULT_SEED,
        },
        ctx,
      );
      return membershipOutput(label, membership);
    },
  };
}

export const cugraphEntries: AlgorithmEntry[] = [
  {
    library: "cugraph",
    name: "louvain",
    params: {
      max_level: { type: "integer", nullable: true, min: 1, description: "levels at most (cuGraph's older name for max_iter)" },
      max_iter: { type: "integer", default: 100, min: 1, description: "levels at most" },
      resolution: { type: "number", default: 1, min: 0, description: "modularity resolution γ" },
      threshold: { type: "number", default: 1e-7, min: 0, description: "a level gaining less modularity ends the run" },
    },
    output: "nodes",
    backends: ["cpu"],
    undirectedOnly: true,
    doc: "partition: the Louvain clustering's community of each node",
    run: (graph, params, ctx, label) => {
      checkWeights(graph.weight, graph.m, "edge_weight");
      const g = splitUndirected(graph, graph.weight);
      const maxLevels = typeof params.max_level === "number" ? params.max_level : num(params, "max_iter", 100);
      const res = louvain(
        g,
        { resolution: num(params, "resolution", 1), maxLevels, threshold: num(params, "threshold", 1e-7), seed: DEFAULT_SEED },
        ctx,
      );
      return membershipOutput(label, res.membership);
    },
  },
  {
    library: "cugraph",
    name: "leiden",
    params: {
      max_iter: { type: "integer", default: 100, min: 1, description: "levels at most" },
      resolution: { type: "number", default: 1, min: 0, description: "modularity resolution γ" },
      random_state: { type: "integer", nullable: true, description: "seed of the refinement's random choices" },
      theta: { type: "number", default: 1, min: 0, description: "randomness of the refinement (in modularity units)" },
    },
    output: "nodes",
    backends: ["cpu"],
    undirectedOnly: true,
    doc: "partition: the Leiden clustering (modularity) of each node",
    run: (graph, params, ctx, label) => {
      checkWeights(graph.weight, graph.m, "edge_weight");
      const g = splitUndirected(graph, graph.weight);
      const gamma = g.total > 0 ? num(params, "resolution", 1) / g.total : 0;
      // cuGraph's gains are modularity changes (2·gain/2m): theta is their temperature.
      const beta = (num(params, "theta", 1) * g.total) / 2;
      const membership = leiden(
        g,
        {
          gamma,
          nodeWeight: g.strength,
          beta,
          // Two runs of the algorithm, as igraph runs Leiden by default (n_iterations=2).
          iterations: 2,
          maxLevels: num(params, "max_iter", 100),
          initial: null,
          seed: num(params, "random_state", DEFAULT_SEED),
        },
        ctx,
      );
      return membershipOutput(label, membership);
    },
  },

  {
    library: "cugraph",
    name: "ecg",
    params: {
      min_weight: { type: "number", default: 0.05, min: 0, max: 1, description: "the weight floor of every edge" },
      ensemble_size: { type: "integer", default: 16, min: 1, description: "single-level Louvain runs that vote" },
      random_state: { type: "integer", nullable: true, description: "seed of the ensemble's node orders" },
    },
    output: "nodes",
    backends: ["cpu"],
    undirectedOnly: true,
    doc: "partition: the ensemble clustering (Louvain on co-membership weights) of each node",
    run: (graph, params, ctx, label) => {
      checkWeights(graph.weight, graph.m, "edge_weight");
      const g = splitUndirected(graph, graph.weight);
      const membership = ecg(
        g,
        {
          minWeight: num(params, "min_weight", 0.05),
          ensembleSize: num(params, "ensemble_size", 16),
          seed: num(params, "random_state", DEFAULT_SEED),
          resolution: 1,
        },
        ctx,
      );
      return membershipOutput(label, membership);
    },
  },
  spectralEntry(
    "spectralBalancedCutClustering",
    "balanced",
    "cluster: k-means on the leading eigenvectors of D^-1/2 A D^-1/2 (balanced cut), edge direction ignored",
  ),
  spectralEntry(
    "spectralModularityMaximizationClustering",
    "modularity",
    "cluster: k-means on the leading eigenvectors of the modularity matrix, edge direction ignored",
  ),
];
