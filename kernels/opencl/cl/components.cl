// Weakly connected components (kernels/cpu/components.ts) by hooking and pointer jumping: parents only ever point
// to smaller rows, so when no edge joins two trees every root is its component's smallest row.

inline int root_of(__global const int* parent, int v) {
  int p = parent[v];
  while (p != v) {
    v = p;
    p = parent[v];
  }
  return v;
}

// Each edge whose ends lie in different trees hooks the larger root under the smaller one.
__kernel void components_hook(const int m, __global const int* src, __global const int* dst,
                              volatile __global int* parent, volatile __global int* changed) {
  const int e = get_global_id(0);
  if (e >= m) return;
  const int a = root_of((__global const int*)parent, src[e]);
  const int b = root_of((__global const int*)parent, dst[e]);
  if (a == b) return;
  const int hi = a > b ? a : b;
  const int lo = a > b ? b : a;
  atomic_min(&parent[hi], lo);
  *changed = 1;
}

// Every node points straight at its root.
__kernel void components_jump(const int n, __global int* parent) {
  const int v = get_global_id(0);
  if (v >= n) return;
  parent[v] = root_of(parent, v);
}
