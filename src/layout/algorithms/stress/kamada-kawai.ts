// igraph's layout_kamada_kawai (2D and 3D) as layouts: python-igraph's keyword names and defaults, the start igraph
// takes (seed matrix, random inside bounds, else circle or sphere), springs from the graph distances.
import type { ComputeGraph } from "../../../../kernels/cpu/csr.ts";
import { type ComputeContext, ComputeInputError, type ParamSpec } from "../../../compute/types.ts";
import { DEFAULT_SEED } from "../../seeded.ts";
import type { Dims, LayoutIteration } from "../../types.ts";
import { allPairsDistances, checkDenseSize } from "./distances.ts";
import { createKamadaKawai2d } from "./kamada-kawai-2d.ts";
import { createKamadaKawai3d } from "./kamada-kawai-3d.ts";
import { type KkMover, kkSprings } from "./springs.ts";
import { hasBounds, kkCircle, kkSphere, parseBounds, parseStartMatrix, randomBounded } from "./start.ts";

/** python-igraph's `dim` keyword: accepted when it names this layout's own dimension (the other is `other`). */
export const dimParam = (dims: Dims, other: string): ParamSpec => ({
  type: "integer",
  min: dims,
  max: dims,
  default: dims,
  description: `${dims} (for ${dims === 3 ? "2D" : "3D"}, use ${other})`,
});

const bound = (what: string): ParamSpec => ({
  type: "json",
  nullable: true,
  default: null,
  description: `${what} per vertex (a list of n numbers, null entries unbounded), or null`,
});

/** python-igraph's Graph.layout_kamada_kawai keywords (plus `weights`, which igraph's C core takes). */
export function kkParams(dims: Dims): Record<string, ParamSpec> {
  return {
    maxiter: { type: "integer", min: 0, default: 1000, description: "moves at most (one vertex per move)" },
    epsilon: { type: "number", min: 0, default: 0, description: "stop once the largest squared energy gradient is below this" },
    kkconst: {
      type: "number",
      min: 0,
      exclusive: true,
      nullable: true,
      default: null,
      description: "spring constant; null = the number of vertices",
    },
    seed: {
      type: "json",
      nullable: true,
      default: null,
      description: `start positions, a list of n rows [x, y${dims === 3 ? ", z" : ""}]; null = igraph's start (${dims === 3 ? "sphere" : "circle"} of radius 0.36·√n, random inside bounds when any are given)`,
    },
    minx: bound("lower x bound"),
    maxx: bound("upper x bound"),
    miny: bound("lower y bound"),
    maxy: bound("upper y bound"),
    ...(dims === 3 ? { minz: bound("lower z bound"), maxz: bound("upper z bound") } : {}),
    weights: { type: "edgeColumn", nullable: true, description: "positive edge lengths: heavier edges are drawn longer" },
    dim: dimParam(dims, dims === 3 ? "kk" : "kk_3d"),
  };
}

function checkWeights(weights: unknown, m: number): Float64Array | null {
  if (weights === undefined || weights === null) return null;
  if (!(weights instanceof Float64Array) || weights.length !== m)
    throw new ComputeInputError("weights must give one value per edge", "weights");
  for (let e = 0; e < m; e++) {
    const w = weights[e] as number;
    if (!(w > 0) || !Number.isFinite(w))
      throw new ComputeInputError(`weights: edge ${e} has weight ${w}; Kamada-Kawai takes positive finite weights`, "weights");
  }
  return weights;
}

type KkRun = { pos: Float64Array; mover: KkMover; maxiter: number };

/** The start, springs and mover of a Kamada-Kawai run (`initial` replaces the start igraph would take). */
function prepare(
  graph: ComputeGraph,
  params: Record<string, unknown>,
  ctx: ComputeContext,
  dims: Dims,
  initial?: ArrayLike<number>,
): KkRun {
  const n = graph.n;
  const maxiter = (params.maxiter as number | undefined) ?? 1000;
  const epsilon = (params.epsilon as number | undefined) ?? 0;
  const kkconst = (params.kkconst as number | null | undefined) ?? n;
  const weights = checkWeights(params.weights, graph.m);
  const bounds = parseBounds(params, n, dims);
  const given = initial ? Float64Array.from(initial) : parseStartMatrix(params.seed, n, dims);
  checkDenseSize(n, dims === 3 ? "kk_3d" : "kk");
  const pos = given ?? (hasBounds(bounds) ? randomBounded(n, dims, bounds, DEFAULT_SEED) : dims === 3 ? kkSphere(n) : kkCircle(n));
  if (n <= 1) return { pos, mover: { move: () => false }, maxiter };
  const springs = kkSprings(allPairsDistances(graph, weights, ctx), n, kkconst);
  const mover = dims === 3 ? createKamadaKawai3d(springs, pos, bounds, epsilon) : createKamadaKawai2d(springs, pos, bounds, epsilon);
  return { pos, mover, maxiter };
}

/** Node-major positions of igraph's Kamada-Kawai layout in `dims` dimensions. */
export function kamadaKawai(graph: ComputeGraph, params: Record<string, unknown>, ctx: ComputeContext, dims: Dims): Float64Array {
  const { pos, mover, maxiter } = prepare(graph, params, ctx, dims);
  for (let it = 0; it < maxiter; it++) {
    if ((it & 255) === 0) {
      ctx.checkCancelled();
      ctx.progress({ phase: "kamada-kawai", iteration: it, fraction: it / maxiter });
    }
    if (!mover.move()) break;
  }
  return pos;
}

/** The same layout one move per step (live sessions): `maxiter` steps give what kamadaKawai gives. */
export function startKamadaKawai(
  graph: ComputeGraph,
  params: Record<string, unknown>,
  ctx: ComputeContext,
  dims: Dims,
  initial?: Float32Array,
): LayoutIteration {
  const { pos, mover } = prepare(graph, params, ctx, dims, initial);
  const view = new Float32Array(pos.length);
  let iteration = 0;
  return {
    dims,
    get iteration() {
      return iteration;
    },
    step() {
      mover.move();
      iteration++;
    },
    positions() {
      for (let i = 0; i < pos.length; i++) view[i] = pos[i] as number;
      return view;
    },
  };
}
