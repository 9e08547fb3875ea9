// Kernel "fruchterman-reingold": igraph's Fruchterman-Reingold iteration (src/layout/fruchterman_reingold.c), 2D
// or 3D, as a stepper that keeps its state between steps (live sessions stream the positions while it runs).
//
// One step at temperature `temp`, as igraph does it:
// - repulsion between vertex pairs, d / |d|^2 (d = p_v - p_u); in a disconnected graph (constant C = n * sqrt(n),
//   all-pairs form only) d * (C - |d|^3) / (|d|^2 * C), a weak attraction keeping components near each other
//   (igraph's 3D code adds that term's z part to y, a slip; here it goes to z);
// - the grid form (igraph_layout_i_grid_fr) repels only pairs closer than igraph's cell size 2 among the pairs its
//   grid offers: cells of size 2 over [-sqrt(n)/2, sqrt(n)/2] per axis (vertices outside in the border cells),
//   filled once from the start layout and never updated (igraph 0.10 adds every vertex once and moves none), each
//   cell paired with itself and its forward neighbours (x+1, y), (x, y+1), (x+1, y+1) (igraph_2dgrid_next); in 3D
//   (igraph has no 3D grid) the same with the forward octant's 7 cells;
// - attraction along each edge, -d * |d| * w;
// - the displacement plus a jitter in [-1e-9, 1e-9] per axis, capped at length `temp`, then clamped to the bounds.
// Coincident vertices push apart along a tiny pseudo-random direction (igraph draws one at random). The jitter and
// those directions are hashes of (seed, step, vertex), so a run is deterministic and the OpenCL port
// (kernels/opencl/fruchterman-reingold.ts) draws the same numbers.
//
// Args: n, dims; edges src/dst with weight per edge (null: 1 each); the same edges as undirected adjacency
// (adjStart/adjNbr/adjEdge: every edge listed at both ends, as kernels/cpu/csr.ts `undirected` gives; the OpenCL
// port gathers over it); positions (n * dims, node-major, the start; not modified); grid; disconnected (igraph's
// all-pairs variant for graphs that are not weakly connected); lower/upper (n * dims bounds, ±Infinity where none,
// or null); seed.

import { FR_CELL, frGrid, gridRuns, permuted } from "./fruchterman-reingold-grid.ts";

export type FrArgs = {
  n: number;
  dims: 2 | 3;
  src: Int32Array;
  dst: Int32Array;
  weight: Float64Array | null;
  adjStart: Int32Array;
  adjNbr: Int32Array;
  adjEdge: Int32Array;
  positions: Float64Array;
  grid: boolean;
  disconnected: boolean;
  lower: Float64Array | null;
  upper: Float64Array | null;
  seed: number;
};

/** A running layout: `step(temp)` moves every vertex once; `read` copies the positions out (node-major). */
export type FrStepper = {
  step(temp: number): void;
  read(into: Float64Array): Float64Array;
  dispose(): void;
};

/** murmur3's 32-bit finalizer (the OpenCL port has the same). */
export function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** The hash of (seed, step, a) the jitter and coincident-pair directions come from. */
export function frHash(seed: number, step: number, a: number): number {
  return fmix32((Math.imul(a, 0x9e3779b1) + Math.imul(step, 0x85ebca77) + seed) >>> 0);
}

/** A value in [-1e-9, 1e-9) from 16 bits of a hash (`part` 0: the low bits, 1: the high bits). */
export function frJitter(h: number, part: number): number {
  const bits = part === 0 ? h & 0xffff : h >>> 16;
  return (bits / 32768 - 1) * 1e-9;
}

