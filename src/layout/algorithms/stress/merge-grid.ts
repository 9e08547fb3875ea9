// igraph's merge grid (src/layout/merge_grid.c): a 200×200 occupancy grid of the discs already placed while
// igraph_layout_merge_dla packs component layouts; a cell holds the id + 1 of the disc covering it, 0 when free.
export type MergeGrid = {
  minx: number;
  maxx: number;
  deltax: number;
  miny: number;
  maxy: number;
  deltay: number;
  steps: number;
  data: Int32Array;
  /** How far from the origin a placed disc reaches (a disc wholly beyond it, by two cell diagonals, touches none). */
  reach: number;
};

export function createMergeGrid(min: number, max: number, steps: number): MergeGrid {
  const delta = (max - min) / steps;
  return { minx: min, maxx: max, deltax: delta, miny: min, maxy: max, deltay: delta, steps, data: new Int32Array(steps * steps), reach: 0 };
}

function cellOf(g: MergeGrid, xc: number, yc: number): [number, number] {
  const x = xc <= g.minx ? 0 : xc >= g.maxx ? g.steps - 1 : Math.floor((xc - g.minx) / g.deltax);
  const y = yc <= g.miny ? 0 : yc >= g.maxy ? g.steps - 1 : Math.floor((yc - g.miny) / g.deltay);
  return [x, y];
}

const at = (g: MergeGrid, i: number, j: number): number =>
  i >= 0 && j >= 0 && i < g.steps && j < g.steps ? (g.data[g.steps * j + i] as number) : 0;

/**
 * The four quadrant sweeps igraph makes around the cell of (x, y): visit(i, j) for each cell whose corner nearest
 * the sweep lies within r; a sweep stops early when visit answers true.
 */
function sweep(g: MergeGrid, x: number, y: number, r: number, visit: (i: number, j: number) => boolean): void {
  const [cx, cy] = cellOf(g, x, y);
  const dist = (gx: number, gy: number) => Math.sqrt((x - (g.minx + gx * g.deltax)) ** 2 + (y - (g.miny + gy * g.deltay)) ** 2);
  for (let i = 0; cx + i < g.steps && dist(cx + i, cy) < r; i++)
    for (let j = 0; cy + j < g.steps && dist(cx + i, cy + j) < r; j++) if (visit(cx + i, cy + j)) return;
  for (let i = 0; cx + i < g.steps && dist(cx + i, cy + 1) < r; i++)
    for (let j = 1; cy - j > 0 && dist(cx + i, cy - j + 1) < r; j++) if (visit(cx + i, cy - j)) return;
  for (let i = 1; cx - i > 0 && dist(cx - i + 1, cy) < r; i++)
    for (let j = 0; cy + j < g.steps && dist(cx - i + 1, cy + j) < r; j++) if (visit(cx - i, cy + j)) return;
  for (let i = 1; cx - i > 0 && dist(cx - i + 1, cy + 1) < r; i++)
    for (let j = 1; cy - j > 0 && dist(cx - i + 1, cy - j + 1) < r; j++) if (visit(cx - i, cy - j)) return;
}

/** Marks the disc of radius r at (x, y) as disc `id`. */
export function placeDisc(g: MergeGrid, x: number, y: number, r: number, id: number): void {
  const [cx, cy] = cellOf(g, x, y);
  g.reach = Math.max(g.reach, Math.sqrt(x * x + y * y) + r);
  g.data[g.steps * cy + cx] = id + 1;
  sweep(g, x, y, r, (i, j) => {
    g.data[g.steps * j + i] = id + 1;
    return false;
  });
}

/** The id of a disc the disc of radius r at (x, y) overlaps, or -1 (also when it reaches past the grid). */
export function discAt(g: MergeGrid, x: number, y: number, r: number): number {
  if (x - r <= g.minx || x + r >= g.maxx || y - r <= g.miny || y + r >= g.maxy) return -1;
  // Marked and probed cells lie within a cell diagonal of their discs: far from every placed disc, none is hit.
  if (Math.sqrt(x * x + y * y) - r > g.reach + 3 * Math.hypot(g.deltax, g.deltay)) return -1;
  const [cx, cy] = cellOf(g, x, y);
  let found = at(g, cx, cy) - 1;
  if (found >= 0) return found;
  sweep(g, x, y, r, (i, j) => {
    found = at(g, i, j) - 1;
    return found >= 0;
  });
  return found;
}
