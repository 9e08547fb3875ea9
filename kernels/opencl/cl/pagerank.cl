// PageRank's power loop (kernels/cpu/pagerank.ts): pagerank_share makes the first step's shares (x / outWeight) and
// dangling rank; each pagerank_step pulls every node's new value and writes, per work-group, the sum of |x' - x|,
// the largest relative change and the new dangling rank, with the new shares for the next step. Given separate
// buffers it is an exact Jacobi step; given next = x and nextShare = share (inPlace) work-items read values others
// already updated, an asynchronous Gauss-Seidel sweep that converges to the same fixed point in fewer steps.

__kernel void pagerank_share(const int n, __global const double* x, __global const double* outWeight,
                             __global double* share, __global double* danglingParts) {
  __local double scratch[WG];
  const int v = get_global_id(0);
  double dangling = 0.0;
  if (v < n) {
    const double ow = outWeight[v];
    if (ow == 0.0) {
      dangling = x[v];
      share[v] = 0.0;
    } else {
      share[v] = x[v] / ow;
    }
  }
  group_sum(dangling, scratch, danglingParts);
}

// weighted/personalized: 0 or 1 (weight and personalization buffers are placeholders when 0).
__kernel void pagerank_step(const int n, __global const int* start, __global const int* nbr,
                            __global const double* weight, const int weighted, __global const double* share,
                            __global const double* personalization, const int personalized, const double damping,
                            const double dangling, __global const double* outWeight, __global const double* x,
                            __global double* next, __global double* nextShare, __global double* errParts,
                            __global double* worstParts, __global double* danglingParts) {
  __local double scratch[WG];
  const int i = get_global_id(0);
  double err = 0.0;
  double worst = 0.0;
  double nextDangling = 0.0;
  if (i < n) {
    double sum = 0.0;
    const int end = start[i + 1];
    if (weighted) {
      for (int j = start[i]; j < end; j++) sum += share[nbr[j]] * weight[j];
    } else {
      for (int j = start[i]; j < end; j++) sum += share[nbr[j]];
    }
    const double p = personalized ? personalization[i] : 1.0 / (double)n;
    const double value = damping * (sum + dangling * p) + (1.0 - damping) * p;
    err = fabs(value - x[i]);
    next[i] = value;
    if (err > 0.0) worst = value > 0.0 ? err / value : INFINITY;
    const double ow = outWeight[i];
    if (ow == 0.0) {
      nextDangling = value;
      nextShare[i] = 0.0;
    } else {
      nextShare[i] = value / ow;
    }
  }
  group_sum(err, scratch, errParts);
  barrier(CLK_LOCAL_MEM_FENCE);
  group_max(worst, scratch, worstParts);
  barrier(CLK_LOCAL_MEM_FENCE);
  group_sum(nextDangling, scratch, danglingParts);
}
