// Which node or link is under the pointer, found on the CPU from the positions the page holds (space coordinates),
// never by reading pixels back from the GPU: a grid over the nodes answers a point in a few cells' worth of work, and
// a link is looked for only near the point, along each link's segment.

/** A grid over node positions: each cell lists its nodes. Built in O(n), once per set of positions. */
export type PointGrid = {
  minX: number;
  minY: number;
  cell: number;
  columns: number;
  rows: number;
  /** Node indices grouped by cell (row-major). */
  members: Int32Array;
  /** Where each cell's group starts in `members` (columns * rows + 1 entries). */
  starts: Int32Array;
};

/** Cells per side at most: enough to keep a cell to a handful of nodes up to millions, small enough to build fast. */
const MAX_SIDE = 1024;

/** Builds the grid over x,y pairs; nodes with a non-finite coordinate are left out (they are not drawn). */
export function buildPointGrid(positions: ArrayLike<number>): PointGrid {
  const count = positions.length >> 1;
  let minX = Number.POSITIVE_INFINITY;
  let minY = Number.POSITIVE_INFINITY;
  let maxX = Number.NEGATIVE_INFINITY;
  let maxY = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < count; i++) {
    const x = positions[i * 2] ?? Number.NaN;
    const y = positions[i * 2 + 1] ?? Number.NaN;
    if (!Number.isFinite(x) || !Number.isFinite(y)) continue;
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  if (minX > maxX) minX = minY = maxX = maxY = 0;
  const extent = Math.max(maxX - minX, maxY - minY, 1e-9);
  // About two nodes a cell over the bounding square.
  const side = Math.max(1, Math.min(MAX_SIDE, Math.ceil(Math.sqrt(count / 2))));
  const cell = extent / side;
  const columns = Math.max(1, Math.min(side, Math.floor((maxX - minX) / cell) + 1));
  const rows = Math.max(1, Math.min(side, Math.floor((maxY - minY) / cell) + 1));
  const grid: PointGrid = { minX, minY, cell, columns, rows, members: new Int32Array(count), starts: new Int32Array(columns * rows + 1) };
  const cellOf = new Int32Array(count);
  for (let i = 0; i < count; i++) {
    const at = cellIndex(grid, positions[i * 2] ?? Number.NaN, positions[i * 2 + 1] ?? Number.NaN);
    cellOf[i] = at;
    if (at >= 0) grid.starts[at + 1] = (grid.starts[at + 1] ?? 0) + 1;
  }
  for (let c = 0; c < columns * rows; c++) grid.starts[c + 1] = (grid.starts[c + 1] ?? 0) + (grid.starts[c] ?? 0);
  const fill = grid.starts.slice(0, columns * rows);
  for (let i = 0; i < count; i++) {
    const at = cellOf[i] ?? -1;
    if (at < 0) continue;
    grid.members[fill[at] ?? 0] = i;
    fill[at] = (fill[at] ?? 0) + 1;
  }
  return grid;
}

function cellIndex(grid: PointGrid, x: number, y: number): number {
  if (!Number.isFinite(x) || !Number.isFinite(y)) return -1;
  const column = Math.min(grid.columns - 1, Math.max(0, Math.floor((x - grid.minX) / grid.cell)));
  const row = Math.min(grid.rows - 1, Math.max(0, Math.floor((y - grid.minY) / grid.cell)));
  return row * grid.columns + column;
}

/** How a hit is measured: in space units, with each node's own radius; hidden nodes are never hit. */
export type PointQuery = {
  x: number;
  y: number;
  /** The largest radius any node can have (space units): how far around the point the grid is asked. */
  maxRadius: number;
  radius(index: number): number;
  hidden?(index: number): boolean;
};

/** The node whose disc holds the point, the one whose center is nearest when discs overlap; undefined if none. */
export function pickPoint(grid: PointGrid, positions: ArrayLike<number>, query: PointQuery): number | undefined {
  const { x, y, maxRadius } = query;
  if (!Number.isFinite(x) || !Number.isFinite(y) || !(maxRadius > 0)) return undefined;
  const firstColumn = Math.max(0, Math.floor((x - maxRadius - grid.minX) / grid.cell));
  const lastColumn = Math.min(grid.columns - 1, Math.floor((x + maxRadius - grid.minX) / grid.cell));
  const firstRow = Math.max(0, Math.floor((y - maxRadius - grid.minY) / grid.cell));
  const lastRow = Math.min(grid.rows - 1, Math.floor((y + maxRadius - grid.minY) / grid.cell));
  let best: number | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (let row = firstRow; row <= lastRow; row++) {
    for (let column = firstColumn; column <= lastColumn; column++) {
      const at = row * grid.columns + column;
      for (let k = grid.starts[at] ?? 0; k < (grid.starts[at + 1] ?? 0); k++) {
        const index = grid.members[k] ?? 0;
        const dx = (positions[index * 2] ?? 0) - x;
        const dy = (positions[index * 2 + 1] ?? 0) - y;
        const distance = dx * dx + dy * dy;
        if (distance >= bestDistance) continue;
        const radius = query.radius(index);
        if (distance > radius * radius || query.hidden?.(index)) continue;
        best = index;
        bestDistance = distance;
      }
    }
  }
  return best;
}

/** How a link hit is measured: within `tolerance(link)` space units of its segment; hidden links are never hit. */
export type LinkQuery = {
  x: number;
  y: number;
  tolerance(link: number): number;
  /** The largest tolerance: links whose box, grown by it, misses the point are skipped at once. */
  maxTolerance: number;
  hidden?(link: number): boolean;
};

/**
 * The link nearest the point among those within their tolerance of it; undefined if none. Links are [s0, t0, s1, t1,
 * ...] node indices. One pass over the links with a box test first (some milliseconds at a million links): it is asked
 * on a click, or now and then while the pointer rests, never once per frame.
 */
export function pickLink(links: ArrayLike<number>, positions: ArrayLike<number>, query: LinkQuery): number | undefined {
  const { x, y, maxTolerance } = query;
  if (!Number.isFinite(x) || !Number.isFinite(y)) return undefined;
  let best: number | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  const count = links.length >> 1;
  for (let link = 0; link < count; link++) {
    const s = links[link * 2] ?? 0;
    const t = links[link * 2 + 1] ?? 0;
    const ax = positions[s * 2] ?? Number.NaN;
    const ay = positions[s * 2 + 1] ?? Number.NaN;
    const bx = positions[t * 2] ?? Number.NaN;
    const by = positions[t * 2 + 1] ?? Number.NaN;
    // NaN fails every comparison below, so links with an end not drawn are skipped here too.
    if (!(x >= Math.min(ax, bx) - maxTolerance && x <= Math.max(ax, bx) + maxTolerance)) continue;
    if (!(y >= Math.min(ay, by) - maxTolerance && y <= Math.max(ay, by) + maxTolerance)) continue;
    const distance = segmentDistance(x, y, ax, ay, bx, by);
    const tolerance = query.tolerance(link);
    if (distance > tolerance || distance >= bestDistance || query.hidden?.(link)) continue;
    best = link;
    bestDistance = distance;
  }
  return best;
}

/** Distance from (x, y) to the segment from (ax, ay) to (bx, by). */
export function segmentDistance(x: number, y: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const length = dx * dx + dy * dy;
  const along = length > 0 ? Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / length)) : 0;
  return Math.hypot(x - (ax + along * dx), y - (ay + along * dy));
}
