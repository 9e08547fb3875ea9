// ForceAtlas2 (kernels/cpu/force-atlas2.ts; cuGraph's fa2_kernels.cuh and bh_kernels.cuh) in fp32 as cuGraph runs
// it. Repulsion by a stackless walk of the host-built quadtree (cells in preorder with skip pointers), per body
// group of the Morton order: fa2_repulsion_items (a work-item per body, GPUs) or fa2_repulsion_groups (a work-item
// per group, CPU devices); fa2_node_forces adds gravity and attraction gathered over the node's undirected adjacency
// (no atomics) and the node's swinging and traction against its previous force; fa2_sums sums both per group for
// the global speed. fa2_update moves every node by the speed the host adapted from those
// sums and keeps the force for the next step.

#define FA2_FLT_EPSILON 1.1920928955078125e-7f
// Bodies per walk group: FA2_GROUP of kernels/cpu/force-atlas2.ts.
#define FA2_GROUP 32

// Flags: bit 0 outbound attraction distribution, 1 LinLog, 2 prevent overlapping, 3 strong gravity,
// 4 edge factors given, 5 radii given.
// Bodies walk the tree in groups of FA2_GROUP consecutive bodies of the Morton order; a cell is accepted for the
// whole group when the group's bounding box (groupBox: min x, min y, max x, max y) is far enough, as cuGraph's
// warps vote: (dmin^2 + eps) * theta^2 >= width^2, else opened (c + 1); leaves pair exactly.

// The pair force factor between a body (mi, ri) and body j at squared distance d2 (eps included).
inline float fa2_pair(const float d2, const float mi, const float mj, const float ri, const float rj, const bool overlap,
                      const float kr, const float krOverlap) {
  if (!overlap) return kr * mi * mj / d2;
  const float d = sqrt(d2);
  if (d <= ri + rj) return krOverlap * mi * mj / d;
  return kr * mi * mj / (d * (d - ri - rj + FA2_FLT_EPSILON));
}

// Repulsion, one work-item per body (GPUs): the work-items of a work-group (one body group) take one path.
__kernel void fa2_repulsion_items(const int n, __global const float* xs, __global const float* ys,
                                  __global const float* mass, __global const float* radius, __global const int* order,
                                  __global const int* cellStart, __global const int* cellEnd,
                                  __global const int* cellSkip, __global const float4* cell, const int cells,
                                  __global const float4* groupBox, const int flags, const float kr,
                                  const float krOverlap, const float theta2, const float eps, __global float* repX,
                                  __global float* repY) {
  const int k = get_global_id(0);
  if (k >= n) return;
  const float4 box = groupBox[get_group_id(0)];
  const int i = order[k];
  const bool overlap = (flags & 4) != 0;
  const bool hasRadius = (flags & 32) != 0;
  const float px = xs[i];
  const float py = ys[i];
  const float mi = mass[i];
  const float ri = hasRadius ? radius[i] : 1.0f;
  float vx = 0.0f;
  float vy = 0.0f;
  int c = 0;
  while (c < cells) {
    const int s = cellStart[c];
    if (s >= 0) {
      const int e = cellEnd[c];
      for (int q = s; q < e; q++) {
        const int j = order[q];
        if (j == i) continue;
        const float dx = px - xs[j];
        const float dy = py - ys[j];
        const float f = fa2_pair(dx * dx + dy * dy + eps, mi, mass[j], ri, hasRadius ? radius[j] : 1.0f, overlap, kr, krOverlap);
        vx += dx * f;
        vy += dy * f;
      }
      c = cellSkip[c];
      continue;
    }
    const float4 cl = cell[c];
    const float ex = fmax(fmax(box.x - cl.x, 0.0f), cl.x - box.z);
    const float ey = fmax(fmax(box.y - cl.y, 0.0f), cl.y - box.w);
    if ((ex * ex + ey * ey + eps) * theta2 >= cl.w) {
      const float dx = px - cl.x;
      const float dy = py - cl.y;
      const float f = kr * mi * cl.z / (dx * dx + dy * dy + eps);
      vx += dx * f;
      vy += dy * f;
      c = cellSkip[c];
    } else {
      c++;
    }
  }
  repX[i] = vx;
  repY[i] = vy;
}

