// Fruchterman-Reingold as igraph runs it (layout_fruchterman_reingold, 2D and 3D): the start (igraph's `seed`
// matrix, a live session's positions, or igraph's seeded random box), the linear cooling from start_temp to 0
// over niter steps, and the grid choice; the steps themselves are kernel "fruchterman-reingold" (CPU twin in
// kernels/cpu, OpenCL port in kernels/opencl) picked by ctx.backend.
import { components } from "../../../../kernels/cpu/components.ts";
import { type ComputeGraph, undirected } from "../../../../kernels/cpu/csr.ts";
import { type FrArgs, type FrStepper, frStepper } from "../../../../kernels/cpu/fruchterman-reingold.ts";
import { type ComputeContext, ComputeInputError } from "../../../compute/types.ts";
import { DEFAULT_SEED } from "../../seeded.ts";
import type { Dims, LayoutIteration } from "../../types.ts";
import { boundsNodeMajor, checkWeights, parseBounds, seedMatrix } from "./inputs.ts";
import { randomStart } from "./start.ts";

/** igraph's automatic grid choice: the grid form for graphs of more than 1000 vertices. */
export const GRID_ABOVE = 1000;

export function weaklyConnected(graph: ComputeGraph): boolean {
  if (graph.n <= 1) return true;
  const label = components({ n: graph.n, src: graph.src, dst: graph.dst });
  for (let i = 0; i < graph.n; i++) if (label[i] !== 0) return false;
  return true;
}

function schedule(params: Record<string, unknown>, n: number): { niter: number; startTemp: number } {
  const niter = (params.niter as number | undefined) ?? 500;
  const startTemp = (params.start_temp as number | null | undefined) ?? Math.sqrt(n) / 10;
  if (!Number.isInteger(niter) || niter < 0) throw new ComputeInputError("niter must be a non-negative integer", "niter");
  if (!Number.isFinite(startTemp) || startTemp < 0) throw new ComputeInputError("start_temp must be a finite number >= 0", "start_temp");
  return { niter, startTemp };
}

/** A running FR layout: the iteration live sessions drive, and the positions in full precision for `place`. */
export type FrRun = { iteration: LayoutIteration; read(): Float64Array; niter: number };

export function startFr(
  dims: Dims,
  graph: ComputeGraph,
  params: Record<string, unknown>,
  ctx: ComputeContext,
  initial?: Float32Array,
): FrRun {
  const n = graph.n;
  let { niter, startTemp } = schedule(params, n);
  const weight = checkWeights(params.weights as Float64Array | null | undefined);
  const bounds = parseBounds(params, n, dims);
  const mode = (params.grid as string | undefined) ?? "auto";
  if (mode !== "auto" && mode !== "grid" && mode !== "nogrid")
    throw new ComputeInputError('grid must be "auto", "grid" or "nogrid"', "grid");
  const grid = mode === "grid" || (mode === "auto" && n > GRID_ABOVE);
  let positions = seedMatrix(params.seed, n, dims);
  if (!positions && initial) {
    if (initial.length !== n * dims)
      throw new ComputeInputError(`the start positions hold ${initial.length} values for ${n} vertices in ${dims}D`, "seed");
    positions = Float64Array.from(initial);
  }
  if (!positions) positions = randomStart(n, dims, bounds, DEFAULT_SEED);
  const box = boundsNodeMajor(bounds, n, dims);
  const adj = undirected(graph);
  const args: FrArgs = {
    n,
    dims,
    src: graph.src,
    dst: graph.dst,
    weight,
    adjStart: adj.start,
    adjNbr: adj.nbr,
    adjEdge: adj.edge,
    positions,
    grid,
    disconnected: !grid && !weaklyConnected(graph),
    lower: box?.lower ?? null,
    upper: box?.upper ?? null,
    seed: DEFAULT_SEED,
  };
  const stepper: FrStepper = ctx.kernel<FrArgs, FrStepper>("fruchterman-reingold", frStepper)(args);
  let done = 0;
  const full = new Float64Array(n * dims);
  const single = new Float32Array(n * dims);
  const iteration: LayoutIteration = {
    dims,
    get iteration() {
      return done;
    },
    step() {
      // igraph's cooling: start_temp at the first step, start_temp / niter less at each next one (0 after niter)
      const temp = niter > 0 ? startTemp - done * (startTemp / niter) : 0;
      stepper.step(Math.max(0, temp));
      done++;
    },
    positions() {
      stepper.read(full);
      single.set(full);
      return single;
    },
    setParams(next: Record<string, unknown>) {
      const merged = schedule({ niter, start_temp: startTemp, ...next }, n);
      niter = merged.niter;
      startTemp = merged.startTemp;
    },
    dispose() {
      stepper.dispose();
    },
  };
  return {
    iteration,
    read: () => stepper.read(new Float64Array(n * dims)),
    get niter() {
      return niter;
    },
  };
}

/** The whole layout: niter steps from the start, with progress and cancellation between steps. */
export function placeFr(dims: Dims, graph: ComputeGraph, params: Record<string, unknown>, ctx: ComputeContext): Float64Array {
  const run = startFr(dims, graph, params, ctx);
  try {
    const total = run.niter;
    for (let i = 0; i < total; i++) {
      ctx.checkCancelled();
      run.iteration.step();
      if (i % 10 === 9 || i === total - 1) ctx.progress({ phase: "fruchterman-reingold", iteration: i + 1, fraction: (i + 1) / total });
    }
    return run.read();
  } finally {
    run.iteration.dispose?.();
  }
}
