// Betweenness: igraph's Graph.betweenness (directed, cutoff, weights) and cuGraph's betweenness_centrality and
// edge_betweenness_centrality (k sampled pivots with seed, normalized, endpoints, weight), scaled as networkx
// scales them. Unweighted paths run the "brandes" kernel; weighted ones a CPU Dijkstra.
import { type BrandesArgs, type BrandesResult, brandes } from "../../../../kernels/cpu/brandes.ts";
import type { ComputeGraph } from "../../../../kernels/cpu/csr.ts";
import { type AlgorithmEntry, type ComputeContext, ComputeInputError } from "../../types.ts";
import { adjacency, entryWeights, requirePositive, simpleAdjacency } from "./adjacency.ts";
import { overSources, pickSources, type SourceKernel, summed } from "./sources.ts";
import { type WeightedBrandesArgs, weightedBrandes } from "./weighted-brandes.ts";

type Lists = { start: Int32Array; nbr: Int32Array; link: Int32Array | null; links: number; weight: Float64Array | null };

/** Sums dependencies from `sources` over `lists`: the brandes kernel, or Dijkstra when weighted. */
function accumulate(
  ctx: ComputeContext,
  n: number,
  lists: Lists,
  sources: Int32Array,
  options: { cutoff: number; endpoints: boolean },
): { node: Float64Array; edge: Float64Array } {
  const links = lists.link ? lists.links : 0;
  const sums = summed(n, links);
  const common = { n, start: lists.start, nbr: lists.nbr, link: lists.link, links: lists.links, endpoints: options.endpoints };
  const perSource = n + lists.nbr.length;
  if (lists.weight) {
    const kernel: SourceKernel<WeightedBrandesArgs, BrandesResult> = {
      name: "weighted-brandes",
      module: new URL("./weighted-brandes.ts", import.meta.url),
      exportName: "weightedBrandes",
      local: weightedBrandes,
      base: { ...common, weight: lists.weight, cutoff: options.cutoff },
      perSource: perSource * 4,
      cpuOnly: true,
    };
    overSources(ctx, "betweenness", kernel, sources, sums.take);
  } else {
    const kernel: SourceKernel<BrandesArgs, BrandesResult> = {
      name: "brandes",
      module: new URL("../../../../kernels/cpu/brandes.ts", import.meta.url),
      exportName: "brandes",
      local: brandes,
      base: { ...common, cutoff: options.cutoff < 0 ? -1 : Math.floor(options.cutoff) },
      perSource,
    };
    overSources(ctx, "betweenness", kernel, sources, sums.take);
  }
  return { node: sums.node, edge: sums.edge };
}

export const igraphBetweenness: AlgorithmEntry = {
  library: "igraph",
  name: "betweenness",
  params: {
    directed: { type: "boolean", default: true, description: "follow edge directions (on a directed graph)" },
    cutoff: { type: "number", nullable: true, default: null, description: "only paths at most this long (null or negative: all)" },
    weights: { type: "edgeColumn", nullable: true, default: null, description: "edge column of path lengths (positive)" },
  },
  output: "nodes",
  backends: ["cpu", "opencl"],
  doc: "betweenness per node (float64, unnormalized; undirected paths counted once); parallel edges are distinct paths",
  run(graph, params, ctx, label) {
    const { n } = graph;
    const directed = params.directed !== false && graph.directed;
    const weights = (params.weights as Float64Array | null | undefined) ?? null;
    if (weights) requirePositive(weights, "weights");
    const adj = adjacency(graph, directed ? "out" : "all");
    const lists: Lists = { start: adj.start, nbr: adj.nbr, link: null, links: 0, weight: weights ? entryWeights(adj, weights) : null };
    const cutoff = params.cutoff === null || params.cutoff === undefined ? -1 : (params.cutoff as number);
    const { node } = accumulate(ctx, n, lists, pickSources(n, null, null), { cutoff, endpoints: false });
    if (!directed) for (let i = 0; i < n; i++) node[i] = (node[i] as number) / 2;
    return { kind: "nodes", columns: [{ name: label, values: node }] };
  },
};