// Repulsion, one work-item per body group (CPU devices): the walk's decisions once per group, the forces in inner
// loops over the group's FA2_GROUP bodies (a partial last group is padded with massless copies, which feel and
// exert nothing), which the compiler turns into SIMD.
__kernel void fa2_repulsion_groups(const int n, __global const float* xs, __global const float* ys,
                                   __global const float* mass, __global const float* radius,
                                   __global const int* order, __global const int* cellStart,
                                   __global const int* cellEnd, __global const int* cellSkip,
                                   __global const float4* cell, const int cells, __global const float4* groupBox,
                                   const int flags, const float kr, const float krOverlap, const float theta2,
                                   const float eps, __global float* repX, __global float* repY) {
  const int g = get_global_id(0);
  const int g0 = g * FA2_GROUP;
  if (g0 >= n) return;
  const float4 box = groupBox[g];
  const bool overlap = (flags & 4) != 0;
  const bool hasRadius = (flags & 32) != 0;
  float gx[FA2_GROUP], gy[FA2_GROUP], gm[FA2_GROUP], gr[FA2_GROUP], vx[FA2_GROUP], vy[FA2_GROUP];
  int gi[FA2_GROUP];
  for (int b = 0; b < FA2_GROUP; b++) {
    const bool real = g0 + b < n;
    const int i = order[real ? g0 + b : g0];
    gi[b] = real ? i : -1;
    gx[b] = xs[i];
    gy[b] = ys[i];
    gm[b] = real ? mass[i] : 0.0f;
    gr[b] = hasRadius ? radius[i] : 1.0f;
    vx[b] = 0.0f;
    vy[b] = 0.0f;
  }
  int c = 0;
  while (c < cells) {
    const int s = cellStart[c];
    if (s >= 0) {
      const int e = cellEnd[c];
      for (int q = s; q < e; q++) {
        const int j = order[q];
        const float xj = xs[j];
        const float yj = ys[j];
        const float mj = mass[j];
        const float rj = hasRadius ? radius[j] : 1.0f;
        if (overlap) {
          for (int b = 0; b < FA2_GROUP; b++) {
            const float dx = gx[b] - xj;
            const float dy = gy[b] - yj;
            const float f = gi[b] == j ? 0.0f : fa2_pair(dx * dx + dy * dy + eps, gm[b], mj, gr[b], rj, true, kr, krOverlap);
            vx[b] += dx * f;
            vy[b] += dy * f;
          }
        } else {
          const float kmj = kr * mj;
          for (int b = 0; b < FA2_GROUP; b++) {
            const float dx = gx[b] - xj;
            const float dy = gy[b] - yj;
            const float f = gi[b] == j ? 0.0f : kmj * gm[b] / (dx * dx + dy * dy + eps);
            vx[b] += dx * f;
            vy[b] += dy * f;
          }
        }
      }
      c = cellSkip[c];
      continue;
    }
    const float4 cl = cell[c];
    const float ex = fmax(fmax(box.x - cl.x, 0.0f), cl.x - box.z);
    const float ey = fmax(fmax(box.y - cl.y, 0.0f), cl.y - box.w);
    if ((ex * ex + ey * ey + eps) * theta2 >= cl.w) {
      const float kM = kr * cl.z;
      for (int b = 0; b < FA2_GROUP; b++) {
        const float dx = gx[b] - cl.x;
        const float dy = gy[b] - cl.y;
        const float f = kM * gm[b] / (dx * dx + dy * dy + eps);
        vx[b] += dx * f;
        vy[b] += dy * f;
      }
      c = cellSkip[c];
    } else {
      c++;
    }
  }
  for (int b = 0; b < FA2_GROUP; b++) {
    if (gi[b] >= 0) {
      repX[gi[b]] = vx[b];
      repY[gi[b]] = vy[b];
    }
  }
}

