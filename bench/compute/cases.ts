// bench/compute: how each registered algorithm is benchmarked: on which graph, read directed or not, with which
// parameters (the library's own names), and the python-igraph call and graphology op that do the same work.

/** A bench-time value: the BFS/SSSP source (`hub`), the edge weights, ten seed rows, the sampled-pivot count. */
export type BenchRef = { bench: "hub" | "weight" | "seeds" | "pivots" };
export type ParamValue = number | string | boolean | BenchRef;

/**
 * Graph tiers: `big` runs at every --edges size, `first` at the smallest only (slow but near-linear work),
 * `medium` on the medium graph (all-pairs work: exact betweenness, closeness, ...), `small` on the small graph
 * (its largest component; cubic work or n x n output).
 */
export type Tier = "big" | "first" | "medium" | "small";

export type Case = {
  /** library/name in the registry. */
  key: string;
  /** Shown instead of the key (a variant such as sampled betweenness). */
  title?: string;
  tier: Tier;
  /** pygraphistry's `directed`: how the graph is built before the call. */
  directed: boolean;
  /** Binds the edge weight (cuGraph weighs by the bound column). */
  weighted?: boolean;
  params?: Record<string, ParamValue>;
  /** python-igraph expression over g, E (edge list), hub, seeds; timed alone. */
  igraph?: string;
  /** graphology op in graphology-server.ts. */
  graphology?: string;
  /** Clusterings report modularity. */
  clustering?: boolean;
  note?: string;
};

const hub: BenchRef = { bench: "hub" };

const maxCore = "(lambda c: (lambda k: g.induced_subgraph([i for i, x in enumerate(c) if x >= k]))(max(c)))(g.coreness())";

