// Picks where the first positions come from: bound node_x/node_y, else the stored layout (the session's, or the
// dataset version's default), else the dataset's own layout columns x/y, else the server's layout stream.
import type { GraphModel } from "./graph-model.ts";
import { mulberry32 } from "./random.ts";
import { fitIntoSpace, SPACE_SIZE } from "./space-fit.ts";

export type LayoutSource = "bound" | "saved" | "dataset" | "server";

/** Positions to draw at once (fitted into cosmos.gl's space), or none: the first server frame brings them. */
export type LayoutPlan = { source: LayoutSource; positions: Float32Array | undefined };

export function planLayout(model: GraphModel, saved: Float32Array | undefined): LayoutPlan {
  const n = model.topology.nodeCount;
  const usable = (values: Float32Array | undefined): values is Float32Array => !!values && values.length === n * 2 && allFinite(values);
  if (model.boundPositions) return { source: "bound", positions: fitIntoSpace(Float32Array.from(model.boundPositions)) };
  if (usable(saved)) return { source: "saved", positions: fitIntoSpace(saved) };
  if (usable(model.datasetPositions)) return { source: "dataset", positions: fitIntoSpace(Float32Array.from(model.datasetPositions)) };
  return { source: "server", positions: undefined };
}

/** A disc of points around the middle of the space, the same for the same node count: drawn only when the server
 * layout failed before its first frame, so the graph can still be looked at. */
export function seedPositions(n: number): Float32Array {
  const out = new Float32Array(n * 2);
  const random = mulberry32(n + 1);
  const radius = Math.min(SPACE_SIZE * 0.3, 40 + Math.sqrt(n) * 6);
  for (let i = 0; i < n; i++) {
    const r = radius * Math.sqrt(random());
    const a = random() * Math.PI * 2;
    out[i * 2] = SPACE_SIZE / 2 + r * Math.cos(a);
    out[i * 2 + 1] = SPACE_SIZE / 2 + r * Math.sin(a);
  }
  return out;
}

function allFinite(values: Float32Array): boolean {
  for (let i = 0; i < values.length; i++) if (!Number.isFinite(values[i])) return false;
  return true;
}
