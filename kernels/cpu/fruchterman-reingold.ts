// Kernel "fruchterman-reingold": igraph's Fruchterman-Reingold iteration (src/layout/fruchterman_reingold.c), 2D
// or 3D, as a stepper that keeps its state between steps (live sessions stream the positions while it runs).
//
// One step at temperature `temp`, as igraph does it:
// - repulsion between vertex pairs, d / |d|^2 (d = p_v - p_u); in a disconnected graph (constant C = n * sqrt(n),
//   all-pairs form only) d * (C - |d|^3) / (|d|^2 * C), a weak attraction keeping components near each other;
//   the grid form counts only pairs closer than igraph's cell size 2 (the cells here are rebuilt every step from
//   the current positions: igraph 0.10 fills its grid once from the start layout and never moves a vertex in it);
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

/** igraph's grid cell size: the grid form repels only pairs closer than this. */
export const FR_CELL = 2;

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

/**
 * The grid's cell size for positions spanning `extent` per axis: igraph's 2, grown (by 1.5x steps) until at most
 * `cap` cells cover the span. Any size of at least 2 finds the same pairs (closer than 2): only the work differs.
 */
export function frCellSize(extent: readonly number[], cap: number): { cell: number; counts: number[] } {
  let cell = FR_CELL;
  for (;;) {
    const counts = extent.map((e) => Math.floor(e / cell) + 1);
    const total = counts.reduce((a, b) => a * b, 1);
    if (total <= cap || !Number.isFinite(total)) return { cell, counts };
    cell *= 1.5;
  }
}

/** The cell cap for n vertices (the OpenCL port sizes its cell buffers by it). */
export const frCellCap = (n: number): number => Math.max(64, 2 * n);

