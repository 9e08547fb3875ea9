// cuGraph's force_atlas2 (spec 2.9 `layout.cugraph`): 2D ForceAtlas2 with Barnes-Hut repulsion, cuGraph's
// parameters and defaults, seeded random start in [-100, 100]^2 as cuGraph's (random_state, default DEFAULT_SEED),
// pos_list start positions. The iteration runs on kernel "force-atlas2" (kernels/cpu/force-atlas2.ts, its OpenCL
// port under the opencl backend); `place` is `start` plus max_iter steps.
import { type ComputeGraph, undirected } from "../../../../kernels/cpu/csr.ts";
import { type Fa2Engine, type Fa2Params, type Fa2Setup, forceAtlas2Cpu } from "../../../../kernels/cpu/force-atlas2.ts";
import { type ComputeContext, ComputeInputError, type ParamSpec, type PositionRecords } from "../../../compute/types.ts";
import { DEFAULT_SEED, randomPositions } from "../../seeded.ts";
import { type LayoutEntry, type LayoutIteration, layoutEntry } from "../../types.ts";

export const FA2_PARAMS: Record<string, ParamSpec> = {
  max_iter: { type: "integer", default: 500, min: 0, description: "iterations" },
  pos_list: {
    type: "positions",
    nullable: true,
    default: null,
    description: "start positions: a list of {vertex, x, y} records (other nodes start at seeded random positions)",
  },
  outbound_attraction_distribution: { type: "boolean", default: true, description: "hubs attract less (divided by degree + 1)" },
  lin_log_mode: { type: "boolean", default: false, description: "LinLog attraction log(1 + d): tighter clusters" },
  prevent_overlapping: { type: "boolean", default: false, description: "nodes keep apart by their radii" },
  vertex_radius: {
    type: "nodeColumn",
    nullable: true,
    default: null,
    description: "a node column of radii for prevent_overlapping (null: every radius 1)",
  },
  overlap_scaling_ratio: { type: "number", default: 100, min: 0, description: "repulsion between overlapping nodes" },
  edge_weight_influence: { type: "number", default: 1, description: "attraction weighs edge weight^this (0: unweighted)" },
  jitter_tolerance: { type: "number", default: 1, min: 0, exclusive: true, description: "swinging allowed (lower: slower, more precise)" },
  barnes_hut_optimize: { type: "boolean", default: true, description: "Barnes-Hut repulsion (false: exact, O(n^2))" },
  barnes_hut_theta: { type: "number", default: 0.5, min: 0, description: "Barnes-Hut accuracy (0 exact .. 1 fast)" },
  scaling_ratio: { type: "number", default: 2, min: 0, exclusive: true, description: "repulsion strength" },
  strong_gravity_mode: { type: "boolean", default: false, description: "gravity grows with the distance to the centre" },
  gravity: { type: "number", default: 1, min: 0, description: "attraction to the centre" },
  verbose: { type: "boolean", default: false, description: "accepted (progress reports carry swinging, traction, speed)" },
  random_state: { type: "integer", nullable: true, default: null, description: "seed of the random start (null: the default seed)" },
};

export const FA2_LIVE_PARAMS = [
  "gravity",
  "scaling_ratio",
  "lin_log_mode",
  "prevent_overlapping",
  "strong_gravity_mode",
  "edge_weight_influence",
  "jitter_tolerance",
  "barnes_hut_theta",
  "outbound_attraction_distribution",
  "max_iter",
] as const;

/** The step parameters from the layout's (checked) params. */
export function fa2Params(params: Record<string, unknown>): Fa2Params {
  const num = (name: string) => Number(params[name] ?? FA2_PARAMS[name]?.default);
  const flag = (name: string) => Boolean(params[name] ?? FA2_PARAMS[name]?.default);
  return {
    outboundAttractionDistribution: flag("outbound_attraction_distribution"),
    linLogMode: flag("lin_log_mode"),
    preventOverlapping: flag("prevent_overlapping"),
    overlapScalingRatio: num("overlap_scaling_ratio"),
    edgeWeightInfluence: num("edge_weight_influence"),
    jitterTolerance: num("jitter_tolerance"),
    barnesHutOptimize: flag("barnes_hut_optimize"),
    barnesHutTheta: num("barnes_hut_theta"),
    scalingRatio: num("scaling_ratio"),
    strongGravityMode: flag("strong_gravity_mode"),
    gravity: num("gravity"),
  };
}

