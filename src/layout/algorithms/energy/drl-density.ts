// DrL's density server (igraph's src/layout/drl/DensityGrid.cpp and DensityGrid_3d.cpp): a coarse density grid
// where each vertex adds a separable tent of radius 10 cells around its cell, and (in the simmer stage) bins of
// vertex copies for the fine density sum 1e-4 / d^2 over the 3^dims neighbouring bins. Cells within 10 of the
// grid's edge read as density 10000 so vertices stay inside the plane.
//
// The 3D grid keeps igraph's pointer walk exactly: its Add/Subtract step to the next y row only after a whole
// (y, x) plane of the tent, so a 3D vertex's tent lands on 21 runs of 441 consecutive cells, as igraph's does.

export const RADIUS = 10;

export type DensityGeometry = { gridSize: number; halfView: number; viewToGrid: number };
/** 2D: a 1000 x 1000 grid over [-2000, 2000]^2; 3D: 100^3 over [-125, 125]^3 (igraph's drl_layout*.h). */
export const GEOMETRY_2D: DensityGeometry = { gridSize: 1000, halfView: 2000, viewToGrid: 0.25 };
export const GEOMETRY_3D: DensityGeometry = { gridSize: 100, halfView: 125, viewToGrid: 0.4 };

export class DensityGrid {
  readonly dims: 2 | 3;
  private readonly g: DensityGeometry;
  private readonly density: Float32Array;
  private readonly fallOff: Float32Array;
  /** Fine bins: copies of vertex positions (dims values each), first in first out. */
  private readonly bins = new Map<number, number[]>();

  constructor(dims: 2 | 3) {
    this.dims = dims;
    this.g = dims === 2 ? GEOMETRY_2D : GEOMETRY_3D;
    this.density = new Float32Array(this.g.gridSize ** dims);
    const side = 2 * RADIUS + 1;
    this.fallOff = new Float32Array(side ** dims);
    const tent = (i: number) => Math.fround((RADIUS - Math.abs(i)) / RADIUS);
    let f = 0;
    if (dims === 2) {
      for (let i = -RADIUS; i <= RADIUS; i++) for (let j = -RADIUS; j <= RADIUS; j++) this.fallOff[f++] = tent(i) * tent(j);
    } else {
      for (let i = -RADIUS; i <= RADIUS; i++)
        for (let j = -RADIUS; j <= RADIUS; j++) for (let k = -RADIUS; k <= RADIUS; k++) this.fallOff[f++] = tent(i) * tent(j) * tent(k);
    }
  }

  /** The grid cell of a coordinate, as igraph's (int)((x + HALF_VIEW + .5) * VIEW_TO_GRID). */
  cellOf(x: number): number {
    return Math.trunc((x + this.g.halfView + 0.5) * this.g.viewToGrid);
  }

  private binKey(p: ArrayLike<number>): number {
    const G = this.g.gridSize;
    const x = this.cellOf(p[0] as number);
    const y = this.cellOf(p[1] as number);
    return this.dims === 2 ? y * G + x : (this.cellOf(p[2] as number) * G + y) * G + x;
  }

  /** The density a vertex at p feels (coarse: the square of its cell's density; fine: the bins' repulsion). */
  getDensity(p: ArrayLike<number>, fine: boolean): number {
    const G = this.g.gridSize;
    const boundary = 10;
    const cells: number[] = [];
    for (let d = 0; d < this.dims; d++) {
      const c = this.cellOf(p[d] as number);
      if (c > G - boundary || c < boundary) return 10000;
      cells.push(c);
    }
    const [x, y, z] = cells as [number, number, number];
    if (!fine) {
      const v = this.density[this.dims === 2 ? y * G + x : (z * G + y) * G + x] as number;
      return Math.fround(v * v);
    }
    let density = 0;
    const zs = this.dims === 2 ? [0] : [z - 1, z, z + 1];
    for (const k of zs) {
      for (let i = y - 1; i <= y + 1; i++) {
        for (let j = x - 1; j <= x + 1; j++) {
          const bin = this.bins.get(this.dims === 2 ? i * G + j : (k * G + i) * G + j);
          if (!bin) continue;
          for (let b = 0; b < bin.length; b += this.dims) {
            let distance = 0;
            for (let d = 0; d < this.dims; d++) {
              const delta = Math.fround((p[d] as number) - (bin[b + d] as number));
              distance += delta * delta;
            }
            density = Math.fround(density + 1e-4 / (Math.fround(distance) + 1e-50));
          }
        }
      }
    }
    return density;
  }

