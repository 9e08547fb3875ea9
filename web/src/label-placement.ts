// Which nodes get a standing label: a grid over the positions, each cell's nodes in priority order, so a view asks
// only the cells it shows and only their first few nodes; then the highest priorities first, none overlapping.

/** Grid cells per side; a cell's nodes are kept largest priority first. */
const CELLS = 64;
/** Nodes asked per visible cell: enough to fill the view, bounded whatever the graph's size. */
const PER_CELL = 6;
/** Standing labels at the whole-graph view, and at most when zoomed in. */
export const BASE_BUDGET = 16;
export const MAX_BUDGET = 200;

export type LabelGrid = {
  minX: number;
  minY: number;
  cellWidth: number;
  cellHeight: number;
  /** Node indices, grouped by cell (row-major), each group in priority order. */
  members: Int32Array;
  /** Where each cell's group starts in `members` (CELLS * CELLS + 1 entries). */
  starts: Int32Array;
};

/** Node indices sorted by priority, largest first (ties: lower index first). Once per model. */
export function priorityOrder(priority: ArrayLike<number>): Int32Array {
  const order = new Int32Array(priority.length);
  for (let i = 0; i < order.length; i++) order[i] = i;
  order.sort((a, b) => (priority[b] ?? 0) - (priority[a] ?? 0) || a - b);
  return order;
}

