// igraph's 2D grid of vertices (src/core/grid.c) for the Large Graph Layout: cells of a square linked-list index
// over the positions matrix, the running centre of mass of the vertices added, and the iterator over vertex pairs
// in the same or neighbouring cells that the repulsion visits. Positions outside the square fall into its edge
// cells. Element ids are kept 1-based in the lists (0 = none), as igraph keeps them.

export class VertexGrid {
  readonly pos: Float64Array;
  private readonly minx: number;
  private readonly maxx: number;
  private readonly miny: number;
  private readonly maxy: number;
  private readonly delta: number;
  readonly stepsx: number;
  readonly stepsy: number;
  private readonly start: Int32Array;
  private readonly next: Int32Array;
  private readonly prev: Int32Array;
  private massx = 0;
  private massy = 0;
  private vertices = 0;

  constructor(pos: Float64Array, n: number, min: number, max: number, delta: number) {
    this.pos = pos;
    this.minx = min;
    this.maxx = max;
    this.miny = min;
    this.maxy = max;
    this.delta = delta;
    this.stepsx = Math.max(1, Math.ceil((max - min) / delta));
    this.stepsy = this.stepsx;
    this.start = new Int32Array(this.stepsx * this.stepsy);
    this.next = new Int32Array(n);
    this.prev = new Int32Array(n);
  }

  private cell(xc: number, yc: number): number {
    const x =
      xc <= this.minx ? 0 : xc >= this.maxx ? this.stepsx - 1 : Math.min(this.stepsx - 1, Math.floor((xc - this.minx) / this.delta));
    const y =
      yc <= this.miny ? 0 : yc >= this.maxy ? this.stepsy - 1 : Math.min(this.stepsy - 1, Math.floor((yc - this.miny) / this.delta));
    return x * this.stepsy + y;
  }

  private link(elem: number, cell: number): void {
    const first = this.start[cell] as number;
    this.prev[elem] = 0;
    this.next[elem] = first;
    if (first !== 0) this.prev[first - 1] = elem + 1;
    this.start[cell] = elem + 1;
  }

  /** Puts `elem` at (xc, yc) and into its cell. */
  add(elem: number, xc: number, yc: number): void {
    this.pos[elem * 2] = xc;
    this.pos[elem * 2 + 1] = yc;
    this.link(elem, this.cell(xc, yc));
    this.massx += xc;
    this.massy += yc;
    this.vertices += 1;
  }

  /** Moves `elem` by (dx, dy), changing cells when it leaves its own. */
  move(elem: number, dx: number, dy: number): void {
    const oldx = this.pos[elem * 2] as number;
    const oldy = this.pos[elem * 2 + 1] as number;
    const xc = oldx + dx;
    const yc = oldy + dy;
    const from = this.cell(oldx, oldy);
    const to = this.cell(xc, yc);
    if (from !== to) {
      const prev = this.prev[elem] as number;
      const next = this.next[elem] as number;
      if (prev !== 0) this.next[prev - 1] = next;
      else this.start[from] = next;
      if (next !== 0) this.prev[next - 1] = prev;
      this.link(elem, to);
    }
    this.massx += -oldx + xc;
    this.massy += -oldy + yc;
    this.pos[elem * 2] = xc;
    this.pos[elem * 2 + 1] = yc;
  }

  /** The centre of mass of the vertices added. */
  center(): [number, number] {
    return [this.massx / this.vertices, this.massy / this.vertices];
  }

  /**
   * Calls `visit(a, b)` for the pairs igraph's grid iterator yields: each vertex with the vertices after it in its
   * own cell and every vertex of the cells right, above and right-above of it, in igraph's order.
   */
  forEachNearPair(visit: (a: number, b: number) => void): void {
    const { stepsx, stepsy, start, next } = this;
    const at = (x: number, y: number) => start[x * stepsy + y] as number;
    const nx = new Int32Array(4);
    const ny = new Int32Array(4);
    // reset: the first non-empty cell
    let x = 0;
    let y = 0;
    let vid = at(0, 0);
    while (vid === 0 && (x < stepsx - 1 || y < stepsy - 1)) {
      x += 1;
      if (x === stepsx) {
        x = 0;
        y += 1;
      }
      vid = at(x, y);
    }
    while (vid !== 0) {
      const ret = vid;
      let ncells = -1;
      if (x !== stepsx - 1) {
        ncells += 1;
        nx[ncells] = x + 1;
        ny[ncells] = y;
      }
      if (y !== stepsy - 1) {
        ncells += 1;
        nx[ncells] = x;
        ny[ncells] = y + 1;
      }
      if (ncells === 1) {
        ncells += 1;
        nx[ncells] = x + 1;
        ny[ncells] = y + 1;
      }
      ncells += 1;
      nx[ncells] = x;
      ny[ncells] = y;
      let nei = next[ret - 1] as number;
      while (ncells > 0 && nei === 0) {
        ncells -= 1;
        nei = at(nx[ncells] as number, ny[ncells] as number);
      }
      // the next vertex
      vid = next[vid - 1] as number;
      while ((x < stepsx - 1 || y < stepsy - 1) && vid === 0) {
        x += 1;
        if (x === stepsx) {
          x = 0;
          y += 1;
        }
        vid = at(x, y);
      }
      // the neighbours of ret
      while (nei !== 0) {
        visit(ret - 1, nei - 1);
        nei = next[nei - 1] as number;
        while (ncells > 0 && nei === 0) {
          ncells -= 1;
          nei = at(nx[ncells] as number, ny[ncells] as number);
        }
      }
    }
  }
}
