// OpenCL version of kernel "components" (same args and result as kernels/cpu/components.ts): one pass of concurrent
// union-find over the edges, one of pointer jumping; labels are each component's smallest row, as the CPU twin's.
import type { ComponentsArgs } from "../cpu/components.ts";
import { Scope } from "./runtime.ts";

export function componentsOpenCl(args: ComponentsArgs): Int32Array {
  const { n, src, dst } = args;
  const parent = new Int32Array(n);
  for (let i = 0; i < n; i++) parent[i] = i;
  const m = src.length;
  if (n === 0 || m === 0) return parent;
  const scope = new Scope();
  try {
    const dParent = scope.input(parent);
    const dSrc = scope.readOnly(src);
    const dDst = scope.readOnly(dst);
    scope.run("components", "components_hook", "immm", [m, dSrc, dDst, dParent], m);
    scope.run("components", "components_jump", "im", [n, dParent], n);
    return scope.read(dParent, parent);
  } finally {
    scope.done();
  }
}
