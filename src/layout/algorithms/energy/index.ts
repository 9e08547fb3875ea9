// Layouts of this family (registered in ../../registry.ts): igraph's energy layouts on the CPU - DrL (2D and 3D),
// the Large Graph Layout (lgl, large, large_graph), graphopt and Davidson-Harel (dh, davidson_harel) - with
// python-igraph 0.10's keyword names and defaults. Each is seeded by DEFAULT_SEED where igraph draws from its RNG.
import type { ComputeGraph } from "../../../../kernels/cpu/csr.ts";
import { ComputeInputError, type ParamSpec } from "../../../compute/types.ts";
import { DEFAULT_SEED } from "../../seeded.ts";
import { aliasOf, axisNames, type LayoutEntry, type LayoutIteration, layoutEntry, splitAxes } from "../../types.ts";
import { type DavidsonHarelParams, davidsonHarelDefaults, davidsonHarelLayout } from "./davidson-harel.ts";
import { DrlGraph, drlLayout } from "./drl.ts";
import { drlOptions } from "./drl-options.ts";
import { type GraphoptParams, GraphoptRun, graphoptLayout } from "./graphopt.ts";
import { lglLayout } from "./lgl.ts";
import { startMatrix } from "./start-matrix.ts";

const seedSpec = (dims: string): ParamSpec => ({
  type: "json",
  nullable: true,
  description: `start positions: one [${dims}] row per vertex (igraph's seed matrix); null = the seeded default start`,
});

function positiveWeights(value: unknown, graph: ComputeGraph): Float64Array | null {
  if (value === undefined || value === null) return null;
  const weights = value as Float64Array;
  if (weights.length !== graph.m) throw new ComputeInputError("weights must give one value per edge", "weights");
  for (let e = 0; e < weights.length; e++) {
    const w = weights[e] as number;
    if (!(w > 0) || !Number.isFinite(w))
      throw new ComputeInputError(`weights must be positive for the DrL layout (edge ${e} has ${w})`, "weights");
  }
  return weights;
}

const drlParams = (withDim: boolean): Record<string, ParamSpec> => ({
  weights: { type: "edgeColumn", nullable: true, description: "edge column of positive weights (attraction along each edge)" },
  seed: seedSpec(withDim ? "x, y (, z with dim 3)" : "x, y, z"),
  fixed: { type: "json", nullable: true, description: "ignored, as python-igraph ignores it (DrL never fixed vertices)" },
  options: {
    type: "json",
    nullable: true,
    description:
      'a preset ("default", "coarsen", "coarsest", "refine", "final") or a mapping of DrL options (edge_cut, liquid_iterations, ...)',
  },
  ...(withDim ? { dim: { type: "integer", default: 2, min: 2, max: 3, description: "2 or 3 dimensions (3 answers z too)" } } : {}),
});

function placeDrl(graph: ComputeGraph, params: Record<string, unknown>, dims: 2 | 3, ctx: Parameters<LayoutEntry["place"]>[2]) {
  const weights = positiveWeights(params.weights, graph);
  const options = drlOptions(params.options);
  const start = startMatrix(params.seed, graph.n, dims);
  try {
    return drlLayout(graph, dims, options, weights, start, DEFAULT_SEED, ctx);
  } catch (error) {
    // igraph refuses a start outside DrL's plane the same way; with a seed it is the request's doing
    if (start && error instanceof Error && error.message.startsWith("Exceeded density grid"))
      throw new ComputeInputError(`seed places vertices outside DrL's plane (|coordinate| < ${dims === 2 ? 1950 : 95} or so)`, "seed");
    throw error;
  }
}

