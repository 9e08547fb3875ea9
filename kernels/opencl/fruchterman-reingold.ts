// OpenCL version of kernel "fruchterman-reingold" (same args and stepper as kernels/cpu/fruchterman-reingold.ts):
// the positions, graph, bounds and igraph's grid (filled once from the start, as igraph does) stay on the device
// between steps; a step is one kernel, with nothing read back until `read`.
import { type FrArgs, type FrStepper, frGrid } from "../cpu/fruchterman-reingold.ts";
import { cl, type Handle, kernel, Scope } from "./runtime.ts";

const EMPTY = new Float64Array(0);
const FILE = "fruchterman-reingold";
const FINISH_EVERY = 8;

export function frStepperOpenCl(args: FrArgs): FrStepper {
  const { n, dims, weight, grid, disconnected, lower, upper, seed } = args;
  if (n === 0) return { step() {}, read: (into) => into, dispose() {} };
  // build the programs now: a device that cannot (CL_BUILD_PROGRAM_FAILURE) fails here, where the context's CPU
  // fallback catches it, not in a later step
  kernel(FILE, grid ? "fr_step_grid" : "fr_step_allpairs");
  const scope = new Scope();
  let disposed = false;
  try {
    const three = dims === 3 ? 1 : 0;
    let pos: Handle = scope.input(args.positions);
    let next: Handle = scope.alloc(8 * n * dims);
    const adjStart = scope.readOnly(args.adjStart);
    const adjNbr = scope.readOnly(args.adjNbr);
    const adjEdge = scope.readOnly(args.adjEdge);
    const dWeight = scope.readOnly(weight ?? EMPTY);
    const bounded = lower && upper ? 1 : 0;
    const dLower = scope.readOnly(lower ?? EMPTY);
    const dUpper = scope.readOnly(upper ?? EMPTY);
    const g = grid ? frGrid(n, dims, args.positions) : null;
    const cells = g ? { steps: g.steps, cellOf: scope.input(g.cellOf), start: scope.input(g.start), order: scope.input(g.order) } : null;
    let steps = 0;
    const stepper: FrStepper = {
      step(temp: number) {
        const t = Math.max(0, temp);
        if (cells) {
          const [sx, sy, sz] = cells.steps;
          scope.run(
            FILE,
            "fr_step_grid",
            "iimmiiimmmmmmmimmiduu",
            [
              n,
              three,
              pos,
              next,
              sx,
              sy,
              sz,
              cells.cellOf,
              cells.start,
              cells.order,
              adjStart,
              adjNbr,
              adjEdge,
              dWeight,
              weight ? 1 : 0,
              dLower,
              dUpper,
              bounded,
              t,
              seed >>> 0,
              steps,
            ],
            n,
          );
        } else {
          scope.run(
            FILE,
            "fr_step_allpairs",
            "iimmmmmmiimmiduu",
            [
              n,
              three,
              pos,
              next,
              adjStart,
              adjNbr,
              adjEdge,
              dWeight,
              weight ? 1 : 0,
              disconnected ? 1 : 0,
              dLower,
              dUpper,
              bounded,
              t,
              seed >>> 0,
              steps,
            ],
            n,
          );
        }
        [pos, next] = [next, pos];
        steps++;
        // steps only enqueue: wait now and then, so the queue stays short and progress / cancellation between
        // steps track the device
        if (steps % FINISH_EVERY === 0) cl().finish();
      },
      read(into: Float64Array) {
        return scope.read(pos, into);
      },
      dispose() {
        if (disposed) return;
        disposed = true;
        scope.done();
      },
    };
    return stepper;
  } catch (error) {
    scope.done();
    throw error;
  }
}
