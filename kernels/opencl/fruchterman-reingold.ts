// OpenCL version of kernel "fruchterman-reingold" (same args and stepper as kernels/cpu/fruchterman-reingold.ts):
// the positions, graph, bounds and igraph's grid (filled once from the start, as igraph does) stay on the device
// between steps; a step is one kernel, with nothing read back until `read`.
import type { FrArgs, FrStepper } from "../cpu/fruchterman-reingold.ts";
import { frGatherRuns, frGrid, permuted } from "../cpu/fruchterman-reingold-grid.ts";
import { cl, type Handle, kernel, Scope } from "./runtime.ts";

const EMPTY = new Float64Array(0);
const FILE = "fruchterman-reingold";
const FINISH_EVERY = 8;

/** The undirected adjacency over slots: slot i lists the slots of vertex perm[i]'s neighbours (edge ids kept). */
function slotAdjacency(args: FrArgs, perm: Int32Array): { start: Int32Array; nbr: Int32Array; edge: Int32Array } {
  const { n, adjStart, adjNbr, adjEdge } = args;
  const slotOf = new Int32Array(n);
  for (let i = 0; i < n; i++) slotOf[perm[i] as number] = i;
  const start = new Int32Array(n + 1);
  const nbr = new Int32Array(adjNbr.length);
  const edge = new Int32Array(adjEdge.length);
  for (let i = 0; i < n; i++) {
    const v = perm[i] as number;
    let k = start[i] as number;
    for (let j = adjStart[v] as number; j < (adjStart[v + 1] as number); j++, k++) {
      nbr[k] = slotOf[adjNbr[j] as number] as number;
      edge[k] = adjEdge[j] as number;
    }
    start[i + 1] = k;
  }
  return { start, nbr, edge };
}

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
    // the grid form runs in cell order (slot i = vertex perm[i]): a work-group's vertices share cells and read the
    // same neighbours
    const g = grid ? frGrid(n, dims, args.positions) : null;
    const perm = g ? g.order : null;
    const slots = perm ? slotAdjacency(args, perm) : null;
    const inSlots = (values: Float64Array) => (perm ? permuted(values, perm, dims) : values);
    let pos: Handle = scope.input(inSlots(args.positions));
    let next: Handle = scope.alloc(8 * n * dims);
    const adjStart = scope.readOnly(slots ? slots.start : args.adjStart);
    const adjNbr = scope.readOnly(slots ? slots.nbr : args.adjNbr);
    const adjEdge = scope.readOnly(slots ? slots.edge : args.adjEdge);
    const dWeight = scope.readOnly(weight ?? EMPTY);
    const bounded = lower && upper ? 1 : 0;
    const dLower = scope.readOnly(lower ? inSlots(lower) : EMPTY);
    const dUpper = scope.readOnly(upper ? inSlots(upper) : EMPTY);
    const gather = g ? frGatherRuns(g, n, dims === 3) : null;
    const cells = g && gather ? { runs: scope.input(gather.runs), count: gather.count, order: scope.input(g.order) } : null;
    const host = perm ? new Float64Array(n * dims) : null;
    let steps = 0;
    const stepper: FrStepper = {
      step(temp: number) {
        const t = Math.max(0, temp);
        if (cells) {
          scope.run(
            FILE,
            "fr_step_grid",
            "iimmmimmmmmimmiduu",
            [
              n,
              three,
              pos,
              next,
              cells.runs,
              cells.count,
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
        if (!perm || !host) return scope.read(pos, into);
        scope.read(pos, host);
        for (let i = 0; i < n; i++) for (let k = 0; k < dims; k++) into[(perm[i] as number) * dims + k] = host[i * dims + k] as number;
        return into;
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
