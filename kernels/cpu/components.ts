// Kernel "components": weakly connected components by union-find over the edge list (min-root linking).
//
// Args (one plain object):
//   n         number of nodes
//   src, dst  Int32Array edge endpoints (direction ignored)
// Result: Int32Array label per node = the smallest node row of its component. Linking a larger root under the
// smaller one keeps every root the minimum of its set; an OpenCL version reaches the same labels by min-label
// propagation (hooking with atomic_min, then pointer jumping) until nothing changes.

export type ComponentsArgs = { n: number; src: Int32Array; dst: Int32Array };

export function components(args: ComponentsArgs): Int32Array {
  const { n, src, dst } = args;
  const parent = new Int32Array(n);
  for (let i = 0; i < n; i++) parent[i] = i;
  for (let e = 0; e < src.length; e++) {
    let a = src[e] as number;
    let b = dst[e] as number;
    // Find both roots with path halving.
    while ((parent[a] as number) !== a) {
      const g = parent[parent[a] as number] as number;
      parent[a] = g;
      a = g;
    }
    while ((parent[b] as number) !== b) {
      const g = parent[parent[b] as number] as number;
      parent[b] = g;
      b = g;
    }
    if (a < b) parent[b] = a;
    else if (b < a) parent[a] = b;
  }
  // Parents always point to smaller rows, so one pass in increasing row order flattens every chain.
  for (let i = 0; i < n; i++) parent[i] = parent[parent[i] as number] as number;
  return parent;
}