  /** Where a vertex at p starts its tent (the flat index of its corner); igraph throws when the corner leaves the grid. */
  private tentBase(p: ArrayLike<number>): number {
    const G = this.g.gridSize;
    let base = 0;
    for (let d = this.dims - 1; d >= 0; d--) {
      const c = this.cellOf(p[d] as number) - RADIUS;
      if (c >= G || c < 0) throw new Error("Exceeded density grid in DrL.");
      base = base * G + c;
    }
    return base;
  }

  /** The flat index of the cell holding p, for the coarse density. */
  private cellIndex(p: ArrayLike<number>): number {
    let at = 0;
    for (let d = this.dims - 1; d >= 0; d--) at = at * this.g.gridSize + this.cellOf(p[d] as number);
    return at;
  }

  /** What the tent starting at `base` put into cell `at` (following the same walk as tent()). */
  private share(base: number, at: number): number {
    const G = this.g.gridSize;
    const side = 2 * RADIUS + 1;
    const run = this.dims === 2 ? side : side * side;
    const stride = run + G - side;
    const o = at - base;
    if (o < 0) return 0;
    const i = Math.floor(o / stride);
    const j = o - i * stride;
    return i < side && j < run ? (this.fallOff[i * run + j] as number) : 0;
  }

  /** Adds (sign 1) or subtracts (-1) the tent of a vertex at p. */
  private tent(p: ArrayLike<number>, sign: 1 | -1): void {
    const G = this.g.gridSize;
    const side = 2 * RADIUS + 1;
    const run = this.dims === 2 ? side : side * side;
    const D = this.density;
    const F = this.fallOff;
    let at = this.tentBase(p);
    let f = 0;
    for (let i = 0; i < side; i++) {
      const end = Math.min(at + run, D.length);
      for (let k = at; k < end; k++, f++) D[k] = (D[k] as number) + sign * (F[f] as number);
      f += at + run - end;
      at += run + G - side;
    }
  }

  /**
   * The coarse density a vertex at p feels while the vertex whose tent was added at `sub` is out of the grid: what
   * igraph reads between subtracting that tent and adding it back at the same place, without the two walks.
   */
  coarseDensityWithout(p: ArrayLike<number>, sub: ArrayLike<number>): number {
    const G = this.g.gridSize;
    const boundary = 10;
    for (let d = 0; d < this.dims; d++) {
      const c = this.cellOf(p[d] as number);
      if (c > G - boundary || c < boundary) return 10000;
    }
    const at = this.cellIndex(p);
    const v = Math.fround((this.density[at] as number) - this.share(this.tentBase(sub), at));
    return Math.fround(v * v);
  }

  /** Whether p and q fall into the same coarse cell (moving a tent between them changes nothing). */
  sameCell(p: ArrayLike<number>, q: ArrayLike<number>): boolean {
    for (let d = 0; d < this.dims; d++) if (this.cellOf(p[d] as number) !== this.cellOf(q[d] as number)) return false;
    return true;
  }

  /** DensityGrid::Add: the coarse tent at the vertex's position, or its copy into a fine bin. */
  add(p: ArrayLike<number>, fine: boolean): void {
    if (fine) {
      const key = this.binKey(p);
      let bin = this.bins.get(key);
      if (!bin) {
        bin = [];
        this.bins.set(key, bin);
      }
      for (let d = 0; d < this.dims; d++) bin.push(p[d] as number);
    } else {
      this.tent(p, 1);
    }
  }

  /**
   * DensityGrid::Subtract at the position the vertex was last added at (`sub`): nothing before the first add of
   * the stage, the oldest copy of its fine bin (igraph pops the front, whichever vertex it was), else the tent.
   */
  subtract(sub: ArrayLike<number>, firstAdd: boolean, fineFirstAdd: boolean, fine: boolean): void {
    if (fine && !fineFirstAdd) {
      const bin = this.bins.get(this.binKey(sub));
      if (bin) bin.splice(0, this.dims);
    } else if (!firstAdd) {
      this.tent(sub, -1);
    }
  }
}