/** DrL step by step: one step is one pass of the schedule (ReCompute); steps after the schedule ends do nothing. */
function startDrl(
  graph: ComputeGraph,
  params: Record<string, unknown>,
  dims: 2 | 3,
  ctx: Parameters<LayoutEntry["place"]>[2],
  initial?: Float32Array,
): LayoutIteration {
  const weights = positiveWeights(params.weights, graph);
  const options = drlOptions(params.options);
  const start = initial ? Float64Array.from(initial) : startMatrix(params.seed, graph.n, dims);
  if (start && start.length !== graph.n * dims)
    throw new ComputeInputError(`the start gives ${start.length} values for ${graph.n} vertices in ${dims}D`, "seed");
  const run = new DrlGraph(graph, dims, options, weights, DEFAULT_SEED, start);
  let iteration = 0;
  let done = graph.n === 0;
  return {
    dims,
    get iteration() {
      return iteration;
    },
    step() {
      if (done) return;
      done = !run.reCompute(ctx);
      iteration++;
    },
    positions: () => run.pos,
  };
}

const drlBase = layoutEntry({
  library: "igraph",
  name: "drl",
  dims: 2,
  params: drlParams(true),
  doc: "DrL force-directed layout (density grid, liquid/expansion/cooldown/crunch/simmer schedule); dim=3 answers z",
  place: (graph, params, ctx) => placeDrl(graph, params, params.dim === 3 ? 3 : 2, ctx),
  start: (graph, params, ctx, initial) => startDrl(graph, params, params.dim === 3 ? 3 : 2, ctx, initial),
});
/** drl with dim=3 answers x, y and z (the entry's dims say its default, 2). */
const drl: LayoutEntry = {
  ...drlBase,
  run(graph, params, ctx) {
    const dims = params.dim === 3 ? 3 : 2;
    const axes = splitAxes(placeDrl(graph, params, dims, ctx), dims, graph.n);
    return { kind: "nodes", columns: axisNames(dims).map((name, d) => ({ name, values: axes[d] as Float64Array })) };
  },
};

const drl3d = layoutEntry({
  library: "igraph",
  name: "drl_3d",
  dims: 3,
  params: drlParams(false),
  doc: "DrL force-directed layout in 3D (x, y, z)",
  place: (graph, params, ctx) => placeDrl(graph, params, 3, ctx),
  start: (graph, params, ctx, initial) => startDrl(graph, params, 3, ctx, initial),
});

const optionalPositive = (description: string): ParamSpec => ({ type: "number", nullable: true, description });

const lgl = layoutEntry({
  library: "igraph",
  name: "lgl",
  dims: 2,
  params: {
    maxiter: { type: "integer", default: 150, min: 1, description: "cooling iterations per BFS layer" },
    maxdelta: {
      type: "number",
      nullable: true,
      min: 0,
      exclusive: true,
      description: "largest move in an iteration (default: the vertex count)",
    },
    area: optionalPositive("area of the square the vertices start on (<= 0 or null: vertex count squared)"),
    coolexp: { type: "number", default: 1.5, min: 0, exclusive: true, description: "cooling exponent" },
    repulserad: optionalPositive("radius where repulsion cancels attraction (<= 0 or null: area times the vertex count)"),
    cellsize: optionalPositive("grid cell side; repulsion only within neighbouring cells (<= 0 or null: area^(1/4))"),
    root: { type: "node", nullable: true, description: "the BFS root placed first (null: a seeded random vertex)" },
  },
  doc: "Large Graph Layout: grown along a BFS tree layer by layer, FR forces on a grid",
  place: (graph, params, ctx) => {
    const n = graph.n;
    const area = typeof params.area === "number" && params.area > 0 ? params.area : n * n;
    const repulserad = typeof params.repulserad === "number" && params.repulserad > 0 ? params.repulserad : area * n;
    const cellsize = typeof params.cellsize === "number" && params.cellsize > 0 ? params.cellsize : Math.sqrt(Math.sqrt(area));
    return lglLayout(
      graph,
      {
        maxiter: params.maxiter as number,
        maxdelta: typeof params.maxdelta === "number" ? params.maxdelta : n,
        area,
        coolexp: params.coolexp as number,
        repulserad,
        cellsize,
        root: typeof params.root === "number" ? params.root : -1,
      },
      DEFAULT_SEED,
      ctx,
    );
  },
});