export function frStepper(args: FrArgs): FrStepper {
  const { n, dims, src, dst, weight, grid, disconnected, lower, upper, seed } = args;
  const p = Float64Array.from(args.positions);
  const disp = new Float64Array(n * dims);
  const three = dims === 3;
  const C = n * Math.sqrt(n);
  const cap = frCellCap(n);
  const cellOf = grid ? new Int32Array(n) : new Int32Array(0);
  const cellStart = grid ? new Int32Array(cap + 1) : new Int32Array(0);
  const order = grid ? new Int32Array(n) : new Int32Array(0);
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

  /** Pairs (v in cell a's slots [a0, a1), u in [b0, b1), or u after v when same) closer than the cell size 2. */
  function repelCells(a0: number, a1: number, b0: number, b1: number, same: boolean): void {
    const cut = FR_CELL * FR_CELL;
    for (let i = a0; i < a1; i++) {
      const v = order[i] as number;
      const vi = v * dims;
      const vx = p[vi] as number;
      const vy = p[vi + 1] as number;
      const vz = three ? (p[vi + 2] as number) : 0;
      let fx = 0;
      let fy = 0;
      let fz = 0;
      for (let j = same ? i + 1 : b0; j < b1; j++) {
        const u = order[j] as number;
        const ui = u * dims;
        let dx = vx - (p[ui] as number);
        let dy = vy - (p[ui + 1] as number);
        let dz = three ? vz - (p[ui + 2] as number) : 0;
        let dlen = dx * dx + dy * dy + dz * dz;
        if (dlen >= cut) continue;
        if (dlen === 0) {
          coincident(Math.min(v, u), Math.max(v, u), tiny);
          const sign = v < u ? 1 : -1;
          dx = sign * (tiny[0] as number);
          dy = sign * (tiny[1] as number);
          dz = sign * (tiny[2] as number);
          dlen = dx * dx + dy * dy + dz * dz;
        }
        const f = 1 / dlen;
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

  function repelGrid(): void {
    const lo = [Infinity, Infinity, Infinity];
    const hi = [-Infinity, -Infinity, -Infinity];
    for (let v = 0; v < n; v++) {
      for (let k = 0; k < dims; k++) {
        const x = p[v * dims + k] as number;
        if (x < (lo[k] as number)) lo[k] = x;
        if (x > (hi[k] as number)) hi[k] = x;
      }
    }
    const { cell, counts } = frCellSize(
      lo.slice(0, dims).map((l, k) => (hi[k] as number) - l),
      cap,
    );
    const sx = counts[0] as number;
    const sy = counts[1] as number;
    const sz = three ? (counts[2] as number) : 1;
    const total = sx * sy * sz;
    const ox = lo[0] as number;
    const oy = lo[1] as number;
    const oz = lo[2] as number;
    // counting sort of the vertices by cell, in vertex order within a cell
    cellStart.fill(0, 0, total + 1);
    for (let v = 0; v < n; v++) {
      const vi = v * dims;
      const cx = Math.min(sx - 1, Math.floor(((p[vi] as number) - ox) / cell));
      const cy = Math.min(sy - 1, Math.floor(((p[vi + 1] as number) - oy) / cell));
      const cz = three ? Math.min(sz - 1, Math.floor(((p[vi + 2] as number) - oz) / cell)) : 0;
      const c = cx + sx * (cy + sy * cz);
      cellOf[v] = c;
      cellStart[c + 1] = (cellStart[c + 1] as number) + 1;
    }
    for (let c = 0; c < total; c++) cellStart[c + 1] = (cellStart[c + 1] as number) + (cellStart[c] as number);
    for (let v = 0; v < n; v++) {
      const c = cellOf[v] as number;
      order[cellStart[c] as number] = v;
      cellStart[c] = (cellStart[c] as number) + 1;
    }
    for (let c = total; c > 0; c--) cellStart[c] = cellStart[c - 1] as number;
    cellStart[0] = 0;
    // each cell with itself and its forward neighbours (every neighbouring pair of cells once)
    const offsets = three ? FORWARD_3D : FORWARD_2D;
    for (let cz = 0; cz < sz; cz++) {
      for (let cy = 0; cy < sy; cy++) {
        for (let cx = 0; cx < sx; cx++) {
          const c = cx + sx * (cy + sy * cz);
          const a0 = cellStart[c] as number;
          const a1 = cellStart[c + 1] as number;
          if (a0 === a1) continue;
          repelCells(a0, a1, a0, a1, true);
          for (let o = 0; o < offsets.length; o += 3) {
            const nx = cx + (offsets[o] as number);
            const ny = cy + (offsets[o + 1] as number);
            const nz = cz + (offsets[o + 2] as number);
            if (nx < 0 || nx >= sx || ny < 0 || ny >= sy || nz < 0 || nz >= sz) continue;
            const b = nx + sx * (ny + sy * nz);
            const b0 = cellStart[b] as number;
            const b1 = cellStart[b + 1] as number;
            if (b0 !== b1) repelCells(a0, a1, b0, b1, false);
          }
        }
      }
    }
  }

  function attract(): void {
    for (let e = 0; e < src.length; e++) {
      const vi = (src[e] as number) * dims;
      const ui = (dst[e] as number) * dims;
      const dx = (p[vi] as number) - (p[ui] as number);
      const dy = (p[vi + 1] as number) - (p[ui + 1] as number);
      const dz = three ? (p[vi + 2] as number) - (p[ui + 2] as number) : 0;
      const dlen = Math.sqrt(dx * dx + dy * dy + dz * dz) * (weight ? (weight[e] as number) : 1);
      disp[vi] = (disp[vi] as number) - dx * dlen;
      disp[vi + 1] = (disp[vi + 1] as number) - dy * dlen;
      disp[ui] = (disp[ui] as number) + dx * dlen;
      disp[ui + 1] = (disp[ui + 1] as number) + dy * dlen;
      if (three) {
        disp[vi + 2] = (disp[vi + 2] as number) - dz * dlen;
        disp[ui + 2] = (disp[ui + 2] as number) + dz * dlen;
      }
    }
  }

  function update(temp: number): void {
    for (let v = 0; v < n; v++) {
      const vi = v * dims;
      const h = frHash(seed, steps, v);
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
      into.set(p);
      return into;
    },
    dispose() {},
  };
}

/** Cell offsets (x, y, z triples) after the cell itself in cell order: each neighbouring pair of cells once. */
const FORWARD_2D = [1, 0, 0, -1, 1, 0, 0, 1, 0, 1, 1, 0];
const FORWARD_3D = (() => {
  const out: number[] = [];
  for (let z = -1; z <= 1; z++)
    for (let y = -1; y <= 1; y++) for (let x = -1; x <= 1; x++) if (z > 0 || (z === 0 && (y > 0 || (y === 0 && x > 0)))) out.push(x, y, z);
  return out;
})();
