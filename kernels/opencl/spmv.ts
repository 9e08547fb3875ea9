// OpenCL version of kernel "spmv" (same args and result as kernels/cpu/spmv.ts).
import type { SpmvArgs } from "../cpu/spmv.ts";
import { Scope } from "./runtime.ts";

const EMPTY = new Float64Array(0);

export function spmvOpenCl(args: SpmvArgs): Float64Array {
  const { n, start, nbr, weight, x } = args;
  const y = args.y ?? new Float64Array(n);
  if (n === 0) return y;
  const scope = new Scope();
  try {
    const dY = scope.alloc(8 * n);
    scope.run(
      "spmv",
      "spmv_pull",
      "immmimm",
      [n, scope.readOnly(start), scope.readOnly(nbr), scope.readOnly(weight ?? EMPTY), weight ? 1 : 0, scope.readOnly(x), dY],
      n,
    );
    return scope.read(dY, y);
  } finally {
    scope.done();
  }
}
