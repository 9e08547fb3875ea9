// Brandes dependency accumulation (kernels/cpu/brandes.ts) with each lane (work-item) running whole single-source
// passes exactly as the CPU twin does, sources b = lane, lane + lanes, ...; the lane's scratch (dist, sigma, delta,
// order: n each) lies at lane * n; node and edge sums are added atomically.

__kernel void brandes_lanes(const int n, __global const int* start, __global const int* nbr, __global const int* link,
                            const int hasLink, __global const int* sources, const int count, const int cutoff,
                            const int endpoints, const int lanes, __global int* distAll, __global double* sigmaAll,
                            __global double* deltaAll, __global int* orderAll, volatile __global double* node,
                            volatile __global double* edge) {
  const int lane = get_global_id(0);
  if (lane >= lanes) return;
  const size_t base = (size_t)lane * (size_t)n;
  __global int* dist = distAll + base;
  __global double* sigma = sigmaAll + base;
  __global double* delta = deltaAll + base;
  __global int* order = orderAll + base;
  const int limit = cutoff < 0 ? INT_MAX : cutoff;
  for (int b = lane; b < count; b += lanes) {
    const int s = sources[b];
    int head = 0;
    int tail = 1;
    order[0] = s;
    dist[s] = 0;
    sigma[s] = 1.0;
    while (head < tail) {
      const int v = order[head++];
      const int dv = dist[v];
      if (dv >= limit) continue;
      const double sv = sigma[v];
      const int end = start[v + 1];
      for (int j = start[v]; j < end; j++) {
        const int w = nbr[j];
        const int dw = dist[w];
        if (dw < 0) {
          dist[w] = dv + 1;
          sigma[w] = sv;
          order[tail++] = w;
        } else if (dw == dv + 1) {
          sigma[w] += sv;
        }
      }
    }
    for (int k = tail - 1; k >= 0; k--) {
      const int v = order[k];
      const int dv = dist[v];
      const double sv = sigma[v];
      double dep = 0.0;
      if (dv < limit) {
        const int end = start[v + 1];
        for (int j = start[v]; j < end; j++) {
          const int w = nbr[j];
          if (dist[w] == dv + 1) {
            const double c = (sv / sigma[w]) * (1.0 + delta[w]);
            dep += c;
            if (hasLink) atomic_add_double(&edge[link[j]], c);
          }
        }
      }
      delta[v] = dep;
      if (v != s) atomic_add_double(&node[v], dep + (endpoints ? 1.0 : 0.0));
    }
    if (endpoints) atomic_add_double(&node[s], (double)(tail - 1));
    for (int k = 0; k < tail; k++) {
      const int v = order[k];
      dist[v] = -1;
      sigma[v] = 0.0;
      delta[v] = 0.0;
    }
  }
}