/** Builds the grid over x,y positions in O(n), keeping `order` within each cell. */
export function buildLabelGrid(positions: ArrayLike<number>, order: Int32Array): LabelGrid {
  let minX = Number.POSITIVE_INFINITY;
  let minY = Number.POSITIVE_INFINITY;
  let maxX = Number.NEGATIVE_INFINITY;
  let maxY = Number.NEGATIVE_INFINITY;
  const count = order.length;
  for (let i = 0; i < count; i++) {
    const x = positions[i * 2] ?? 0;
    const y = positions[i * 2 + 1] ?? 0;
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  if (count === 0) minX = minY = maxX = maxY = 0;
  const cellWidth = Math.max((maxX - minX) / CELLS, 1e-9);
  const cellHeight = Math.max((maxY - minY) / CELLS, 1e-9);
  const grid = { minX, minY, cellWidth, cellHeight, members: new Int32Array(count), starts: new Int32Array(CELLS * CELLS + 1) };
  const cellOf = new Int32Array(count);
  for (let i = 0; i < count; i++) {
    const cell = cellAt(grid, positions[i * 2] ?? 0, positions[i * 2 + 1] ?? 0);
    cellOf[i] = cell;
    grid.starts[cell + 1] = (grid.starts[cell + 1] ?? 0) + 1;
  }
  for (let c = 0; c < CELLS * CELLS; c++) grid.starts[c + 1] = (grid.starts[c + 1] ?? 0) + (grid.starts[c] ?? 0);
  const fill = grid.starts.slice(0, CELLS * CELLS);
  for (const index of order) {
    const cell = cellOf[index] ?? 0;
    grid.members[fill[cell] ?? 0] = index;
    fill[cell] = (fill[cell] ?? 0) + 1;
  }
  return grid;
}

function cellAt(grid: Pick<LabelGrid, "minX" | "minY" | "cellWidth" | "cellHeight">, x: number, y: number): number {
  const column = Math.min(CELLS - 1, Math.max(0, Math.floor((x - grid.minX) / grid.cellWidth)));
  const row = Math.min(CELLS - 1, Math.max(0, Math.floor((y - grid.minY) / grid.cellHeight)));
  return row * CELLS + column;
}

/** A rectangle in space coordinates. */
export type SpaceRect = { minX: number; minY: number; maxX: number; maxY: number };

/**
 * The label budget for a view: BASE_BUDGET at the whole graph, growing with the zoom (the graph's extent over the
 * view's, per side), at most MAX_BUDGET.
 */
export function labelBudget(grid: LabelGrid, view: SpaceRect): number {
  const graphSide = Math.sqrt(grid.cellWidth * grid.cellHeight) * CELLS;
  const viewSide = Math.sqrt(Math.max((view.maxX - view.minX) * (view.maxY - view.minY), 1e-18));
  const zoom = Math.max(1, graphSide / viewSide);
  return Math.min(MAX_BUDGET, Math.round(BASE_BUDGET * zoom * zoom));
}

/**
 * Candidates inside the view, highest priority first (ties: lower index first): each visible cell's first PER_CELL
 * nodes inside it. Lazily, merging the cells' lists (each already in priority order) through a heap, so a caller that
 * stops after its budget reads a few hundred nodes, not every visible cell's (tens of thousands at 100k edges).
 */
export function* visibleCandidates(
  grid: LabelGrid,
  positions: ArrayLike<number>,
  priority: ArrayLike<number>,
  view: SpaceRect,
): Generator<number> {
  const first = cellAt(grid, view.minX, view.minY);
  const last = cellAt(grid, view.maxX, view.maxY);
  const inView = (index: number) => {
    const x = positions[index * 2] ?? 0;
    const y = positions[index * 2 + 1] ?? 0;
    return x >= view.minX && x <= view.maxX && y >= view.minY && y <= view.maxY;
  };
  /** Each visible cell's place in `members`, and how many of its nodes were given out. */
  type Head = { at: number; end: number; taken: number };
  const before = (a: Head, b: Head) => {
    const ia = grid.members[a.at] ?? 0;
    const ib = grid.members[b.at] ?? 0;
    const pa = priority[ia] ?? 0;
    const pb = priority[ib] ?? 0;
    return pa > pb || (pa === pb && ia < ib);
  };
  const heap: Head[] = [];
  const push = (head: Head) => {
    heap.push(head);
    let k = heap.length - 1;
    while (k > 0) {
      const parent = (k - 1) >> 1;
      if (!before(heap[k] as Head, heap[parent] as Head)) break;
      [heap[k], heap[parent]] = [heap[parent] as Head, heap[k] as Head];
      k = parent;
    }
  };
  const pop = (): Head | undefined => {
    const top = heap[0];
    const tail = heap.pop();
    if (heap.length > 0 && tail) {
      heap[0] = tail;
      let k = 0;
      for (;;) {
        const left = k * 2 + 1;
        const right = left + 1;
        let best = k;
        if (left < heap.length && before(heap[left] as Head, heap[best] as Head)) best = left;
        if (right < heap.length && before(heap[right] as Head, heap[best] as Head)) best = right;
        if (best === k) break;
        [heap[k], heap[best]] = [heap[best] as Head, heap[k] as Head];
        k = best;
      }
    }
    return top;
  };
  /** Moves a cell's head to its next node inside the view; false when it has none left to give. */
  const advance = (head: Head): boolean => {
    if (head.taken >= PER_CELL) return false;
    while (head.at < head.end && !inView(grid.members[head.at] ?? 0)) head.at++;
    return head.at < head.end;
  };
  for (let row = Math.floor(first / CELLS); row <= Math.floor(last / CELLS); row++) {
    for (let column = first % CELLS; column <= last % CELLS; column++) {
      const cell = row * CELLS + column;
      const head = { at: grid.starts[cell] ?? 0, end: grid.starts[cell + 1] ?? 0, taken: 0 };
      if (advance(head)) push(head);
    }
  }
  for (let head = pop(); head; head = pop()) {
    yield grid.members[head.at] ?? 0;
    head.at++;
    head.taken++;
    if (advance(head)) push(head);
  }
}

export type Box = [number, number, number, number];

/** Screen boxes placed so far, bucketed so a new box checks only its neighbours. */
export class BoxIndex {
  private readonly buckets = new Map<number, Box[]>();
  private readonly size = 96;

  overlaps(box: Box): boolean {
    for (const key of this.keys(box)) for (const other of this.buckets.get(key) ?? []) if (boxesOverlap(box, other)) return true;
    return false;
  }

  add(box: Box): void {
    for (const key of this.keys(box)) {
      const bucket = this.buckets.get(key);
      if (bucket) bucket.push(box);
      else this.buckets.set(key, [box]);
    }
  }

  private *keys(box: Box): Generator<number> {
    for (let bx = Math.floor(box[0] / this.size); bx <= Math.floor(box[2] / this.size); bx++)
      for (let by = Math.floor(box[1] / this.size); by <= Math.floor(box[3] / this.size); by++) yield bx * 100_003 + by;
  }
}

export function boxesOverlap(a: Box, b: Box): boolean {
  return a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];
}
