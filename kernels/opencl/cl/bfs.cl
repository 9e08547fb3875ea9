// Level-synchronous BFS (kernels/cpu/bfs.ts): one work-item per frontier node per level; dist claimed with
// atomic_cmpxchg, the parent kept as the smallest row one level closer with atomic_min.

__kernel void bfs_level(const int size, __global const int* frontier, __global const int* start,
                        __global const int* nbr, volatile __global int* dist, volatile __global int* pred,
                        __global int* next, volatile __global int* nextSize, const int reach) {
  const int i = get_global_id(0);
  if (i >= size) return;
  const int u = frontier[i];
  const int end = start[u + 1];
  for (int j = start[u]; j < end; j++) {
    const int v = nbr[j];
    // Plain reads first: most neighbours are already settled, and those need no atomic at all.
    const int seen = dist[v];
    if (seen != -1 && seen != reach) continue;
    const int old = seen == -1 ? atomic_cmpxchg(&dist[v], -1, reach) : reach;
    if (old == -1) next[atomic_inc(nextSize)] = v;
    if ((old == -1 || old == reach) && u < pred[v]) atomic_min(&pred[v], u);
  }
}

// Parents never set (sources, unreached nodes) back to -1.
__kernel void bfs_finish(const int n, __global int* pred) {
  const int v = get_global_id(0);
  if (v < n && pred[v] == INT_MAX) pred[v] = -1;
}