// Every node's force: its repulsion plus gravity towards the origin and attraction gathered over its adjacency
// (each edge both ways, as cuGraph's symmetrized COO: no atomics), then its swinging and traction against the
// previous force.
__kernel void fa2_node_forces(const int n, __global const float* xs, __global const float* ys,
                              __global const float* mass, __global const float* radius, __global const int* adjStart,
                              __global const int* adjNbr, __global const float* factors, const int flags,
                              const float kr, const float gravity, const float coef, __global float* fx,
                              __global float* fy, __global const float* oldX, __global const float* oldY,
                              __global float* swing, __global float* traction) {
  const int i = get_global_id(0);
  if (i >= n) return;
  const bool overlap = (flags & 4) != 0;
  const bool hasRadius = (flags & 32) != 0;
  const float px = xs[i];
  const float py = ys[i];
  const float mi = mass[i];
  const float ri = hasRadius ? radius[i] : 1.0f;
  float vx = fx[i];
  float vy = fy[i];
  const float g = (flags & 8) ? kr * mi * gravity : mi * gravity / sqrt(px * px + py * py + FA2_FLT_EPSILON);
  vx -= px * g;
  vy -= py * g;
  const bool outbound = (flags & 1) != 0;
  const bool linLog = (flags & 2) != 0;
  const bool weighted = (flags & 16) != 0;
  const float inv = 1.0f / mi;
  float ax = 0.0f;
  float ay = 0.0f;
  const int end = adjStart[i + 1];
  for (int a = adjStart[i]; a < end; a++) {
    const int j = adjNbr[a];
    const float dx = px - xs[j];
    const float dy = py - ys[j];
    float factor = -coef * (weighted ? factors[a] : 1.0f);
    if (overlap) {
      const float rj = hasRadius ? radius[j] : 1.0f;
      const float dd = dx * dx + dy * dy;
      if (dd <= (ri + rj) * (ri + rj)) continue;
      const float d = sqrt(dd + FA2_FLT_EPSILON);
      const float inter = d - ri - rj;
      factor *= linLog ? log(1.0f + inter) / d : inter / d;
    } else if (linLog) {
      const float d = sqrt(dx * dx + dy * dy + FA2_FLT_EPSILON);
      factor *= log(1.0f + d) / d;
    }
    factor *= outbound ? inv + 1.0f / mass[j] : 2.0f;
    ax += dx * factor;
    ay += dy * factor;
  }
  const float tx = vx + ax;
  const float ty = vy + ay;
  fx[i] = tx;
  fy[i] = ty;
  const float ox = oldX[i];
  const float oy = oldY[i];
  swing[i] = mi * sqrt((ox - tx) * (ox - tx) + (oy - ty) * (oy - ty));
  traction[i] = 0.5f * mi * sqrt((ox + tx) * (ox + tx) + (oy + ty) * (oy + ty));
}

// Per-group sums of swinging and traction (the host adds the groups' sums for the global speed).
__kernel void fa2_sums(const int n, __global const float* swing, __global const float* traction,
                       __global double* swingParts, __global double* tractionParts) {
  __local double scratch[WG];
  const int i = get_global_id(0);
  group_sum(i < n ? (double)swing[i] : 0.0, scratch, swingParts);
  group_sum(i < n ? (double)traction[i] : 0.0, scratch, tractionParts);
}

__kernel void fa2_update(const int n, __global float* xs, __global float* ys, __global const float* fx,
                         __global const float* fy, __global float* oldX, __global float* oldY,
                         __global const float* swing, const float speed, const int preventOverlapping) {
  const int i = get_global_id(0);
  if (i >= n) return;
  const float dx = fx[i];
  const float dy = fy[i];
  oldX[i] = dx;
  oldY[i] = dy;
  float factor = speed / (1.0f + sqrt(speed * swing[i]));
  if (preventOverlapping) {
    factor *= 0.1f;
    const float df = sqrt(dx * dx + dy * dy + FA2_FLT_EPSILON);
    factor = fmin(factor * df, 10.0f) / df;
  }
  xs[i] += dx * factor;
  ys[i] += dy * factor;
}

// Node-major x, y for the host (one read per frame).
__kernel void fa2_interleave(const int n, __global const float* xs, __global const float* ys, __global float* out) {
  const int i = get_global_id(0);
  if (i >= n) return;
  out[2 * i] = xs[i];
  out[2 * i + 1] = ys[i];
}
