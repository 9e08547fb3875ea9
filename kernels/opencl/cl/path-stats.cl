// Per-source BFS summaries (kernels/cpu/path-stats.ts): each lane runs whole searches exactly as the CPU twin does
// (same queue order, so the same sums), sources b = lane, lane + lanes, ...; scratch (dist, queue) at lane * n.

__kernel void path_stats_lanes(const int n, __global const int* start, __global const int* nbr,
                               __global const int* sources, const int count, const int cutoff, const int lanes,
                               __global int* distAll, __global int* queueAll, __global double* sum,
                               __global int* reached, __global double* harmonic, __global double* farthest) {
  const int lane = get_global_id(0);
  if (lane >= lanes) return;
  const size_t base = (size_t)lane * (size_t)n;
  __global int* dist = distAll + base;
  __global int* queue = queueAll + base;
  const int limit = cutoff < 0 ? INT_MAX : cutoff;
  for (int b = lane; b < count; b += lanes) {
    const int s = sources[b];
    int head = 0;
    int tail = 1;
    queue[0] = s;
    dist[s] = 0;
    double total = 0.0;
    double inverse = 0.0;
    int far = 0;
    while (head < tail) {
      const int v = queue[head++];
      const int dv = dist[v];
      if (dv > 0) {
        total += (double)dv;
        inverse += 1.0 / (double)dv;
        if (dv > far) far = dv;
      }
      if (dv >= limit) continue;
      const int end = start[v + 1];
      for (int j = start[v]; j < end; j++) {
        const int w = nbr[j];
        if (dist[w] < 0) {
          dist[w] = dv + 1;
          queue[tail++] = w;
        }
      }
    }
    sum[b] = total;
    reached[b] = tail;
    harmonic[b] = inverse;
    farthest[b] = (double)far;
    for (int k = 0; k < tail; k++) dist[queue[k]] = -1;
  }
}
