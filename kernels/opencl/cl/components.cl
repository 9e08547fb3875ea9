// Weakly connected components (kernels/cpu/components.ts) as a concurrent union-find (ECL-CC's hooking): each
// edge links the larger of its two roots under the smaller with compare-and-swap, retrying from whatever the root
// became, so one pass over the edges joins every component; then every node points straight at its root. Parents
// only ever point to smaller rows, so each root is its component's smallest row, as the CPU twin's labels.

// The root of v, halving the path on the way (a non-root's parent only moves to an ancestor, so the plain writes
// never undo a link).
inline int find_root(volatile __global int* parent, int v) {
  int p = parent[v];
  while (p != v) {
    const int g = parent[p];
    if (g != p) parent[v] = g;
    v = p;
    p = g;
  }
  return v;
}

__kernel void components_hook(const int m, __global const int* src, __global const int* dst,
                              volatile __global int* parent) {
  const int e = get_global_id(0);
  if (e >= m) return;
  int a = find_root(parent, src[e]);
  int b = find_root(parent, dst[e]);
  while (a != b) {
    if (a < b) {
      const int seen = atomic_cmpxchg(&parent[b], b, a);
      if (seen == b) break;
      b = find_root(parent, seen);
    } else {
      const int seen = atomic_cmpxchg(&parent[a], a, b);
      if (seen == a) break;
      a = find_root(parent, seen);
    }
  }
}

__kernel void components_jump(const int n, volatile __global int* parent) {
  const int v = get_global_id(0);
  if (v >= n) return;
  parent[v] = find_root(parent, v);
}
