// Single-source shortest paths (kernels/cpu/sssp.ts) by frontier Bellman-Ford: each round relaxes the edges of the
// nodes whose distance fell (atomic min on the double's bits), which reaches the same exact minima as Dijkstra;
// parents are then the smallest tight neighbour strictly closer (zero-weight ties: the smallest tight one).

inline double weight_of(__global const double* weight, const int unit, __global const int* edge, int j) {
  return unit ? 1.0 : weight[edge[j]];
}

__kernel void sssp_relax(const int size, __global const int* frontier, __global const int* start,
                         __global const int* nbr, __global const int* edge, __global const double* weight,
                         const int unit, const double cutoff, volatile __global double* dist,
                         volatile __global int* queued, __global int* next, volatile __global int* nextSize) {
  const int i = get_global_id(0);
  if (i >= size) return;
  const int u = frontier[i];
  const double du = dist[u];
  const int end = start[u + 1];
  for (int j = start[u]; j < end; j++) {
    const int v = nbr[j];
    const double dv = du + weight_of(weight, unit, edge, j);
    if (dv > cutoff || !(dv < dist[v])) continue;
    const double old = atomic_min_pos_double(&dist[v], dv);
    if (dv < old && atomic_xchg(&queued[v], 1) == 0) next[atomic_inc(nextSize)] = v;
  }
}

// The next frontier's nodes may be queued again.
__kernel void sssp_unqueue(const int size, __global const int* frontier, __global int* queued) {
  const int i = get_global_id(0);
  if (i < size) queued[frontier[i]] = 0;
}

// ties = 0: parents strictly closer; ties = 1: zero-weight ties, for nodes that have no parent yet (pred = INT_MAX).
__kernel void sssp_parents(const int n, __global const int* start, __global const int* nbr, __global const int* edge,
                           __global const double* weight, const int unit, const int source,
                           __global const double* dist, volatile __global int* pred, volatile __global int* tie,
                           const int ties) {
  const int u = get_global_id(0);
  if (u >= n) return;
  const double du = dist[u];
  if (isinf(du)) return;
  const int end = start[u + 1];
  for (int j = start[u]; j < end; j++) {
    const int v = nbr[j];
    if (v == u || v == source) continue;
    const double dv = dist[v];
    if (du + weight_of(weight, unit, edge, j) != dv) continue;
    if (!ties && du < dv) atomic_min(&pred[v], u);
    if (ties && du == dv && pred[v] == INT_MAX) atomic_min(&tie[v], u);
  }
}

__kernel void sssp_finish(const int n, __global int* pred, __global const int* tie) {
  const int v = get_global_id(0);
  if (v >= n) return;
  const int p = pred[v];
  if (p == INT_MAX) pred[v] = tie[v] == INT_MAX ? -1 : tie[v];
}
