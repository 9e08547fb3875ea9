// OpenCL version of kernel "components" (same args and result as kernels/cpu/components.ts): hook and jump until no
// edge joins two trees; labels are each component's smallest row, as the CPU twin's.
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
    const dSrc = scope.input(src);
    const dDst = scope.input(dst);
    const changed = scope.alloc(4);
    const zero = new Int32Array(1);
    const flag = new Int32Array(1);
    for (;;) {
      scope.write(changed, zero);
      scope.run("components", "components_hook", "immmm", [m, dSrc, dDst, dParent, changed], m);
      scope.run("components", "components_jump", "im", [n, dParent], n);
      if ((scope.read(changed, flag)[0] as number) === 0) break;
    }
    return scope.read(dParent, parent);
  } finally {
    scope.done();
  }
}
