// OpenCL version of kernel "fruchterman-reingold" (same args and stepper as kernels/cpu/fruchterman-reingold.ts):
// the positions, graph, bounds and grid buffers stay on the device between steps; a step is one kernel (all pairs)
// or seven (the grid rebuilt from the current positions, then the step), with nothing read back until `read`.
import { type FrArgs, type FrStepper, frCellCap } from "../cpu/fruchterman-reingold.ts";
import { groups, type Handle, kernel, Scope } from "./runtime.ts";

const EMPTY = new Float64Array(0);
const FILE = "fruchterman-reingold";
const GRID_KERNELS = [
  "fr_bounds_part",
  "fr_bounds_final",
  "fr_cells_count",
  "fr_scan_groups",
  "fr_scan_sums",
  "fr_scan_add",
  "fr_cells_scatter",
  "fr_cells_sort",
  "fr_step_grid",
];

export function frStepperOpenCl(args: FrArgs): FrStepper {
  const { n, dims, weight, grid, disconnected, lower, upper, seed } = args;
  if (n === 0) return { step() {}, read: (into) => into, dispose() {} };
  // build the programs now: a device that cannot (CL_BUILD_PROGRAM_FAILURE) fails here, where the context's CPU
  // fallback catches it, not in a later step
  for (const name of grid ? GRID_KERNELS : ["fr_step_allpairs"]) kernel(FILE, name);
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
    const cap = frCellCap(n);
    const parts = groups(n);
    const capGroups = groups(cap);
    const cells = grid
      ? {
          part: scope.alloc(8 * 6 * parts),
          geom: scope.alloc(8 * 8),
          cellOf: scope.alloc(4 * n),
          count: scope.filled(new Int32Array([0]), cap),
          fill: scope.alloc(4 * cap),
          start: scope.alloc(4 * (cap + 1)),
          sums: scope.alloc(4 * capGroups),
          order: scope.alloc(4 * n),
        }
      : null;
    let steps = 0;
    const stepper: FrStepper = {
      step(temp: number) {
        const t = Math.max(0, temp);
        if (cells) {
          const { part, geom, cellOf, count, fill, start, sums, order } = cells;
          scope.run(FILE, "fr_bounds_part", "iimm", [n, three, pos, part], n);
          scope.run(FILE, "fr_bounds_final", "iimim", [parts, three, part, cap, geom], 1);
          scope.run(FILE, "fr_cells_count", "iimmmm", [n, three, pos, geom, cellOf, count], n);
          scope.run(FILE, "fr_scan_groups", "immm", [cap, count, start, sums], cap);
          scope.run(FILE, "fr_scan_sums", "iimm", [capGroups, cap, sums, start], 1);
          scope.run(FILE, "fr_scan_add", "immm", [cap, start, sums, fill], cap);
          scope.run(FILE, "fr_cells_scatter", "immmm", [n, cellOf, start, fill, order], n);
          scope.run(FILE, "fr_cells_sort", "immm", [cap, start, order, count], cap);
          scope.run(
            FILE,
            "fr_step_grid",
            "iimmmmmmmmmimmiduu",
            [
              n,
              three,
              pos,
              next,
              geom,
              start,
              order,
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
