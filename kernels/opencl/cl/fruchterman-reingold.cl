// Fruchterman-Reingold steps (kernels/cpu/fruchterman-reingold.ts is the CPU twin; the same formulas, hashes and
// bounds): one work-item per vertex gathers its repulsion (all pairs, or igraph's grid pairs closer than 2) and its
// attraction over the undirected adjacency, then moves the vertex by the capped displacement into the other
// position buffer. The grid is igraph's, filled once from the start layout (frGrid): a cell meets itself and its
// forward cells (+x, +y, +x+y; in 3D the forward octant), so a vertex gathers over its own cell and the forward and
// backward ones, its cells' vertices in vertex order (a run is deterministic).

#define FR_CUT 4.0 /* igraph's cell size 2, squared */

inline uint fr_fmix32(uint h) {
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}

inline uint fr_hash(uint seed, uint step, uint a) { return fr_fmix32(a * 0x9e3779b1u + step * 0x85ebca77u + seed); }

inline double fr_jitter(uint h, int part) {
  const uint bits = part == 0 ? (h & 0xffffu) : (h >> 16);
  return ((double)bits / 32768.0 - 1.0) * 1e-9;
}

// The tiny direction a coincident pair (v, u) pushes v along (u gets the opposite one).
inline double3 fr_coincident(uint seed, uint step, int v, int u, int three) {
  const int lo = min(v, u);
  const int hi = max(v, u);
  const uint h = fr_hash(seed ^ 0x5bd1e995u, step, ((uint)lo * 0x01000193u) ^ (uint)hi);
  double3 t = (double3)(fr_jitter(h, 0), fr_jitter(h, 1), three ? fr_jitter(fr_fmix32(h), 0) : 0.0);
  if (t.x == 0.0 && t.y == 0.0 && t.z == 0.0) t.x = 1e-9;
  return v < u ? t : -t;
}

inline double3 fr_load(__global const double* pos, int i, int three) {
  return three ? (double3)(pos[i * 3], pos[i * 3 + 1], pos[i * 3 + 2]) : (double3)(pos[i * 2], pos[i * 2 + 1], 0.0);
}

// Attraction on v along its edges: -d * |d| * w for each (d = p_v - p_u).
inline double3 fr_attract(__global const double* pos, int v, double3 pv, __global const int* adjStart,
                          __global const int* adjNbr, __global const int* adjEdge, __global const double* weight,
                          int weighted, int three) {
  double3 f = (double3)(0.0, 0.0, 0.0);
  const int end = adjStart[v + 1];
  for (int j = adjStart[v]; j < end; j++) {
    const double3 d = pv - fr_load(pos, adjNbr[j], three);
    const double dlen = sqrt(d.x * d.x + d.y * d.y + d.z * d.z) * (weighted ? weight[adjEdge[j]] : 1.0);
    f -= d * dlen;
  }
  return f;
}

// The capped move of slot v (vertex id: the jitter's hash) by displacement f, clamped to v's bounds, into next.
inline void fr_move(__global double* next, int v, int id, double3 pv, double3 f, double temp, uint seed, uint step,
                    __global const double* lower, __global const double* upper, int bounded, int three) {
  const uint h = fr_hash(seed, step, (uint)id);
  double3 d = (double3)(f.x + fr_jitter(h, 0), f.y + fr_jitter(h, 1), three ? f.z + fr_jitter(fr_fmix32(h), 0) : 0.0);
  const double displen = sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
  if (displen > temp) {
    const double s = temp / displen;
    d *= s;
  }
  double3 p = pv;
  if (displen > 0.0) p += d;
  const int dims = three ? 3 : 2;
  double out[3] = {p.x, p.y, p.z};
  for (int k = 0; k < dims; k++) {
    double x = out[k];
    if (bounded) {
      const double l = lower[v * dims + k];
      const double u = upper[v * dims + k];
      if (x < l) x = l;
      else if (x > u) x = u;
    }
    next[v * dims + k] = x;
  }
}

__kernel void fr_step_allpairs(const int n, const int three, __global const double* pos, __global double* next,
                               __global const int* adjStart, __global const int* adjNbr, __global const int* adjEdge,
                               __global const double* weight, const int weighted, const int disconnected,
                               __global const double* lower, __global const double* upper, const int bounded,
                               const double temp, const uint seed, const uint step) {
  const int v = get_global_id(0);
  if (v >= n) return;
  const double C = (double)n * sqrt((double)n);
  const double3 pv = fr_load(pos, v, three);
  double3 f = (double3)(0.0, 0.0, 0.0);
  for (int u = 0; u < n; u++) {
    if (u == v) continue;
    double3 d = pv - fr_load(pos, u, three);
    double dlen = d.x * d.x + d.y * d.y + d.z * d.z;
    if (dlen == 0.0) {
      d = fr_coincident(seed, step, v, u, three);
      dlen = d.x * d.x + d.y * d.y + d.z * d.z;
    }
    const double s = disconnected ? (C - dlen * sqrt(dlen)) / (dlen * C) : 1.0 / dlen;
    f += d * s;
  }
  f += fr_attract(pos, v, pv, adjStart, adjNbr, adjEdge, weight, weighted, three);
  fr_move(next, v, v, pv, f, temp, seed, step, lower, upper, bounded, three);
}

// The grid form, in cell order: slot i holds vertex order[i] (pos, bounds and the adjacency are over slots; the
// hashes take vertex ids); runs[(i * count + r) * 2 ..] are the [from, to) slot runs of the cells around i that
// igraph's grid pairs it with (frGatherRuns), i itself among the first.
__kernel void fr_step_grid(const int n, const int three, __global const double* pos, __global double* next,
                           __global const int* runs, const int count, __global const int* order,
                           __global const int* adjStart, __global const int* adjNbr, __global const int* adjEdge,
                           __global const double* weight, const int weighted, __global const double* lower,
                           __global const double* upper, const int bounded, const double temp, const uint seed,
                           const uint step) {
  const int i = get_global_id(0);
  if (i >= n) return;
  const double3 pv = fr_load(pos, i, three);
  double3 f = (double3)(0.0, 0.0, 0.0);
  for (int r = 0; r < count; r++) {
    const int end = runs[(i * count + r) * 2 + 1];
    for (int j = runs[(i * count + r) * 2]; j < end; j++) {
      if (j == i) continue;
      double3 d = pv - fr_load(pos, j, three);
      double dlen = d.x * d.x + d.y * d.y + d.z * d.z;
      if (dlen >= FR_CUT) continue;
      if (dlen == 0.0) {
        d = fr_coincident(seed, step, order[i], order[j], three);
        dlen = d.x * d.x + d.y * d.y + d.z * d.z;
      }
      f += d * (1.0 / dlen);
    }
  }
  f += fr_attract(pos, i, pv, adjStart, adjNbr, adjEdge, weight, weighted, three);
  fr_move(next, i, order[i], pv, f, temp, seed, step, lower, upper, bounded, three);
}