/** The edges over slots (slotOf[vertex]), grouped by their source slot (start: each slot's first edge). */
function edgesInSlots(
  args: FrArgs,
  slotOf: Int32Array | null,
): { start: Int32Array; src: Int32Array; dst: Int32Array; weight: Float64Array | null } {
  const m = args.src.length;
  const slot = (v: number): number => (slotOf ? (slotOf[v] as number) : v);
  const start = new Int32Array(args.n + 1);
  for (let e = 0; e < m; e++) {
    const s = slot(args.src[e] as number) + 1;
    start[s] = (start[s] as number) + 1;
  }
  for (let i = 0; i < args.n; i++) start[i + 1] = (start[i + 1] as number) + (start[i] as number);
  const fill = start.slice(0, args.n);
  const src = new Int32Array(m);
  const dst = new Int32Array(m);
  const weight = args.weight ? new Float64Array(m) : null;
  for (let e = 0; e < m; e++) {
    const s = slot(args.src[e] as number);
    const at = fill[s] as number;
    fill[s] = at + 1;
    src[at] = s;
    dst[at] = slot(args.dst[e] as number);
    if (weight) weight[at] = args.weight?.[e] as number;
  }
  return { start, src, dst, weight };
}

export function frStepper(args: FrArgs): FrStepper {
  const { n, dims, grid, disconnected, seed } = args;
  const three = dims === 3;
  const C = n * Math.sqrt(n);
  const cells = grid ? frGrid(n, dims, args.positions) : null;
  // The grid never changes, so the state lives in cell order (slot i = vertex perm[i]): the cells' pair loops then
  // read consecutive memory. Hashes still take vertex ids, as the OpenCL port does.
  const perm = cells ? cells.order : null;
  const slotOf = new Int32Array(perm ? n : 0);
  if (perm) for (let i = 0; i < n; i++) slotOf[perm[i] as number] = i;
  const vertexOf = (i: number): number => (perm ? (perm[i] as number) : i);
  const p = perm ? permuted(args.positions, perm, dims) : Float64Array.from(args.positions);
  const lower = args.lower && perm ? permuted(args.lower, perm, dims) : args.lower;
  const upper = args.upper && perm ? permuted(args.upper, perm, dims) : args.upper;
  // edges in slots, grouped by their first end (the attraction keeps that end's force in registers)
  const { start: edgeStart, src, dst, weight } = edgesInSlots(args, perm ? slotOf : null);
  const disp = new Float64Array(n * dims);
  let steps = 0;

  /** The displacement of a coincident pair (lo < hi): a tiny direction from the hash, + for lo and - for hi. */
  function coincident(lo: number, hi: number, out: Float64Array): void {
    const h = frHash(seed ^ 0x5bd1e995, steps, Math.imul(lo, 0x01000193) ^ hi);
    out[0] = frJitter(h, 0);
    out[1] = frJitter(h, 1);
    out[2] = three ? frJitter(fmix32(h), 0) : 0;
    if (out[0] === 0 && out[1] === 0 && out[2] === 0) out[0] = 1e-9;
  }
  const tiny = new Float64Array(3);

  function repelAllPairs(): void {
    for (let v = 0; v < n; v++) {
      const vi = v * dims;
      const vx = p[vi] as number;
      const vy = p[vi + 1] as number;
      const vz = three ? (p[vi + 2] as number) : 0;
      let fx = 0;
      let fy = 0;
      let fz = 0;
      for (let u = v + 1; u < n; u++) {
        const ui = u * dims;
        let dx = vx - (p[ui] as number);
        let dy = vy - (p[ui + 1] as number);
        let dz = three ? vz - (p[ui + 2] as number) : 0;
        let dlen = dx * dx + dy * dy + dz * dz;
        if (dlen === 0) {
          coincident(v, u, tiny);
          dx = tiny[0] as number;
          dy = tiny[1] as number;
          dz = tiny[2] as number;
          dlen = dx * dx + dy * dy + dz * dz;
        }
        const f = disconnected ? (C - dlen * Math.sqrt(dlen)) / (dlen * C) : 1 / dlen;
        fx += dx * f;
        fy += dy * f;
        fz += dz * f;
        disp[ui] = (disp[ui] as number) - dx * f;
        disp[ui + 1] = (disp[ui + 1] as number) - dy * f;
        if (three) disp[ui + 2] = (disp[ui + 2] as number) - dz * f;
      }
      disp[vi] = (disp[vi] as number) + fx;
      disp[vi + 1] = (disp[vi + 1] as number) + fy;
      if (three) disp[vi + 2] = (disp[vi + 2] as number) + fz;
    }
  }

  /** The repulsion between slots i and j (i's cell before j's, or i < j in one cell) when closer than 2. */
  function repelPair(i: number, j: number): void {
    const vi = i * dims;
    const ui = j * dims;
    let dx = (p[vi] as number) - (p[ui] as number);
    let dy = (p[vi + 1] as number) - (p[ui + 1] as number);
    let dz = three ? (p[vi + 2] as number) - (p[ui + 2] as number) : 0;
    let dlen = dx * dx + dy * dy + dz * dz;
    if (dlen >= FR_CELL * FR_CELL) return;
    if (dlen === 0) {
      const v = vertexOf(i);
      const u = vertexOf(j);
      coincident(Math.min(v, u), Math.max(v, u), tiny);
      const sign = v < u ? 1 : -1;
      dx = sign * (tiny[0] as number);
      dy = sign * (tiny[1] as number);
      dz = sign * (tiny[2] as number);
      dlen = dx * dx + dy * dy + dz * dz;
    }
    const f = 1 / dlen;
    disp[vi] = (disp[vi] as number) + dx * f;
    disp[vi + 1] = (disp[vi + 1] as number) + dy * f;
    disp[ui] = (disp[ui] as number) - dx * f;
    disp[ui + 1] = (disp[ui + 1] as number) - dy * f;
    if (three) {
      disp[vi + 2] = (disp[vi + 2] as number) + dz * f;
      disp[ui + 2] = (disp[ui + 2] as number) - dz * f;
    }
  }

  /**
   * igraph's grid pairs: slot i with the later slots of its cell and the cells forward of it. In cell order the
   * cells (x, y, z) and (x + 1, y, z) are adjacent, so the forward cells are runs of slots: in 2D [i + 1, a) (the
   * rest of (x..x+1, y)) and [b, c) ((x..x+1, y+1)), in 3D four such runs. The grid is fixed, so the runs are
   * found once.
   */
  const runs = cells ? gridRuns(cells, n, three) : null;

  function repelGrid(): void {
    if (!runs) return;
    if (three) {
      for (let i = 0; i < n; i++) {
        for (let r = 0; r < 4; r++) {
          const from = r === 0 ? i + 1 : (runs[i * 8 + r * 2] as number);
          const to = runs[i * 8 + r * 2 + 1] as number;
          for (let j = from; j < to; j++) repelPair(i, j);
        }
      }
      return;
    }
    const cut = FR_CELL * FR_CELL;
    for (let i = 0; i < n; i++) {
      const vi = i * 2;
      const vx = p[vi] as number;
      const vy = p[vi + 1] as number;
      let fx = 0;
      let fy = 0;
      const a = runs[i * 3] as number;
      const b0 = runs[i * 3 + 1] as number;
      const b1 = runs[i * 3 + 2] as number;
      for (let k = 0; k < 2; k++) {
        const from = k === 0 ? i + 1 : b0;
        const to = k === 0 ? a : b1;
        for (let j = from; j < to; j++) {
          const ui = j * 2;
          const dx = vx - (p[ui] as number);
          const dy = vy - (p[ui + 1] as number);
          const dlen = dx * dx + dy * dy;
          if (dlen >= cut) continue;
          if (dlen === 0) {
            disp[vi] = (disp[vi] as number) + fx;
            disp[vi + 1] = (disp[vi + 1] as number) + fy;
            fx = 0;
            fy = 0;
            repelPair(i, j);
            continue;
          }
          const f = 1 / dlen;
          fx += dx * f;
          fy += dy * f;
          disp[ui] = (disp[ui] as number) - dx * f;
          disp[ui + 1] = (disp[ui + 1] as number) - dy * f;
        }
      }
      disp[vi] = (disp[vi] as number) + fx;
      disp[vi + 1] = (disp[vi + 1] as number) + fy;
    }
  }

  function attract(): void {
    if (!three) {
      attract2();
      return;
    }
    for (let e = 0; e < src.length; e++) {
      const vi = (src[e] as number) * 3;
      const ui = (dst[e] as number) * 3;
      const dx = (p[vi] as number) - (p[ui] as number);
      const dy = (p[vi + 1] as number) - (p[ui + 1] as number);
      const dz = (p[vi + 2] as number) - (p[ui + 2] as number);
      const dlen = Math.sqrt(dx * dx + dy * dy + dz * dz) * (weight ? (weight[e] as number) : 1);
      disp[vi] = (disp[vi] as number) - dx * dlen;
      disp[vi + 1] = (disp[vi + 1] as number) - dy * dlen;
      disp[vi + 2] = (disp[vi + 2] as number) - dz * dlen;
      disp[ui] = (disp[ui] as number) + dx * dlen;
      disp[ui + 1] = (disp[ui + 1] as number) + dy * dlen;
      disp[ui + 2] = (disp[ui + 2] as number) + dz * dlen;
    }
  }

  /** 2D attraction, each source slot's edges in a row (its force summed in registers). */
  function attract2(): void {
    for (let s = 0; s < n; s++) {
      const e0 = edgeStart[s] as number;
      const e1 = edgeStart[s + 1] as number;
      if (e0 === e1) continue;
      const vi = s * 2;
      const vx = p[vi] as number;
      const vy = p[vi + 1] as number;
      let fx = 0;
      let fy = 0;
      for (let e = e0; e < e1; e++) {
        const ui = (dst[e] as number) * 2;
        const dx = vx - (p[ui] as number);
        const dy = vy - (p[ui + 1] as number);
        const dlen = weight ? Math.sqrt(dx * dx + dy * dy) * (weight[e] as number) : Math.sqrt(dx * dx + dy * dy);
        fx -= dx * dlen;
        fy -= dy * dlen;
        disp[ui] = (disp[ui] as number) + dx * dlen;
        disp[ui + 1] = (disp[ui + 1] as number) + dy * dlen;
      }
      disp[vi] = (disp[vi] as number) + fx;
      disp[vi + 1] = (disp[vi + 1] as number) + fy;
    }
  }

  function update(temp: number): void {
    for (let i = 0; i < n; i++) {
      const vi = i * dims;
      const h = frHash(seed, steps, vertexOf(i));
      let dx = (disp[vi] as number) + frJitter(h, 0);
      let dy = (disp[vi + 1] as number) + frJitter(h, 1);
      let dz = three ? (disp[vi + 2] as number) + frJitter(fmix32(h), 0) : 0;
      const displen = Math.sqrt(dx * dx + dy * dy + dz * dz);
      if (displen > temp) {
        const s = temp / displen;
        dx *= s;
        dy *= s;
        dz *= s;
      }
      if (displen > 0) {
        p[vi] = (p[vi] as number) + dx;
        p[vi + 1] = (p[vi + 1] as number) + dy;
        if (three) p[vi + 2] = (p[vi + 2] as number) + dz;
      }
      if (lower && upper) {
        for (let k = 0; k < dims; k++) {
          const x = p[vi + k] as number;
          const l = lower[vi + k] as number;
          const u = upper[vi + k] as number;
          if (x < l) p[vi + k] = l;
          else if (x > u) p[vi + k] = u;
        }
      }
    }
  }

  return {
    step(temp: number) {
      if (n === 0) return;
      disp.fill(0);
      if (grid) repelGrid();
      else repelAllPairs();
      attract();
      update(Math.max(0, temp));
      steps++;
    },
    read(into: Float64Array) {
      if (!perm) into.set(p);
      else for (let i = 0; i < n; i++) for (let k = 0; k < dims; k++) into[(perm[i] as number) * dims + k] = p[i * dims + k] as number;
      return into;
    },
    dispose() {},
  };
}
