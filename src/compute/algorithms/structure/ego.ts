// Ego graphs: cuGraph's ego_graph (the subgraph within `radius` hops of a node) and batched_ego_graphs (per edge,
// how many of the seeds' ego graphs hold it). A ball search touches only the ball's nodes and edges (stamps reused
// across seeds), so a small ego graph of a big graph costs what the ball holds, not the whole graph.
import type { ComputeGraph } from "../../../../kernels/cpu/csr.ts";
import { type AlgorithmEntry, ComputeInputError } from "../../types.ts";
import { type Adjacency, nodeRow, traversal } from "./adjacency.ts";

/** Reusable per-graph state: stamp[v] = the search that reached v last, depth[v] its hops there. */
type Ball = { stamp: Int32Array; depth: Int32Array; list: Int32Array; size: number };

function newBall(n: number): Ball {
  return { stamp: new Int32Array(n).fill(-1), depth: new Int32Array(n), list: new Int32Array(n), size: 0 };
}

/** The nodes within `radius` hops of `seed` (search number `id`), in ball.list[0 .. size). */
function searchBall(adj: Adjacency, seed: number, radius: number, id: number, ball: Ball): void {
  const { stamp, depth, list } = ball;
  stamp[seed] = id;
  depth[seed] = 0;
  list[0] = seed;
  let size = 1;
  for (let head = 0; head < size; head++) {
    const u = list[head] as number;
    const d = depth[u] as number;
    if (d >= radius) continue;
    for (let j = adj.start[u] as number; j < (adj.start[u + 1] as number); j++) {
      const v = adj.nbr[j] as number;
      if ((stamp[v] as number) === id) continue;
      stamp[v] = id;
      depth[v] = d + 1;
      list[size++] = v;
    }
  }
  ball.size = size;
}

/** Calls `edge(e)` for every edge with both ends in the ball (each edge leaves exactly one node: its source). */
function ballEdges(graph: ComputeGraph, ball: Ball, id: number, edge: (e: number) => void): void {
  for (let i = 0; i < ball.size; i++) {
    const u = ball.list[i] as number;
    for (let j = graph.outStart[u] as number; j < (graph.outStart[u + 1] as number); j++) {
      if ((ball.stamp[graph.outDst[j] as number] as number) === id) edge(graph.outEdges[j] as number);
    }
  }
}

const RADIUS = { type: "integer", default: 1, min: 0, description: "hops from the center (out-edges of a directed graph)" } as const;

export const egoEntries: AlgorithmEntry[] = [
  {
    library: "cugraph",
    name: "ego_graph",
    params: {
      n: { type: "node", required: true, description: "the center node" },
      radius: RADIUS,
      center: { type: "boolean", default: true, description: "keep the center node itself" },
    },
    output: "graph",
    backends: ["cpu"],
    doc: "graph: the nodes within radius hops of n (out-edges of a directed graph) and every edge between them",
    run: (graph, params) => {
      const center = nodeRow(params.n, graph.n, "n");
      const ball = newBall(graph.n);
      searchBall(traversal(graph), center, params.radius as number, 0, ball);
      if (params.center === false) ball.stamp[center] = -1;
      const nodes: number[] = [];
      for (let i = 0; i < ball.size; i++) if ((ball.stamp[ball.list[i] as number] as number) === 0) nodes.push(ball.list[i] as number);
      const nodeRows = Int32Array.from(nodes).sort();
      const edges: number[] = [];
      ballEdges(graph, ball, 0, (e) => edges.push(e));
      return { kind: "graph", nodeRows, edgeRows: Int32Array.from(edges).sort() };
    },
  },
  {
    library: "cugraph",
    name: "batched_ego_graphs",
    params: {
      seeds: { type: "nodes", required: true, description: "the center nodes" },
      radius: RADIUS,
    },
    output: "edges",
    backends: ["cpu"],
    doc: "edge column (int32): how many of the seeds' ego graphs (radius hops) hold the edge; 0 for none",
    run: (graph, params, ctx, label) => {
      const seeds = params.seeds as Int32Array;
      if (!(seeds instanceof Int32Array)) throw new ComputeInputError("seeds must be a list of node ids", "seeds");
      const count = new Int32Array(graph.m);
      const adj = traversal(graph);
      const ball = newBall(graph.n);
      for (let i = 0; i < seeds.length; i++) {
        ctx.checkCancelled();
        searchBall(adj, nodeRow(seeds[i], graph.n, `seeds[${i}]`), params.radius as number, i, ball);
        ballEdges(graph, ball, i, (e) => {
          count[e] = (count[e] as number) + 1;
        });
        ctx.progress({ phase: "ego graphs", iteration: i + 1, fraction: (i + 1) / seeds.length });
      }
      return { kind: "edges", columns: [{ name: label, values: count, type: "int32" }] };
    },
  },
];
