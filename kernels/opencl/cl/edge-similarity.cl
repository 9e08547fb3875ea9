// Per-pair neighbour-set similarity (kernels/cpu/edge-similarity.ts): one work-item per pair, merging both sorted
// lists or binary-searching the longer one when it is 16x longer; metric 0 Jaccard, 1 overlap, 2 Sorensen.

__kernel void edge_similarity(const int pairs, __global const int* start, __global const int* nbr,
                              __global const double* wt, const int weighted, __global const double* total,
                              __global const int* src, __global const int* dst, const int metric,
                              __global double* out) {
  const int e = get_global_id(0);
  if (e >= pairs) return;
  int u = src[e];
  int v = dst[e];
  int ub = start[u], ue = start[u + 1], vb = start[v], ve = start[v + 1];
  if (ue - ub > ve - vb) {
    int t = u; u = v; v = t;
    t = ub; ub = vb; vb = t;
    t = ue; ue = ve; ve = t;
  }
  double shared = 0.0;
  if (ve - vb > 16 * (ue - ub)) {
    int lo = vb;
    for (int i = ub; i < ue; i++) {
      const int x = nbr[i];
      int hi = ve;
      while (lo < hi) {
        const int mid = (int)(((unsigned)lo + (unsigned)hi) >> 1);
        if (nbr[mid] < x) lo = mid + 1;
        else hi = mid;
      }
      if (lo < ve && nbr[lo] == x) {
        shared += weighted ? fmin(wt[i], wt[lo]) : 1.0;
        lo++;
      }
    }
  } else {
    int i = ub, j = vb;
    while (i < ue && j < ve) {
      const int x = nbr[i];
      const int y = nbr[j];
      if (x < y) i++;
      else if (y < x) j++;
      else {
        shared += weighted ? fmin(wt[i], wt[j]) : 1.0;
        i++;
        j++;
      }
    }
  }
  const double tu = total[u];
  const double tv = total[v];
  double r;
  if (metric == 0) r = shared / (tu + tv - shared);
  else if (metric == 1) r = shared / (tu < tv ? tu : tv);
  else r = (2.0 * shared) / (tu + tv);
  out[e] = r;
}