/** networkx's simple-graph reading of the (multi)graph, weighted by the bound weight when `weight` is named. */
function nxLists(graph: ComputeGraph, weighted: boolean, withEdges: boolean): { lists: Lists; groups: ReturnType<typeof simpleAdjacency> } {
  if (weighted && !graph.weight) throw new ComputeInputError("weight needs a bound edge weight column", "weight");
  const weights = weighted ? graph.weight : null;
  if (weights) requirePositive(weights, "weight");
  const simple = simpleAdjacency(graph, weights);
  return {
    lists: { start: simple.start, nbr: simple.nbr, link: withEdges ? simple.group : null, links: simple.groups, weight: simple.weight },
    groups: simple,
  };
}

const cugraphParams = {
  k: { type: "integer", nullable: true, default: null, min: 1, description: "sample this many source nodes (null: all)" },
  normalized: { type: "boolean", default: true, description: "scale as networkx normalizes" },
  weight: { type: "string", nullable: true, default: null, description: "non-null: weigh paths by the bound edge weight" },
  seed: { type: "integer", nullable: true, default: null, description: "seed of the k-node sample" },
} as const;

export const cugraphBetweenness: AlgorithmEntry = {
  library: "cugraph",
  name: "betweenness_centrality",
  params: { ...cugraphParams, endpoints: { type: "boolean", default: false, description: "count path endpoints" } },
  output: "nodes",
  backends: ["cpu", "opencl"],
  doc: "betweenness per node (float64), scaled as networkx's betweenness_centrality; k sampled sources estimate it",
  run(graph, params, ctx, label) {
    const { n } = graph;
    const k = (params.k as number | null | undefined) ?? null;
    const endpoints = params.endpoints === true;
    const { lists } = nxLists(graph, params.weight !== null && params.weight !== undefined, false);
    const { node } = accumulate(ctx, n, lists, pickSources(n, k, params.seed as number | null), { cutoff: -1, endpoints });
    let scale: number | null;
    if (params.normalized !== false) {
      if (endpoints) scale = n < 2 ? null : 1 / (n * (n - 1));
      else scale = n <= 2 ? null : 1 / ((n - 1) * (n - 2));
    } else scale = graph.directed ? null : 0.5;
    if (scale !== null) {
      if (k !== null) scale = (scale * n) / k;
      for (let i = 0; i < n; i++) node[i] = (node[i] as number) * scale;
    }
    return { kind: "nodes", columns: [{ name: label, values: node }] };
  },
};

export const cugraphEdgeBetweenness: AlgorithmEntry = {
  library: "cugraph",
  name: "edge_betweenness_centrality",
  params: cugraphParams,
  output: "edges",
  backends: ["cpu", "opencl"],
  doc: "betweenness per edge (float64), as networkx's edge_betweenness_centrality: parallel edges share their pair's value, self-loops 0",
  run(graph, params, ctx, label) {
    const { n } = graph;
    const k = (params.k as number | null | undefined) ?? null;
    const { lists, groups } = nxLists(graph, params.weight !== null && params.weight !== undefined, true);
    const { edge: byGroup } = accumulate(ctx, n, lists, pickSources(n, k, params.seed as number | null), { cutoff: -1, endpoints: false });
    // networkx 2.8 scales edge scores without the n / k factor of sampling.
    let scale: number | null;
    if (params.normalized !== false) scale = n <= 1 ? null : 1 / (n * (n - 1));
    else scale = graph.directed ? null : 0.5;
    const values = new Float64Array(graph.m);
    const weights = lists.weight ? graph.weight : null;
    for (let g = 0; g < groups.groups; g++) {
      const from = groups.memberStart[g] as number;
      const to = groups.memberStart[g + 1] as number;
      // The pair's score is split among its parallel edges of the smallest weight (all of them when unweighted).
      let least = Number.POSITIVE_INFINITY;
      if (weights) for (let i = from; i < to; i++) least = Math.min(least, weights[groups.members[i] as number] as number);
      let count = 0;
      for (let i = from; i < to; i++) if (!weights || weights[groups.members[i] as number] === least) count++;
      const share = ((byGroup[g] as number) * (scale ?? 1)) / count;
      for (let i = from; i < to; i++) {
        const e = groups.members[i] as number;
        if (!weights || weights[e] === least) values[e] = share;
      }
    }
    return { kind: "edges", columns: [{ name: label, values }] };
  },
};
