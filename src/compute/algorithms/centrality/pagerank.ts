// PageRank: igraph's Graph.pagerank (PRPACK: solved to convergence, normalized) and cugraph.pagerank (as networkx's
// pagerank: the power loop with alpha, personalization, nstart, max_iter and tol), both on the "pagerank" kernel.
import type { ComputeGraph } from "../../../../kernels/cpu/csr.ts";
import { type PagerankArgs, type PagerankResult, pagerank } from "../../../../kernels/cpu/pagerank.ts";
import { type AlgorithmEntry, type ComputeContext, ComputeInputError } from "../../types.ts";
import { type Adjacency, adjacency, entryWeights } from "./adjacency.ts";
import { parallelPagerank } from "./parallel-pagerank.ts";
import { poolMinimum, poolThreads } from "./threads.ts";

/** Pull lists for PageRank: in-links on a directed reading, neighbours otherwise. */
function pullLists(graph: ComputeGraph, directed: boolean): Adjacency {
  return adjacency(graph, directed && graph.directed ? "in" : "all");
}

/**
 * Each entry's weight and each node's outgoing total. `weights` null: 1 per edge. `loopOnce`: on an undirected
 * reading a self-loop (listed twice) counts its weight once (networkx's adjacency matrix) instead of twice.
 * Weights not above zero count as no link (PRPACK ignores them).
 */
function linkWeights(
  graph: ComputeGraph,
  lists: Adjacency,
  undirectedReading: boolean,
  weights: Float64Array | null,
  options: { loopOnce: boolean; dropNonPositive: boolean },
): { weight: Float64Array | null; outWeight: Float64Array } {
  const { n } = graph;
  let weight: Float64Array | null = weights ? entryWeights(lists, weights) : null;
  if (undirectedReading && options.loopOnce) {
    for (let v = 0; v < n; v++) {
      for (let j = lists.start[v] as number; j < (lists.start[v + 1] as number); j++) {
        if (lists.nbr[j] !== v) continue;
        if (!weight) weight = new Float64Array(lists.nbr.length).fill(1);
        weight[j] = (weight[j] as number) / 2;
      }
    }
  }
  if (weight && options.dropNonPositive) for (let j = 0; j < weight.length; j++) if (!((weight[j] as number) > 0)) weight[j] = 0;
  // Outgoing total of node v: the sum over the pull entries naming v as their source.
  const outWeight = new Float64Array(n);
  for (let j = 0; j < lists.nbr.length; j++) {
    const v = lists.nbr[j] as number;
    outWeight[v] = (outWeight[v] as number) + (weight ? (weight[j] as number) : 1);
  }
  return { weight, outWeight };
}

/** Links above which the CPU backend may split each step across a kernel pool. */
const POOL_LINKS = 1_000_000;

/**
 * How long the CPU backend iterates alone before it starts a pool: about twice what starting the pool's threads
 * costs here (40-60 ms). A run that converges sooner (cuGraph's tolerance, scaled by n, often takes a handful of
 * steps) never pays for threads, nor holds their memory; a long one (igraph's PRPACK tolerance) then goes on split.
 */
const POOL_AFTER_MS = 100;

/** POOL_AFTER_MS, or COMPUTE_POOL_AFTER_MS when set (tests: 0 starts the pool after the first step). */
function poolAfterMs(): number {
  const env = Number(process.env.COMPUTE_POOL_AFTER_MS);
  return process.env.COMPUTE_POOL_AFTER_MS !== undefined && Number.isFinite(env) && env >= 0 ? env : POOL_AFTER_MS;
}

function runKernel(ctx: ComputeContext, args: PagerankArgs): PagerankResult {
  ctx.progress({ phase: "pagerank" });
  const threads = poolThreads();
  const result =
    ctx.backend === "cpu" && threads > 1 && !args.inPlace && args.nbr.length >= poolMinimum(POOL_LINKS)
      ? aloneThenPooled(ctx, args, threads)
      : ctx.kernel<PagerankArgs, PagerankResult>("pagerank", pagerank)(args);
  ctx.checkCancelled();
  return result;
}

/**
 * The Jacobi steps of the kernel, on this thread for up to POOL_AFTER_MS, then on a pool from where they stopped.
 * The pool's steps are the kernel's (parallel-pagerank.ts), so the iterates are the same either way.
 */
function aloneThenPooled(ctx: ComputeContext, args: PagerankArgs, threads: number): PagerankResult {
  const started = performance.now();
  const budget = poolAfterMs();
  let done = 0;
  let initial = args.initial;
  // One step first, to time a step; then as many as fit in the rest of the budget.
  let steps = 1;
  while (done < args.maxIter) {
    const part = pagerank({ ...args, initial, maxIter: Math.min(steps, args.maxIter - done) });
    done += part.iterations;
    if (part.converged || done >= args.maxIter) return { ...part, iterations: done };
    initial = part.rank;
    const spent = performance.now() - started;
    const perStep = spent / done;
    steps = Math.floor((budget - spent) / perStep);
    if (steps < 1) break;
    ctx.checkCancelled();
  }
  const rest = parallelPagerank(ctx, { ...args, initial, maxIter: args.maxIter - done }, threads);
  return { ...rest, iterations: done + rest.iterations };
}

