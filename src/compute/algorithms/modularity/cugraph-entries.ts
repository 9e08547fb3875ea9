// cuGraph's modularity community algorithms, as cugraph.<alg>(G, **params) answers them (partition / cluster
// renamed to the label); cuGraph weighs by the bound edge weight.
import type { AlgorithmEntry } from "../../types.ts";
import { checkWeights, weightedUndirected } from "./graph.ts";
import { leiden } from "./leiden.ts";
import { louvain } from "./louvain.ts";
import { membershipOutput, num } from "./output.ts";
import { DEFAULT_SEED } from "./rng.ts";

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
      const g = weightedUndirected(graph, graph.weight);
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
      const g = weightedUndirected(graph, graph.weight);
      const gamma = g.total > 0 ? num(params, "resolution", 1) / g.total : 0;
      // cuGraph's gains are modularity changes (2·gain/2m): theta is their temperature.
      const beta = (num(params, "theta", 1) * g.total) / 2;
      const membership = leiden(
        g,
        {
          gamma,
          nodeWeight: g.strength,
          beta,
          iterations: -1,
          maxLevels: num(params, "max_iter", 100),
          initial: null,
          seed: num(params, "random_state", DEFAULT_SEED),
        },
        ctx,
      );
      return membershipOutput(label, membership);
    },
  },
];
