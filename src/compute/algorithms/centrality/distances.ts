// Distance-based centralities as python-igraph 0.10 computes them: closeness (over the nodes each node reaches),
// harmonic_centrality and eccentricity, with mode, cutoff, weights and normalized. Unweighted paths run the
// "path-stats" kernel; weighted ones a CPU Dijkstra.
import type { ComputeGraph } from "../../../../kernels/cpu/csr.ts";
import { type PathStatsArgs, type PathStatsResult, pathStats } from "../../../../kernels/cpu/path-stats.ts";
import type { AlgorithmEntry, ComputeContext, ParamSpec } from "../../types.ts";
import { adjacency, entryWeights, type Mode, modeParam, readMode, requirePositive } from "./adjacency.ts";
import { overSources, type SourceKernel } from "./sources.ts";
import { type WeightedPathStatsArgs, weightedPathStats } from "./weighted-paths.ts";

/** Per node: the summary of the paths from it ("out"), to it ("in") or ignoring directions ("all"). */
function stats(ctx: ComputeContext, graph: ComputeGraph, mode: Mode, weights: Float64Array | null, cutoff: number): PathStatsResult {
  const { n } = graph;
  const adj = adjacency(graph, mode);
  const out: PathStatsResult = {
    sum: new Float64Array(n),
    reached: new Int32Array(n),
    harmonic: new Float64Array(n),
    farthest: new Float64Array(n),
  };
  const take = (part: PathStatsResult, offset: number) => {
    out.sum.set(part.sum, offset);
    out.reached.set(part.reached, offset);
    out.harmonic.set(part.harmonic, offset);
    out.farthest.set(part.farthest, offset);
  };
  const sources = new Int32Array(n);
  for (let i = 0; i < n; i++) sources[i] = i;
  const perSource = n + adj.nbr.length;
  if (weights) {
    const kernel: SourceKernel<WeightedPathStatsArgs, PathStatsResult> = {
      name: "weighted-path-stats",
      module: new URL("./weighted-paths.ts", import.meta.url),
      exportName: "weightedPathStats",
      local: weightedPathStats,
      base: { n, start: adj.start, nbr: adj.nbr, weight: entryWeights(adj, weights), cutoff },
      perSource: perSource * 4,
      cpuOnly: true,
    };
    overSources(ctx, "shortest paths", kernel, sources, take);
  } else {
    const kernel: SourceKernel<PathStatsArgs, PathStatsResult> = {
      name: "path-stats",
      module: new URL("../../../../kernels/cpu/path-stats.ts", import.meta.url),
      exportName: "pathStats",
      local: pathStats,
      base: { n, start: adj.start, nbr: adj.nbr, cutoff: cutoff < 0 ? -1 : Math.floor(cutoff) },
      perSource,
    };
    overSources(ctx, "shortest paths", kernel, sources, take);
  }
  return out;
}

function readCutoff(value: unknown): number {
  return value === null || value === undefined ? -1 : (value as number);
}

function readWeights(value: unknown): Float64Array | null {
  const weights = (value as Float64Array | null | undefined) ?? null;
  if (weights) requirePositive(weights, "weights");
  return weights;
}

const pathParams: Record<string, ParamSpec> = {
  mode: modeParam("all"),
  cutoff: { type: "number", nullable: true, default: null, description: "only paths at most this long (null or negative: all)" },
  weights: { type: "edgeColumn", nullable: true, default: null, description: "edge column of path lengths (positive)" },
  normalized: { type: "boolean", default: true, description: "normalize as igraph does" },
};

export const igraphCloseness: AlgorithmEntry = {
  library: "igraph",
  name: "closeness",
  params: pathParams,
  output: "nodes",
  backends: ["cpu", "opencl"],
  doc: "closeness per node over the nodes it reaches (float64; null when it reaches none)",
  run(graph, params, ctx, label) {
    const s = stats(ctx, graph, readMode(params.mode), readWeights(params.weights), readCutoff(params.cutoff));
    const values = new Float64Array(graph.n);
    const normalized = params.normalized !== false;
    for (let i = 0; i < graph.n; i++) {
      const others = (s.reached[i] as number) - 1;
      values[i] = others === 0 ? Number.NaN : (normalized ? others : 1) / (s.sum[i] as number);
    }
    return { kind: "nodes", columns: [{ name: label, values }] };
  },
};

export const igraphHarmonic: AlgorithmEntry = {
  library: "igraph",
  name: "harmonic_centrality",
  params: pathParams,
  output: "nodes",
  backends: ["cpu", "opencl"],
  doc: "harmonic centrality per node: the sum of 1 / distance, over n - 1 when normalized (float64)",
  run(graph, params, ctx, label) {
    const s = stats(ctx, graph, readMode(params.mode), readWeights(params.weights), readCutoff(params.cutoff));
    const values = s.harmonic;
    if (params.normalized !== false && graph.n > 1) for (let i = 0; i < graph.n; i++) values[i] = (values[i] as number) / (graph.n - 1);
    return { kind: "nodes", columns: [{ name: label, values }] };
  },
};

export const igraphEccentricity: AlgorithmEntry = {
  library: "igraph",
  name: "eccentricity",
  // python-igraph 0.10.2 defaults eccentricity's mode to "out" (its docstring says "all"; the binding reads OUT).
  params: { mode: modeParam("out") },
  output: "nodes",
  backends: ["cpu", "opencl"],
  doc: "eccentricity per node: the largest hop distance to a node it reaches (float64; 0 when it reaches none)",
  run(graph, params, ctx, label) {
    const s = stats(ctx, graph, readMode(params.mode), null, -1);
    return { kind: "nodes", columns: [{ name: label, values: s.farthest }] };
  },
};
