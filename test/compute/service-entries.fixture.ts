// Fixture algorithms the service suites register (COMPUTE_EXTRA_ALGORITHMS): small real computations of each output
// kind, checked against python-igraph, so the service is tested whatever the registry holds.
import { type ComputeGraph, undirected } from "../../kernels/cpu/csr.ts";
import { type AlgorithmEntry, ComputeInputError } from "../../src/compute/types.ts";

/** Sum of edge weights (1 each without `weights`) per node: igraph's strength(mode="out"), or "all" undirected. */
function strength(g: ComputeGraph, weights: Float64Array | undefined, loops: boolean): Float64Array {
  const out = new Float64Array(g.n);
  for (let e = 0; e < g.m; e++) {
    const s = g.src[e] as number;
    const d = g.dst[e] as number;
    if (s === d && !loops) continue;
    const w = weights ? (weights[e] as number) : 1;
    out[s] = (out[s] as number) + w;
    if (!g.directed) out[d] = (out[d] as number) + w;
  }
  return out;
}

/** Breadth-first distances from `source` (NaN unreachable) and each node's parent row (-1 none). */
function bfs(g: ComputeGraph, source: number): { dist: Float64Array; pred: Int32Array } {
  const dist = new Float64Array(g.n).fill(Number.NaN);
  const pred = new Int32Array(g.n).fill(-1);
  const queue = new Int32Array(g.n);
  const adj = g.directed ? { start: g.outStart, nbr: g.outDst } : undirected(g);
  dist[source] = 0;
  queue[0] = source;
  for (let head = 0, tail = 1; head < tail; head++) {
    const v = queue[head] as number;
    for (let j = adj.start[v] as number; j < (adj.start[v + 1] as number); j++) {
      const w = adj.nbr[j] as number;
      if (!Number.isNaN(dist[w] as number)) continue;
      dist[w] = (dist[v] as number) + 1;
      pred[w] = v;
      queue[tail++] = w;
    }
  }
  return { dist, pred };
}

export const entries: AlgorithmEntry[] = [
  {
    library: "igraph",
    name: "test_rounds",
    params: { rounds: { type: "integer", default: 3, min: 1 }, round_ms: { type: "number", default: 1, min: 0 } },
    output: "nodes",
    backends: ["cpu"],
    doc: "test fixture: the number of rounds run (each busy for round_ms), reporting progress and checking cancellation",
    run(g, params, ctx, label) {
      const rounds = params.rounds as number;
      for (let i = 0; i < rounds; i++) {
        ctx.checkCancelled();
        const until = performance.now() + (params.round_ms as number);
        while (performance.now() < until);
        ctx.progress({ phase: "rounds", iteration: i + 1, fraction: (i + 1) / rounds });
      }
      return { kind: "nodes", columns: [{ name: label, values: new Int32Array(g.n).fill(rounds) }] };
    },
  },
  {
    library: "igraph",
    name: "test_strength",
    params: {
      weights: { type: "edgeColumn" },
      loops: { type: "boolean", default: true },
      scale: { type: "number", default: 1, min: 0, exclusive: true },
    },
    output: "nodes",
    backends: ["cpu"],
    doc: "test fixture: igraph strength(mode=out, or all when undirected) times scale",
    run(g, params, ctx, label) {
      ctx.checkCancelled();
      const values = strength(g, params.weights as Float64Array | undefined, params.loops as boolean);
      for (let i = 0; i < values.length; i++) values[i] = (values[i] as number) * (params.scale as number);
      ctx.progress({ phase: "done", fraction: 1 });
      return { kind: "nodes", columns: [{ name: label, values }] };
    },
  },
  {
    library: "cugraph",
    name: "test_bfs",
    params: { start: { type: "node", required: true }, depth_limit: { type: "integer", min: 0, nullable: true } },
    output: "nodes",
    backends: ["cpu"],
    doc: "test fixture: hop distance from start (null unreachable) and the predecessor's id",
    run(g, params, _ctx, label) {
      const { dist, pred } = bfs(g, params.start as number);
      return {
        kind: "nodes",
        columns: [
          { name: label, values: dist, type: "int64" },
          { name: "predecessor", values: pred, ref: "node" },
        ],
      };
    },
  },
  {
    library: "cugraph",
    name: "test_weight_check",
    params: {},
    output: "edges",
    backends: ["cpu"],
    doc: "test fixture: the bound edge weight per edge; refuses a negative one",
    run(g, _params, _ctx, label) {
      const values = new Float64Array(g.m);
      for (let e = 0; e < g.m; e++) {
        const w = g.weight ? (g.weight[e] as number) : 1;
        if (w < 0) throw new ComputeInputError(`edge ${e} has a negative weight`, "weight");
        values[e] = w;
      }
      return { kind: "edges", columns: [{ name: label, values }] };
    },
  },
  {
    library: "igraph",
    name: "test_min_degree",
    params: { k: { type: "integer", default: 1, min: 0 } },
    output: "graph",
    backends: ["cpu"],
    undirectedOnly: true,
    doc: "test fixture: the subgraph induced by nodes of degree at least k",
    run(g, params) {
      const degree = strength(g, undefined, true);
      const kept: number[] = [];
      for (let r = 0; r < g.n; r++) if ((degree[r] as number) >= (params.k as number)) kept.push(r);
      return { kind: "graph", nodeRows: Int32Array.from(kept), edgeRows: null };
    },
  },
  {
    library: "igraph",
    name: "test_reverse",
    params: {},
    output: "graph",
    backends: ["cpu"],
    doc: "test fixture: every edge reversed, as new edges with their old row",
    run(g) {
      const row = new Int32Array(g.m);
      for (let e = 0; e < g.m; e++) row[e] = e;
      return {
        kind: "graph",
        nodeRows: null,
        edgeRows: null,
        newEdges: { src: g.dst, dst: g.src, columns: [{ name: "old_row", values: row }] },
      };
    },
  },
];
