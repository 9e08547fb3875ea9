// Picks the first positions: bound node_x/node_y, else the session's saved layout, else a seed the GPU layout untangles.
import type { GraphModel } from "./graph-model.ts";
import type { LayoutStart } from "./graph-view.ts";
import { mulberry32 } from "./random.ts";

export type LayoutSource = "bound" | "saved" | "simulated";
export type LayoutPlan = LayoutStart & { source: LayoutSource };

const SPACE = 4096;

export function planLayout(model: GraphModel, saved: Float32Array | undefined): LayoutPlan {
  const n = model.topology.nodeCount;
  if (model.boundPositions) return { positions: model.boundPositions, simulate: false, rescale: true, source: "bound" };
  if (saved && saved.length === n * 2 && allFinite(saved)) return { positions: saved, simulate: false, rescale: false, source: "saved" };
  return { positions: seedPositions(n), simulate: n > 1, rescale: false, source: "simulated" };
}

/** A disc of points around the middle of the simulation space, the same for the same node count. */
export function seedPositions(n: number): Float32Array {
  const out = new Float32Array(n * 2);
  const random = mulberry32(n + 1);
  const radius = Math.min(SPACE * 0.3, 40 + Math.sqrt(n) * 6);
  for (let i = 0; i < n; i++) {
    const r = radius * Math.sqrt(random());
    const a = random() * Math.PI * 2;
    out[i * 2] = SPACE / 2 + r * Math.cos(a);
    out[i * 2 + 1] = SPACE / 2 + r * Math.sin(a);
  }
  return out;
}

function allFinite(values: Float32Array): boolean {
  for (let i = 0; i < values.length; i++) if (!Number.isFinite(values[i])) return false;
  return true;
}
