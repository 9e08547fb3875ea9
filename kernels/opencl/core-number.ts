// OpenCL version of kernel "core-number" (same args and result as kernels/cpu/core-number.ts): the h-index
// iteration over the nodes whose neighbours' values dropped, until none drops.
import type { CoreNumberArgs } from "../cpu/core-number.ts";
import { Scope } from "./runtime.ts";

export function coreNumberOpenCl(args: CoreNumberArgs): Int32Array {
  const { n, start, nbr, rstart, rnbr } = args;
  const core = new Int32Array(n);
  for (let v = 0; v < n; v++) core[v] = (start[v + 1] as number) - (start[v] as number);
  if (n === 0 || nbr.length === 0) return core;
  const scope = new Scope();
  try {
    const dCore = scope.input(core);
    const dStart = scope.readOnly(start);
    const dNbr = scope.readOnly(nbr);
    const dRstart = scope.readOnly(rstart);
    const dRnbr = scope.readOnly(rnbr);
    let active = scope.filled(new Int32Array([1]), n);
    let next = scope.filled(new Int32Array([0]), n);
    const count = scope.alloc(4 * (nbr.length + n));
    const changed = scope.alloc(4);
    const zero = new Int32Array(1);
    const flag = new Int32Array(1);
    const none = new Int32Array([0]);
    for (;;) {
      scope.write(changed, zero);
      scope.run("core-number", "core_hindex", "immmmmmmmm", [n, dStart, dNbr, dRstart, dRnbr, dCore, active, next, count, changed], n);
      if ((scope.read(changed, flag)[0] as number) === 0) break;
      const swap = active;
      active = next;
      next = swap;
      scope.fillWith(next, none);
    }
    return scope.read(dCore, core);
  } finally {
    scope.done();
  }
}