/** The start: `initial` when given, else seeded uniform [-100, 100]^2 with pos_list's records placed over it. */
function startPositions(n: number, params: Record<string, unknown>, initial?: Float32Array): Float64Array {
  if (initial) {
    if (initial.length !== 2 * n) throw new ComputeInputError(`a start of ${initial.length} values for ${n} nodes in 2D`, "initial");
    return Float64Array.from(initial);
  }
  const seed = params.random_state === null || params.random_state === undefined ? DEFAULT_SEED : Number(params.random_state);
  const pos = randomPositions(n, 2, seed, 100);
  const list = params.pos_list as PositionRecords | null | undefined;
  if (list) {
    for (let k = 0; k < list.rows.length; k++) {
      const row = list.rows[k] as number;
      if (row < 0 || row >= n) throw new ComputeInputError(`pos_list[${k}] names no node of the graph`, "pos_list");
      pos[2 * row] = list.x[k] as number;
      pos[2 * row + 1] = list.y[k] as number;
    }
  }
  return pos;
}

function checkRadius(radius: Float64Array | null, n: number): Float64Array | null {
  if (!radius) return null;
  if (radius.length !== n) throw new ComputeInputError(`vertex_radius has ${radius.length} values for ${n} nodes`, "vertex_radius");
  for (const r of radius)
    if (!(r >= 0) || !Number.isFinite(r)) throw new ComputeInputError("vertex_radius must be finite and >= 0", "vertex_radius");
  return radius;
}

/** Every weight^edge_weight_influence must be finite (0 weights with a negative power, negative weights with a fractional one are not). */
function checkWeightPower(weight: Float64Array | null, influence: number): void {
  if (!weight) return;
  for (const w of weight) {
    if (!Number.isFinite(w)) throw new ComputeInputError("edge weights must be finite", "edge_weight");
    if (!Number.isFinite(w ** influence))
      throw new ComputeInputError(
        `edge weight ${w} to the power edge_weight_influence ${influence} is not a finite number`,
        "edge_weight_influence",
      );
  }
}

/** The engine's input from a graph (read undirected) and params. */
export function fa2Setup(graph: ComputeGraph, params: Record<string, unknown>, initial?: Float32Array): Fa2Setup {
  const adj = undirected(graph);
  checkWeightPower(graph.weight, fa2Params(params).edgeWeightInfluence);
  return {
    n: graph.n,
    start: adj.start,
    nbr: adj.nbr,
    edge: adj.edge,
    weight: graph.weight,
    radius: checkRadius((params.vertex_radius as Float64Array | null | undefined) ?? null, graph.n),
    initial: startPositions(graph.n, params, initial),
    params: fa2Params(params),
  };
}

/** A running ForceAtlas2 (kernel "force-atlas2" under ctx's backend) as a LayoutIteration. */
export function startForceAtlas2(
  graph: ComputeGraph,
  params: Record<string, unknown>,
  ctx: ComputeContext,
  initial?: Float32Array,
): LayoutIteration {
  const setup = fa2Setup(graph, params, initial);
  const engine: Fa2Engine = ctx.kernel("force-atlas2", forceAtlas2Cpu)(setup);
  let current: Record<string, unknown> = { ...params };
  let iteration = 0;
  return {
    dims: 2,
    get iteration() {
      return iteration;
    },
    step() {
      engine.step();
      iteration++;
    },
    positions: () => engine.positions(),
    setParams(changes) {
      const next = { ...current, ...changes };
      const stepParams = fa2Params(next);
      checkWeightPower(graph.weight, stepParams.edgeWeightInfluence);
      current = next;
      engine.setParams(stepParams);
    },
    dispose: () => engine.dispose(),
  };
}

/** start + max_iter steps, reporting progress and checking for cancellation each iteration. */
export function placeForceAtlas2(graph: ComputeGraph, params: Record<string, unknown>, ctx: ComputeContext): Float64Array {
  const maxIter = Number(params.max_iter ?? 500);
  const run = startForceAtlas2(graph, params, ctx);
  try {
    for (let i = 0; i < maxIter; i++) {
      ctx.checkCancelled();
      run.step();
      ctx.progress({ phase: "force_atlas2", iteration: i + 1, fraction: (i + 1) / maxIter });
    }
    return Float64Array.from(run.positions());
  } finally {
    run.dispose?.();
  }
}

export const forceAtlas2Entry: LayoutEntry = layoutEntry({
  library: "cugraph",
  name: "force_atlas2",
  params: FA2_PARAMS,
  dims: 2,
  backends: ["cpu", "opencl"],
  doc: "ForceAtlas2 positions x, y (Barnes-Hut, cuGraph's parameters; OpenCL kernels with a CPU twin)",
  place: placeForceAtlas2,
  start: startForceAtlas2,
  liveParams: FA2_LIVE_PARAMS,
});