export const CASES: Case[] = [
  // Iterative, linear per iteration: every size.
  {
    key: "igraph/pagerank",
    tier: "big",
    directed: true,
    params: { damping: 0.85 },
    igraph: "g.pagerank(damping=0.85)",
    graphology: "pagerank",
  },
  { key: "cugraph/pagerank", tier: "big", directed: true, igraph: "g.pagerank(damping=0.85)", graphology: "pagerank" },
  {
    key: "cugraph/hits",
    tier: "big",
    directed: true,
    igraph: "g.hub_score()",
    graphology: "hits",
    note: "igraph: hub_score (one call computes both)",
  },
  { key: "igraph/hub_score", tier: "big", directed: true, igraph: "g.hub_score()", graphology: "hits" },
  { key: "igraph/authority_score", tier: "big", directed: true, igraph: "g.authority_score()", graphology: "hits" },
  { key: "cugraph/katz_centrality", tier: "big", directed: true },
  { key: "igraph/eigenvector_centrality", tier: "big", directed: false, igraph: "g.eigenvector_centrality()", graphology: "eigenvector" },
  // Traversals and components.
  {
    key: "cugraph/connected_components",
    tier: "big",
    directed: true,
    igraph: "g.connected_components(mode='weak')",
    graphology: "components",
  },
  {
    key: "cugraph/weakly_connected_components",
    tier: "big",
    directed: true,
    igraph: "g.connected_components(mode='weak')",
    graphology: "components",
  },
  {
    key: "cugraph/strongly_connected_components",
    tier: "big",
    directed: true,
    igraph: "g.connected_components(mode='strong')",
    graphology: "scc",
  },
  { key: "igraph/clusters", tier: "big", directed: true, igraph: "g.clusters()", graphology: "scc", note: "strong, igraph's default mode" },
  { key: "cugraph/core_number", tier: "big", directed: false, igraph: "g.coreness()" },
  { key: "cugraph/k_core", tier: "big", directed: false, igraph: maxCore, note: "the max-k core subgraph" },
  { key: "igraph/k_core", tier: "big", directed: false, params: { k: 3 }, igraph: "g.k_core(3)" },
  { key: "cugraph/bfs", tier: "big", directed: true, params: { start: hub }, igraph: "g.bfs(hub)", graphology: "bfs" },
  { key: "cugraph/bfs_edges", tier: "big", directed: true, params: { source: hub }, igraph: "g.bfs(hub)", graphology: "bfs" },
  {
    key: "cugraph/sssp",
    tier: "big",
    directed: true,
    weighted: true,
    params: { source: hub },
    igraph: "g.distances(source=hub, weights='weight')",
    graphology: "dijkstra",
  },
  {
    key: "cugraph/shortest_path",
    tier: "big",
    directed: true,
    weighted: true,
    params: { source: hub },
    igraph: "g.distances(source=hub, weights='weight')",
    graphology: "dijkstra",
  },
  {
    key: "cugraph/shortest_path_length",
    tier: "big",
    directed: true,
    weighted: true,
    params: { source: hub },
    igraph: "g.distances(source=hub, weights='weight')",
    graphology: "dijkstra",
  },
  {
    key: "cugraph/ego_graph",
    tier: "big",
    directed: true,
    params: { n: hub, radius: 1 },
    igraph: "g.induced_subgraph(g.neighborhood(hub, order=1, mode='out'))",
  },
  {
    key: "cugraph/batched_ego_graphs",
    tier: "big",
    directed: true,
    params: { seeds: { bench: "seeds" }, radius: 1 },
    igraph: "[g.induced_subgraph(s) for s in g.neighborhood(seeds, order=1, mode='out')]",
  },
  { key: "cugraph/minimum_spanning_tree", tier: "big", directed: false, weighted: true, igraph: "g.spanning_tree(weights='weight')" },
  { key: "igraph/spanning_tree", tier: "big", directed: false, igraph: "g.spanning_tree()" },
  // Per-edge neighbourhood similarity (work grows with the degrees' squares: hubs dominate).
  { key: "cugraph/jaccard", tier: "big", directed: false, igraph: "g.similarity_jaccard(pairs=E)" },
  { key: "cugraph/jaccard_w", tier: "big", directed: false, weighted: true },
  { key: "cugraph/overlap", tier: "big", directed: false },
  { key: "cugraph/overlap_coefficient", tier: "big", directed: false },
  { key: "cugraph/overlap_w", tier: "big", directed: false, weighted: true },
  { key: "cugraph/sorensen", tier: "big", directed: false, igraph: "g.similarity_dice(pairs=E)" },
  { key: "cugraph/sorensen_coefficient", tier: "big", directed: false, igraph: "g.similarity_dice(pairs=E)" },
  { key: "cugraph/sorensen_w", tier: "big", directed: false, weighted: true },
  // Modularity communities.
  { key: "cugraph/louvain", tier: "big", directed: false, igraph: "g.community_multilevel()", graphology: "louvain", clustering: true },
  {
    key: "igraph/community_multilevel",
    tier: "big",
    directed: false,
    igraph: "g.community_multilevel()",
    graphology: "louvain",
    clustering: true,
  },
  {
    key: "cugraph/leiden",
    tier: "big",
    directed: false,
    igraph: "g.community_leiden(objective_function='modularity', n_iterations=-1)",
    clustering: true,
  },
  {
    key: "igraph/community_leiden",
    tier: "big",
    directed: false,
    params: { objective_function: "modularity" },
    igraph: "g.community_leiden(objective_function='modularity')",
    clustering: true,
  },
  { key: "cugraph/ecg", tier: "first", directed: false, clustering: true },
  { key: "igraph/community_label_propagation", tier: "big", directed: false, igraph: "g.community_label_propagation()", clustering: true },
  {
    key: "igraph/community_fastgreedy",
    tier: "medium",
    directed: false,
    igraph: "g.community_fastgreedy().as_clustering()",
    clustering: true,
  },
  { key: "cugraph/spectralBalancedCutClustering", tier: "first", directed: false, params: { num_clusters: 10 }, clustering: true },
  {
    key: "cugraph/spectralModularityMaximizationClustering",
    tier: "first",
    directed: false,
    params: { num_clusters: 10 },
    clustering: true,
  },
  { key: "igraph/constraint", tier: "first", directed: false, igraph: "g.constraint()" },
  // All-pairs work: the medium graph.
  { key: "igraph/betweenness", tier: "medium", directed: false, igraph: "g.betweenness()", graphology: "betweenness" },
  { key: "cugraph/betweenness_centrality", tier: "medium", directed: false, igraph: "g.betweenness()", graphology: "betweenness" },
  {
    key: "cugraph/betweenness_centrality",
    title: "cugraph/betweenness_centrality k",
    tier: "medium",
    directed: false,
    params: { k: { bench: "pivots" }, seed: 42 },
    note: "sampled: k pivots",
  },
  {
    key: "cugraph/edge_betweenness_centrality",
    tier: "medium",
    directed: false,
    igraph: "g.edge_betweenness()",
    graphology: "edgeBetweenness",
  },
  { key: "igraph/closeness", tier: "medium", directed: false, igraph: "g.closeness()", graphology: "closeness" },
  { key: "igraph/harmonic_centrality", tier: "medium", directed: false, igraph: "g.harmonic_centrality()" },
  { key: "igraph/eccentricity", tier: "medium", directed: false, igraph: "g.eccentricity()", graphology: "eccentricity" },
  { key: "igraph/community_infomap", tier: "medium", directed: false, igraph: "g.community_infomap()", clustering: true },
  { key: "igraph/community_walktrap", tier: "medium", directed: false, igraph: "g.community_walktrap().as_clustering()", clustering: true },
  {
    key: "igraph/community_leading_eigenvector",
    tier: "medium",
    directed: false,
    igraph: "g.community_leading_eigenvector()",
    clustering: true,
  },
  // Cubic work or n x n answers: the small graph.
  {
    key: "igraph/community_edge_betweenness",
    tier: "small",
    directed: false,
    igraph: "g.community_edge_betweenness().as_clustering()",
    clustering: true,
  },
  { key: "igraph/community_spinglass", tier: "small", directed: false, igraph: "g.community_spinglass()", clustering: true },
  { key: "igraph/gomory_hu_tree", tier: "small", directed: false, igraph: "g.gomory_hu_tree()" },
  { key: "igraph/bibcoupling", tier: "small", directed: true, igraph: "g.bibcoupling()" },
  { key: "igraph/cocitation", tier: "small", directed: true, igraph: "g.cocitation()" },
];
