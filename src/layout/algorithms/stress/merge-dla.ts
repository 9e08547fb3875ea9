// igraph_layout_merge_dla: packs the 2D layouts of a graph's components. Each layout is covered by a disc of radius
// size^0.75; the largest sits at the origin, and each other one (larger first) random-walks in from the rim of the
// grid until its disc would touch one already placed (diffusion-limited aggregation). Seeded, so it repeats.
import type { ComputeContext } from "../../../compute/types.ts";
import { seededRandom } from "../../seeded.ts";
import { createMergeGrid, discAt, type MergeGrid, placeDisc } from "./merge-grid.ts";

/** One component's layout: node-major x, y of its `size` vertices. */
export type Piece = Float64Array;

/** The centre and radius of the bounding box's circumscribed circle (igraph_i_layout_sphere_2d). */
function cover(p: Piece): { x: number; y: number; r: number } {
  let xmin = p[0] as number;
  let xmax = xmin;
  let ymin = p[1] as number;
  let ymax = ymin;
  for (let i = 1; i < p.length / 2; i++) {
    const x = p[i * 2] as number;
    const y = p[i * 2 + 1] as number;
    if (x < xmin) xmin = x;
    else if (x > xmax) xmax = x;
    if (y < ymin) ymin = y;
    else if (y > ymax) ymax = y;
  }
  return { x: (xmin + xmax) / 2, y: (ymin + ymax) / 2, r: Math.sqrt((xmax - xmin) ** 2 + (ymax - ymin) ** 2) / 2 };
}

/** Walks a disc of radius r in from radius startr (around the origin) until it touches a placed disc. */
function walkIn(grid: MergeGrid, r: number, startr: number, killr: number, random: () => number): [number, number] {
  const unif = (a: number, b: number) => a + random() * (b - a);
  let x = 0;
  let y = 0;
  let sp = -1;
  while (sp < 0) {
    do {
      const angle = unif(0, 2 * Math.PI);
      const len = unif(0.5 * startr, startr);
      x = len * Math.cos(angle);
      y = len * Math.sin(angle);
      sp = discAt(grid, x, y, r);
    } while (sp >= 0);
    while (sp < 0 && Math.sqrt(x * x + y * y) < killr) {
      const angle = unif(0, 2 * Math.PI);
      const len = unif(0, startr / 100);
      const nx = x + len * Math.cos(angle);
      const ny = y + len * Math.sin(angle);
      sp = discAt(grid, nx, ny, r);
      if (sp < 0) {
        x = nx;
        y = ny;
      }
    }
  }
  return [x, y];
}

/** The pieces packed into one layout, in piece order (piece 0's vertices first). */
export function mergeDla(pieces: Piece[], seed: number, ctx: ComputeContext): Float64Array {
  const count = pieces.length;
  const sizes = pieces.map((p) => p.length / 2);
  const radius = sizes.map((s) => s ** 0.75);
  const area = radius.reduce((sum, r) => sum + r * r, 0);
  const covers = pieces.map(cover);
  const order = Array.from({ length: count }, (_, i) => i).sort((a, b) => (sizes[b] as number) - (sizes[a] as number) || a - b);
  const limit = Math.sqrt(5 * area);
  const grid = createMergeGrid(-limit, limit, 200);
  const random = seededRandom(seed);
  const at = new Float64Array(count * 2);
  const first = order[0] as number;
  placeDisc(grid, 0, 0, radius[first] as number, first);
  for (let k = 1; k < count; k++) {
    if ((k & 15) === 0) {
      ctx.checkCancelled();
      ctx.progress({ phase: "merging components", fraction: k / count });
    }
    const piece = order[k] as number;
    const [x, y] = walkIn(grid, radius[piece] as number, limit, limit + 5, random);
    at[piece * 2] = x;
    at[piece * 2 + 1] = y;
    placeDisc(grid, x, y, radius[piece] as number, piece);
  }
  const out = new Float64Array(sizes.reduce((a, b) => a + b, 0) * 2);
  let row = 0;
  for (let p = 0; p < count; p++) {
    const piece = pieces[p] as Piece;
    const c = covers[p] as { x: number; y: number; r: number };
    const scale = c.r === 0 ? 1 : (radius[p] as number) / c.r;
    for (let j = 0; j < piece.length / 2; j++, row++) {
      out[row * 2] = scale * ((piece[j * 2] as number) - c.x) + (at[p * 2] as number);
      out[row * 2 + 1] = scale * ((piece[j * 2 + 1] as number) - c.y) + (at[p * 2 + 1] as number);
    }
  }
  return out;
}
