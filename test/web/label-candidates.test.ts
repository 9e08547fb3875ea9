// label-placement.ts: the label candidates come lazily, merged from the grid's cells, in the order the whole list
// sorted by priority would give (each visible cell's first six nodes inside the view, highest priority first).
import { describe, expect, it } from "vitest";
import { buildLabelGrid, priorityOrder, type SpaceRect, visibleCandidates } from "../../web/src/label-placement.ts";
import { mulberry32 } from "../../web/src/random.ts";

const CELLS = 64;
const PER_CELL = 6;

/** The candidates as a full sort finds them (the definition the lazy merge must keep). */
function sortedCandidates(
  grid: ReturnType<typeof buildLabelGrid>,
  positions: Float32Array,
  priority: Float32Array,
  view: SpaceRect,
): number[] {
  const cellOf = (x: number, y: number) => {
    const column = Math.min(CELLS - 1, Math.max(0, Math.floor((x - grid.minX) / grid.cellWidth)));
    const row = Math.min(CELLS - 1, Math.max(0, Math.floor((y - grid.minY) / grid.cellHeight)));
    return row * CELLS + column;
  };
  const first = cellOf(view.minX, view.minY);
  const last = cellOf(view.maxX, view.maxY);
  const out: number[] = [];
  for (let row = Math.floor(first / CELLS); row <= Math.floor(last / CELLS); row++) {
    for (let column = first % CELLS; column <= last % CELLS; column++) {
      const cell = row * CELLS + column;
      let taken = 0;
      for (let k = grid.starts[cell] ?? 0; k < (grid.starts[cell + 1] ?? 0) && taken < PER_CELL; k++) {
        const index = grid.members[k] ?? 0;
        const [x, y] = [positions[index * 2] ?? 0, positions[index * 2 + 1] ?? 0];
        if (x < view.minX || x > view.maxX || y < view.minY || y > view.maxY) continue;
        out.push(index);
        taken++;
      }
    }
  }
  return out.sort((a, b) => (priority[b] ?? 0) - (priority[a] ?? 0) || a - b);
}

describe("visibleCandidates", () => {
  const random = mulberry32(11);
  const count = 20_000;
  const positions = new Float32Array(count * 2);
  for (let i = 0; i < positions.length; i++) positions[i] = random() * 1000;
  // Ties on purpose: few distinct priorities.
  const priority = new Float32Array(count);
  for (let i = 0; i < count; i++) priority[i] = Math.floor(random() * 50);
  const grid = buildLabelGrid(positions, priorityOrder(priority));

  it("gives the same nodes in the same order as sorting every visible cell's candidates", () => {
    const views: SpaceRect[] = [
      { minX: 0, minY: 0, maxX: 1000, maxY: 1000 },
      { minX: 120.5, minY: 300.25, maxX: 180.75, maxY: 333 },
      { minX: 990, minY: -50, maxX: 2000, maxY: 10 },
      { minX: 400, minY: 400, maxX: 400.01, maxY: 400.01 },
    ];
    for (const view of views)
      expect([...visibleCandidates(grid, positions, priority, view)]).toEqual(sortedCandidates(grid, positions, priority, view));
  });

  it("a caller stopping after its budget gets the highest priorities first", () => {
    const view = { minX: 0, minY: 0, maxX: 1000, maxY: 1000 };
    const all = sortedCandidates(grid, positions, priority, view);
    const firstFew: number[] = [];
    for (const index of visibleCandidates(grid, positions, priority, view)) {
      firstFew.push(index);
      if (firstFew.length === 16) break;
    }
    expect(firstFew).toEqual(all.slice(0, 16));
  });
});
