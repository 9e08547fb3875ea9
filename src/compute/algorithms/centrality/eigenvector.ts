// igraph's eigenvector_centrality, hub_score and authority_score (python-igraph 0.10): dominant eigenvectors by
// power iteration over the "spmv" kernel, scaled to a largest value of 1 (scale=True) or to unit length.
import type { ComputeGraph } from "../../../../kernels/cpu/csr.ts";
import { type AlgorithmEntry, type ComputeContext, ComputeInputError } from "../../types.ts";
import { adjacency } from "./adjacency.ts";
import { dominant, matrix, product, scaleToMax, scaleToUnit } from "./power.ts";

const TOL = 1e-14;
const MAX_ITER = 100_000;

function readWeights(value: unknown): Float64Array | null {
  const weights = (value as Float64Array | null | undefined) ?? null;
  if (weights)
    for (let e = 0; e < weights.length; e++)
      if (Number.isNaN(weights[e])) throw new ComputeInputError("weights must not be NaN", "weights");
  return weights;
}

function refuseEigenvalue(params: Record<string, unknown>): void {
  if (params.return_eigenvalue === true)
    throw new ComputeInputError("return_eigenvalue=True answers a (vector, eigenvalue) pair, not a column per node", "return_eigenvalue");
}

/** Whether the directed graph has no cycle (a self-loop is a cycle): Kahn's peeling. */
function acyclic(graph: ComputeGraph): boolean {
  const { n } = graph;
  const indegree = new Int32Array(n);
  for (let v = 0; v < n; v++) indegree[v] = (graph.inStart[v + 1] as number) - (graph.inStart[v] as number);
  const queue = new Int32Array(n);
  let tail = 0;
  for (let v = 0; v < n; v++) if (indegree[v] === 0) queue[tail++] = v;
  for (let head = 0; head < tail; head++) {
    const v = queue[head] as number;
    for (let j = graph.outStart[v] as number; j < (graph.outStart[v + 1] as number); j++) {
      const w = graph.outDst[j] as number;
      indegree[w] = (indegree[w] as number) - 1;
      if (indegree[w] === 0) queue[tail++] = w;
    }
  }
  return tail === n;
}

function finish(vector: Float64Array, scale: boolean): Float64Array {
  return scale ? scaleToMax(vector) : scaleToUnit(vector);
}

export const igraphEigenvector: AlgorithmEntry = {
  library: "igraph",
  name: "eigenvector_centrality",
  params: {
    directed: {
      type: "boolean",
      default: true,
      description: "follow edge directions (on a directed graph): centrality flows along in-edges",
    },
    scale: { type: "boolean", default: true, description: "largest value 1 (false: unit length)" },
    weights: { type: "edgeColumn", nullable: true, default: null, description: "edge column of weights" },
    return_eigenvalue: { type: "boolean", default: false, description: "only false: the eigenvalue has no column" },
  },
  output: "nodes",
  backends: ["cpu", "opencl"],
  doc: "eigenvector centrality per node (float64); a self-loop counts twice on an undirected graph; 0 on a directed acyclic graph",
  run(graph, params, ctx, label) {
    refuseEigenvalue(params);
    const { n } = graph;
    const weights = readWeights(params.weights);
    const directed = params.directed !== false && graph.directed;
    if (graph.m === 0) return { kind: "nodes", columns: [{ name: label, values: new Float64Array(n).fill(1) }] };
    if (directed && acyclic(graph)) return { kind: "nodes", columns: [{ name: label, values: new Float64Array(n) }] };
    const m = matrix(n, adjacency(graph, directed ? "in" : "all"), weights, false);
    const { vector } = dominant(ctx, n, (x, into) => product(ctx, m, x, into), new Float64Array(n).fill(1), {
      shift: meanWeight(weights),
      tol: TOL,
      maxIter: MAX_ITER,
      phase: "eigenvector_centrality",
    });
    return { kind: "nodes", columns: [{ name: label, values: finish(vector, params.scale !== false) }] };
  },
};

function meanWeight(weights: Float64Array | null): number {
  if (!weights || weights.length === 0) return 1;
  let sum = 0;
  for (let e = 0; e < weights.length; e++) sum += Math.abs(weights[e] as number);
  return sum / weights.length || 1;
}

/** Hubs: the dominant eigenvector of A A^T; authorities: A^T hubs. On an undirected graph a self-loop counts once. */
export function hubsAndAuthorities(
  ctx: ComputeContext,
  graph: ComputeGraph,
  weights: Float64Array | null,
  options: { tol: number; maxIter: number; start?: Float64Array | null },
): { hubs: Float64Array; authorities: Float64Array; converged: boolean } {
  const { n } = graph;
  const loopOnce = !graph.directed;
  const inward = matrix(n, adjacency(graph, graph.directed ? "in" : "all"), weights, loopOnce);
  const outward = matrix(n, adjacency(graph, graph.directed ? "out" : "all"), weights, loopOnce);
  // The inner product's array is reused every step, as are the outer's two (see dominant).
  const mid = new Float64Array(n);
  const { vector, converged } = dominant(
    ctx,
    n,
    (h, into) => product(ctx, outward, product(ctx, inward, h, mid), into),
    options.start ?? new Float64Array(n).fill(1),
    {
      shift: 0,
      tol: options.tol,
      maxIter: options.maxIter,
      phase: "hits",
    },
  );
  return { hubs: vector, authorities: product(ctx, inward, vector), converged };
}

function hitsEntry(name: "hub_score" | "authority_score"): AlgorithmEntry {
  return {
    library: "igraph",
    name,
    params: {
      weights: { type: "edgeColumn", nullable: true, default: null, description: "edge column of weights" },
      scale: { type: "boolean", default: true, description: "largest value 1 (false: unit length)" },
      return_eigenvalue: { type: "boolean", default: false, description: "only false: the eigenvalue has no column" },
    },
    output: "nodes",
    backends: ["cpu", "opencl"],
    doc: `Kleinberg's ${name === "hub_score" ? "hub" : "authority"} score per node (float64)`,
    run(graph, params, ctx, label) {
      refuseEigenvalue(params);
      const { n } = graph;
      if (graph.m === 0) return { kind: "nodes", columns: [{ name: label, values: new Float64Array(n).fill(1) }] };
      const scores = hubsAndAuthorities(ctx, graph, readWeights(params.weights), { tol: TOL, maxIter: MAX_ITER });
      const values = name === "hub_score" ? scores.hubs : scores.authorities;
      return { kind: "nodes", columns: [{ name: label, values: finish(values, params.scale !== false) }] };
    },
  };
}

export const igraphHubScore = hitsEntry("hub_score");
export const igraphAuthorityScore = hitsEntry("authority_score");