/** A per-node distribution from a node column: networkx normalizes by the sum. */
function distribution(values: Float64Array, field: string): Float64Array {
  let sum = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as number;
    if (!Number.isFinite(v) || v < 0) throw new ComputeInputError(`${field} values must be finite and not negative`, field);
    sum += v;
  }
  if (!(sum > 0)) throw new ComputeInputError(`${field} values sum to zero`, field);
  const out = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) out[i] = (values[i] as number) / sum;
  return out;
}

export const igraphPagerank: AlgorithmEntry = {
  library: "igraph",
  name: "pagerank",
  params: {
    directed: { type: "boolean", default: true, description: "follow edge directions (on a directed graph)" },
    damping: { type: "number", default: 0.85, min: 0, max: 1, description: "damping factor" },
    weights: { type: "edgeColumn", nullable: true, default: null, description: "edge column of weights (null: unweighted)" },
    implementation: {
      type: "enum",
      values: ["prpack", "arpack"],
      default: "prpack",
      description: "igraph's solver (both give the same ranks)",
    },
  },
  output: "nodes",
  backends: ["cpu", "opencl"],
  doc: "PageRank per node (float64, sums to 1), dangling nodes spread uniformly",
  run(graph, params, ctx, label) {
    const { n } = graph;
    const directed = params.directed !== false && graph.directed;
    const weights = (params.weights as Float64Array | null | undefined) ?? null;
    if (weights)
      for (let e = 0; e < weights.length; e++)
        if (Number.isNaN(weights[e])) throw new ComputeInputError("weights must not be NaN", "weights");
    const lists = pullLists(graph, directed);
    const { weight, outWeight } = linkWeights(graph, lists, !directed, weights, { loopOnce: false, dropNonPositive: true });
    const rank =
      n === 0
        ? new Float64Array(0)
        : runKernel(ctx, {
            n,
            start: lists.start,
            nbr: lists.nbr,
            weight,
            outWeight,
            damping: params.damping as number,
            personalization: null,
            initial: null,
            maxIter: 10_000,
            // Solved to convergence, as PRPACK solves it: every node's value stable to 1e-8 of itself (about 1e-9
            // from the fixed point on power-law graphs; the tolerance is 1e-6).
            tol: 0,
            relTol: 1e-8,
            inPlace: false,
          }).rank;
    let sum = 0;
    for (let i = 0; i < n; i++) sum += rank[i] as number;
    for (let i = 0; i < n; i++) rank[i] = (rank[i] as number) / sum;
    return { kind: "nodes", columns: [{ name: label, values: rank }] };
  },
};

export const cugraphPagerank: AlgorithmEntry = {
  library: "cugraph",
  name: "pagerank",
  params: {
    alpha: { type: "number", default: 0.85, min: 0, max: 1, description: "damping factor" },
    personalization: { type: "nodeColumn", nullable: true, default: null, description: "node column of teleport weights" },
    max_iter: { type: "integer", default: 100, min: 1, description: "iterations at most" },
    tol: { type: "number", default: 1e-5, min: 0, description: "stops once the L1 change is below n * tol" },
    nstart: { type: "nodeColumn", nullable: true, default: null, description: "node column of starting ranks" },
    fail_on_nonconvergence: { type: "boolean", default: true, description: "refuse (400) when max_iter is reached first" },
  },
  output: "nodes",
  backends: ["cpu", "opencl"],
  doc: "PageRank per node (float64), weighted by the bound edge weight, as networkx's pagerank",
  run(graph, params, ctx, label) {
    const { n } = graph;
    if (n === 0) return { kind: "nodes", columns: [{ name: label, values: new Float64Array(0) }] };
    const lists = pullLists(graph, graph.directed);
    const { weight, outWeight } = linkWeights(graph, lists, !graph.directed, graph.weight, { loopOnce: true, dropNonPositive: false });
    const p = params.personalization ? distribution(params.personalization as Float64Array, "personalization") : null;
    const start = params.nstart ? distribution(params.nstart as Float64Array, "nstart") : null;
    const maxIter = params.max_iter as number;
    const result = runKernel(ctx, {
      n,
      start: lists.start,
      nbr: lists.nbr,
      weight,
      outWeight,
      damping: params.alpha as number,
      personalization: p,
      initial: start,
      maxIter,
      tol: n * (params.tol as number),
      relTol: 0,
      inPlace: false,
    });
    if (!result.converged && params.fail_on_nonconvergence !== false)
      throw new ComputeInputError(`pagerank did not converge in ${maxIter} iterations`, "max_iter");
    return { kind: "nodes", columns: [{ name: label, values: result.rank }] };
  },
};
