// igraph's grid for the Fruchterman-Reingold grid form (kernels/cpu/fruchterman-reingold.ts, and its OpenCL port):
// cells of 2 over [-sqrt(n)/2, sqrt(n)/2] per axis, filled once from the start layout (igraph_layout_i_grid_fr and
// core/grid.c), the vertices in cell order, and the runs of slots a vertex is paired with (the CPU twin's forward
// runs, each pair once; the OpenCL port's forward and backward runs, every vertex gathering its own repulsion).

/** igraph's grid cell size: the grid form repels only pairs closer than this. */
export const FR_CELL = 2;

/** igraph's grid over the start layout: each vertex's cell, and the vertices of each cell in vertex order. */
export type FrGrid = { steps: [number, number, number]; cellOf: Int32Array; start: Int32Array; order: Int32Array; slotCell: Int32Array };

/** The cell of a coordinate as igraph_i_2dgrid_which finds it (outside the grid: the border cell). */
function cellAxis(x: number, min: number, max: number, cell: number, steps: number): number {
  if (x <= min) return 0;
  if (x >= max) return steps - 1;
  return Math.min(steps - 1, Math.floor((x - min) / cell));
}

/**
 * The grid: igraph's cells of 2 over [-sqrt(n)/2, sqrt(n)/2] per axis. In 3D (igraph's 3D start box is as wide,
 * which would make (sqrt(n)/2)^3 mostly empty cells) at most about 2n cells, each wider than 2 where needed; only
 * pairs closer than 2 repel either way.
 */
export function frGrid(n: number, dims: 2 | 3, positions: Float64Array): FrGrid {
  const width = Math.sqrt(n);
  let s = Math.max(1, Math.ceil(width / FR_CELL));
  if (dims === 3) s = Math.max(1, Math.min(s, Math.ceil(Math.cbrt(2 * n))));
  const cell = Math.max(FR_CELL, width / s);
  const steps: [number, number, number] = [s, s, dims === 3 ? s : 1];
  const cellOf = new Int32Array(n);
  const start = new Int32Array(s * s * steps[2] + 1);
  for (let v = 0; v < n; v++) {
    let c = 0;
    for (let k = dims - 1; k >= 0; k--) c = c * s + cellAxis(positions[v * dims + k] as number, -width / 2, width / 2, cell, s);
    cellOf[v] = c;
    start[c + 1] = (start[c + 1] as number) + 1;
  }
  for (let c = 0; c + 1 < start.length; c++) start[c + 1] = (start[c + 1] as number) + (start[c] as number);
  const fill = start.slice(0, start.length - 1);
  const order = new Int32Array(n);
  for (let v = 0; v < n; v++) {
    const c = cellOf[v] as number;
    order[fill[c] as number] = v;
    fill[c] = (fill[c] as number) + 1;
  }
  const slotCell = Int32Array.from(order, (v) => cellOf[v] as number);
  return { steps, cellOf, start, order, slotCell };
}

/** Node-major values of n vertices reordered so that slot i holds vertex perm[i]'s. */
export function permuted(values: Float64Array, perm: Int32Array, dims: number): Float64Array {
  const out = new Float64Array(values.length);
  for (let i = 0; i < perm.length; i++) {
    const v = perm[i] as number;
    for (let k = 0; k < dims; k++) out[i * dims + k] = values[v * dims + k] as number;
  }
  return out;
}

/**
 * Each slot's runs of neighbouring slots in igraph's grid for a gather (the OpenCL step: every vertex sums its own
 * repulsion, so it meets the cells forward and backward of it), `count` [from, to) pairs per slot, empty runs as
 * [0, 0); the slot itself lies in the first run and is skipped there. 2D: 3 runs (cells x-1..x+1 of row y, x..x+1
 * of row y+1, x-1..x of row y-1); 3D: 7 (plane z as in 2D, x..x+1 of rows y..y+1 in plane z+1, x-1..x of rows
 * y-1..y in plane z-1).
 */
export function frGatherRuns(grid: FrGrid, n: number, three: boolean): { runs: Int32Array; count: number } {
  const [sx, sy, sz] = grid.steps;
  const { start, slotCell } = grid;
  const count = three ? 7 : 3;
  const runs = new Int32Array(n * count * 2);
  for (let i = 0; i < n; i++) {
    const c = slotCell[i] as number;
    const x = c % sx;
    const y = Math.floor(c / sx) % sy;
    const z = Math.floor(c / (sx * sy));
    const left = x > 0 ? 1 : 0;
    const right = x + 1 < sx ? 1 : 0;
    let r = 0;
    /** Cells x + lo .. x + hi (clipped) of row y + oy in plane z + oz, as one run. */
    const put = (oy: number, oz: number, lo: number, hi: number) => {
      const at = (i * count + r++) * 2;
      if (y + oy < 0 || y + oy >= sy || z + oz < 0 || z + oz >= sz) return;
      const row = c + oy * sx + oz * sx * sy;
      runs[at] = start[row + (lo < 0 ? -left : 0)] as number;
      runs[at + 1] = start[row + 1 + (hi > 0 ? right : 0)] as number;
    };
    put(0, 0, -1, 1);
    put(1, 0, 0, 1);
    put(-1, 0, -1, 0);
    if (three) {
      put(0, 1, 0, 1);
      put(1, 1, 0, 1);
      put(0, -1, -1, 0);
      put(-1, -1, -1, 0);
    }
  }
  return { runs, count };
}

/**
 * Each slot's runs of forward slots in igraph's grid (see repelGrid): 2D: [end of the first run, second run's
 * start, its end] per slot; 3D: four [from, to) pairs per slot (the first `from` unused: it is i + 1).
 */
export function gridRuns(grid: FrGrid, n: number, three: boolean): Int32Array {
  const [sx, sy, sz] = grid.steps;
  const { start, slotCell } = grid;
  const width = three ? 8 : 3;
  const out = new Int32Array(n * width);
  for (let i = 0; i < n; i++) {
    const c = slotCell[i] as number;
    const x = c % sx;
    const w = x + 1 < sx ? 2 : 1;
    const y = Math.floor(c / sx) % sy;
    const z = Math.floor(c / (sx * sy));
    if (!three) {
      out[i * 3] = start[c + w] as number;
      const up = y + 1 < sy;
      out[i * 3 + 1] = up ? (start[c + sx] as number) : 0;
      out[i * 3 + 2] = up ? (start[c + sx + w] as number) : 0;
      continue;
    }
    for (let r = 0; r < 4; r++) {
      const oy = r & 1;
      const oz = r >> 1;
      const base = c + oy * sx + oz * sx * sy;
      const inside = y + oy < sy && z + oz < sz;
      out[i * 8 + r * 2] = inside ? (start[base] as number) : 0;
      out[i * 8 + r * 2 + 1] = inside ? (start[base + w] as number) : 0;
    }
  }
  return out;
}
