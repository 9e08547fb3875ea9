// Fruchterman-Reingold steps (kernels/cpu/fruchterman-reingold.ts is the CPU twin; the same formulas, hashes and
// bounds): one work-item per vertex gathers its repulsion (all pairs, or the vertices of the 3^dims cells around
// it closer than 2) and its attraction over the undirected adjacency, then moves the vertex by the capped
// displacement into the other position buffer. The grid is rebuilt on the device every step: bounding box
// (fr_bounds_part, fr_bounds_final -> geom), a count per cell, an exclusive scan, a scatter and a sort of each
// cell's vertices (so sums run in one order and a run is deterministic).

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

// The capped move of v by displacement f (plus the jitter), clamped to v's bounds, into next.
inline void fr_move(__global double* next, int v, double3 pv, double3 f, double temp, uint seed, uint step,
                    __global const double* lower, __global const double* upper, int bounded, int three) {
  const uint h = fr_hash(seed, step, (uint)v);
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
  fr_move(next, v, pv, f, temp, seed, step, lower, upper, bounded, three);
}

// Per work-group min and max of each axis: parts[g * 6 + k] = min, parts[g * 6 + 3 + k] = max.
__kernel void fr_bounds_part(const int n, const int three, __global const double* pos, __global double* parts) {
  __local double lo[WG];
  __local double hi[WG];
  const int v = get_global_id(0);
  const int l = get_local_id(0);
  const int dims = three ? 3 : 2;
  for (int k = 0; k < dims; k++) {
    lo[l] = v < n ? pos[v * dims + k] : INFINITY;
    hi[l] = v < n ? pos[v * dims + k] : -INFINITY;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = WG / 2; s > 0; s >>= 1) {
      if (l < s) {
        lo[l] = fmin(lo[l], lo[l + s]);
        hi[l] = fmax(hi[l], hi[l + s]);
      }
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0) {
      parts[get_group_id(0) * 6 + k] = lo[0];
      parts[get_group_id(0) * 6 + 3 + k] = hi[0];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

// One work-item: the box from the parts, then the cell size (2, grown by 1.5x until at most cap cells, as
// frCellSize) into geom = [ox, oy, oz, cell, sx, sy, sz, total].
__kernel void fr_bounds_final(const int parts, const int three, __global const double* part, const int cap,
                              __global double* geom) {
  if (get_global_id(0) != 0) return;
  const int dims = three ? 3 : 2;
  double lo[3] = {INFINITY, INFINITY, INFINITY};
  double hi[3] = {-INFINITY, -INFINITY, -INFINITY};
  for (int g = 0; g < parts; g++)
    for (int k = 0; k < dims; k++) {
      lo[k] = fmin(lo[k], part[g * 6 + k]);
      hi[k] = fmax(hi[k], part[g * 6 + 3 + k]);
    }
  double cell = 2.0;
  double counts[3] = {1.0, 1.0, 1.0};
  for (;;) {
    double total = 1.0;
    for (int k = 0; k < dims; k++) {
      counts[k] = floor((hi[k] - lo[k]) / cell) + 1.0;
      total *= counts[k];
    }
    if (total <= (double)cap || !isfinite(total)) break;
    cell *= 1.5;
  }
  geom[0] = lo[0];
  geom[1] = lo[1];
  geom[2] = three ? lo[2] : 0.0;
  geom[3] = cell;
  geom[4] = counts[0];
  geom[5] = counts[1];
  geom[6] = counts[2];
  geom[7] = counts[0] * counts[1] * counts[2];
}

inline int fr_cell_axis(double x, double o, double cell, int s) { return min(s - 1, (int)floor((x - o) / cell)); }

__kernel void fr_cells_count(const int n, const int three, __global const double* pos, __global const double* geom,
                             __global int* cellOf, volatile __global int* count) {
  const int v = get_global_id(0);
  if (v >= n) return;
  const double cell = geom[3];
  const int sx = (int)geom[4];
  const int sy = (int)geom[5];
  const int sz = (int)geom[6];
  const double3 p = fr_load(pos, v, three);
  const int cx = fr_cell_axis(p.x, geom[0], cell, sx);
  const int cy = fr_cell_axis(p.y, geom[1], cell, sy);
  const int cz = three ? fr_cell_axis(p.z, geom[2], cell, sz) : 0;
  const int c = cx + sx * (cy + sy * cz);
  cellOf[v] = c;
  atomic_inc(&count[c]);
}

// Exclusive scan of count[0 .. cap) into start, step 1: within each work-group, with each group's sum.
__kernel void fr_scan_groups(const int cap, __global const int* count, __global int* start, __global int* sums) {
  __local int scratch[WG];
  const int i = get_global_id(0);
  const int l = get_local_id(0);
  const int value = i < cap ? count[i] : 0;
  scratch[l] = value;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = 1; s < WG; s <<= 1) {
    const int add = l >= s ? scratch[l - s] : 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    scratch[l] += add;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (i < cap) start[i] = scratch[l] - value;
  if (l == WG - 1) sums[get_group_id(0)] = scratch[l];
}

// Step 2 (one work-item): the groups' sums scanned in place (exclusive); start[cap] = the total.
__kernel void fr_scan_sums(const int groups, const int cap, __global int* sums, __global int* start) {
  if (get_global_id(0) != 0) return;
  int run = 0;
  for (int g = 0; g < groups; g++) {
    const int s = sums[g];
    sums[g] = run;
    run += s;
  }
  start[cap] = run;
}

// Step 3: each group's offset added; the scatter's fill counters zeroed.
__kernel void fr_scan_add(const int cap, __global int* start, __global const int* sums, __global int* fill) {
  const int i = get_global_id(0);
  if (i >= cap) return;
  start[i] += sums[get_group_id(0)];
  fill[i] = 0;
}

__kernel void fr_cells_scatter(const int n, __global const int* cellOf, __global const int* start,
                               volatile __global int* fill, __global int* order) {
  const int v = get_global_id(0);
  if (v >= n) return;
  const int c = cellOf[v];
  order[start[c] + atomic_inc(&fill[c])] = v;
}

// Each cell's vertices in vertex order (insertion sort: cells hold a few vertices); the cell's count zeroed for
// the next step.
__kernel void fr_cells_sort(const int cells, __global const int* start, __global int* order, __global int* count) {
  const int c = get_global_id(0);
  if (c >= cells) return;
  count[c] = 0;
  const int a = start[c];
  const int b = start[c + 1];
  for (int i = a + 1; i < b; i++) {
    const int x = order[i];
    int j = i - 1;
    while (j >= a && order[j] > x) {
      order[j + 1] = order[j];
      j--;
    }
    order[j + 1] = x;
  }
}

__kernel void fr_step_grid(const int n, const int three, __global const double* pos, __global double* next,
                           __global const double* geom, __global const int* start, __global const int* order,
                           __global const int* adjStart, __global const int* adjNbr, __global const int* adjEdge,
                           __global const double* weight, const int weighted, __global const double* lower,
                           __global const double* upper, const int bounded, const double temp, const uint seed,
                           const uint step) {
  const int v = get_global_id(0);
  if (v >= n) return;
  const double cell = geom[3];
  const int sx = (int)geom[4];
  const int sy = (int)geom[5];
  const int sz = (int)geom[6];
  const double3 pv = fr_load(pos, v, three);
  const int cx = fr_cell_axis(pv.x, geom[0], cell, sx);
  const int cy = fr_cell_axis(pv.y, geom[1], cell, sy);
  const int cz = three ? fr_cell_axis(pv.z, geom[2], cell, sz) : 0;
  const int zr = three ? 1 : 0;
  double3 f = (double3)(0.0, 0.0, 0.0);
  for (int oz = -zr; oz <= zr; oz++) {
    const int z = cz + oz;
    if (z < 0 || z >= sz) continue;
    for (int oy = -1; oy <= 1; oy++) {
      const int y = cy + oy;
      if (y < 0 || y >= sy) continue;
      for (int ox = -1; ox <= 1; ox++) {
        const int x = cx + ox;
        if (x < 0 || x >= sx) continue;
        const int c = x + sx * (y + sy * z);
        const int end = start[c + 1];
        for (int s = start[c]; s < end; s++) {
          const int u = order[s];
          if (u == v) continue;
          double3 d = pv - fr_load(pos, u, three);
          double dlen = d.x * d.x + d.y * d.y + d.z * d.z;
          if (dlen >= FR_CUT) continue;
          if (dlen == 0.0) {
            d = fr_coincident(seed, step, v, u, three);
            dlen = d.x * d.x + d.y * d.y + d.z * d.z;
          }
          f += d * (1.0 / dlen);
        }
      }
    }
  }
  f += fr_attract(pos, v, pv, adjStart, adjNbr, adjEdge, weight, weighted, three);
  fr_move(next, v, pv, f, temp, seed, step, lower, upper, bounded, three);
}