const GRAPHOPT_LIVE = ["node_charge", "node_mass", "spring_length", "spring_constant", "max_sa_movement"] as const;

const graphopt = layoutEntry({
  library: "igraph",
  name: "graphopt",
  dims: 2,
  params: {
    niter: { type: "integer", default: 500, min: 1, description: "iterations" },
    node_charge: { type: "number", default: 0.001, description: "vertex charge (Coulomb repulsion); 0 turns repulsion off" },
    node_mass: { type: "number", default: 30, min: 0, exclusive: true, description: "vertex mass: a move is force / mass" },
    spring_length: { type: "number", default: 0, min: 0, description: "rest length of the edge springs" },
    spring_constant: { type: "number", default: 1, description: "spring constant" },
    max_sa_movement: { type: "number", default: 5, min: 0, description: "largest move along each axis in one step" },
    seed: seedSpec("x, y"),
  },
  doc: "graphopt: Coulomb repulsion and Hooke springs, simulated step by step",
  place: (graph, params, ctx) =>
    graphoptLayout(graph, params as unknown as GraphoptParams, startMatrix(params.seed, graph.n, 2), DEFAULT_SEED, ctx),
  start: (graph, params, _ctx, initial) => {
    if (initial && initial.length !== graph.n * 2)
      throw new ComputeInputError(`the start gives ${initial.length} values for ${graph.n} vertices`, "seed");
    const run = new GraphoptRun(
      graph,
      { ...(params as unknown as GraphoptParams) },
      initial ? Float64Array.from(initial) : startMatrix(params.seed, graph.n, 2),
      DEFAULT_SEED,
    );
    const out = new Float32Array(graph.n * 2);
    let iteration = 0;
    return {
      dims: 2,
      get iteration() {
        return iteration;
      },
      step() {
        run.step();
        iteration++;
      },
      positions() {
        out.set(run.pos);
        return out;
      },
      setParams(changed) {
        run.p = { ...run.p, ...(changed as Partial<GraphoptParams>) };
      },
    };
  },
  liveParams: GRAPHOPT_LIVE,
});

const dh = layoutEntry({
  library: "igraph",
  name: "dh",
  dims: 2,
  params: {
    seed: seedSpec("x, y"),
    maxiter: { type: "integer", default: 10, min: 0, description: "annealing rounds" },
    fineiter: { type: "integer", default: -1, description: "fine-tuning rounds (negative: log2 of the vertex count, at most 10)" },
    cool_fact: { type: "number", default: 0.75, min: 0, max: 1, exclusive: true, description: "cooling factor of the move radius" },
    weight_node_dist: { type: "number", default: 1, description: "weight of the node-node repulsion" },
    weight_border: { type: "number", default: 0, description: "weight of the distance from the border" },
    weight_edge_lengths: { type: "number", default: -1, description: "weight of the edge lengths (negative: density / 10)" },
    weight_edge_crossings: { type: "number", default: -1, description: "weight of edge crossings (negative: 1 - sqrt(density))" },
    weight_node_edge_dist: { type: "number", default: -1, description: "weight of node-edge distances (negative: 0.2 (1 - density))" },
  },
  doc: "Davidson-Harel simulated annealing (repulsion, edge lengths, crossings, node-edge distances)",
  place: (graph, params, ctx) =>
    davidsonHarelLayout(
      graph,
      davidsonHarelDefaults(graph, params as unknown as DavidsonHarelParams),
      startMatrix(params.seed, graph.n, 2),
      DEFAULT_SEED,
      ctx,
    ),
});

export const entries: LayoutEntry[] = [
  drl,
  drl3d,
  lgl,
  aliasOf(lgl, "large"),
  aliasOf(lgl, "large_graph"),
  graphopt,
  dh,
  aliasOf(dh, "davidson_harel"),
];
