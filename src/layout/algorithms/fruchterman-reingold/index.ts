// Fruchterman-Reingold (igraph's fr / fruchterman_reingold, and fr_3d / fr3d / fruchterman_reingold_3d), with
// python-igraph 0.10's layout_fruchterman_reingold keyword names and defaults (python's `dim` is the _3d name);
// CPU and OpenCL backends. One addition: igraph's 3D form has no grid (always all pairs, O(n^2) a step); here
// fr_3d takes `grid` too, with the same automatic choice as 2D, so large graphs can be laid out in 3D.
import type { ParamSpec } from "../../../compute/types.ts";
import { aliasOf, type Dims, type LayoutEntry, layoutEntry } from "../../types.ts";
import { placeFr, startFr } from "./layout.ts";

const bound = (description: string): ParamSpec => ({ type: "json", nullable: true, default: null, description });

function params(dims: Dims): Record<string, ParamSpec> {
  const out: Record<string, ParamSpec> = {
    weights: { type: "edgeColumn", nullable: true, description: "edge column multiplying each edge's attraction (positive)" },
    niter: { type: "integer", default: 500, min: 0, description: "iterations; the temperature falls linearly to 0 over them" },
    seed: {
      type: "json",
      nullable: true,
      default: null,
      description: `start positions: a list of ${dims === 3 ? "[x, y, z]" : "[x, y]"} rows, one per vertex`,
    },
    start_temp: {
      type: "number",
      nullable: true,
      min: 0,
      description: "largest move of a vertex in the first step (default sqrt(n) / 10)",
    },
    minx: bound("per-vertex lower bound on x (list, null entries unbounded)"),
    maxx: bound("per-vertex upper bound on x"),
    miny: bound("per-vertex lower bound on y"),
    maxy: bound("per-vertex upper bound on y"),
    grid: {
      type: "enum",
      values: ["auto", "grid", "nogrid"],
      default: "auto",
      description: "grid: repel only the pairs of igraph's start grid closer than 2 (fast); auto: the grid above 1000 vertices",
    },
  };
  if (dims === 3) {
    out.minz = bound("per-vertex lower bound on z");
    out.maxz = bound("per-vertex upper bound on z");
  }
  return out;
}

const LIVE = ["niter", "start_temp"] as const;

const fr = layoutEntry({
  library: "igraph",
  name: "fr",
  dims: 2,
  params: params(2),
  backends: ["cpu", "opencl"],
  doc: "Fruchterman-Reingold force-directed layout (igraph's algorithm; the grid form above 1000 vertices)",
  place: (graph, p, ctx) => placeFr(2, graph, p, ctx),
  start: (graph, p, ctx, initial) => startFr(2, graph, p, ctx, initial).iteration,
  liveParams: LIVE,
});

const fr3d = layoutEntry({
  library: "igraph",
  name: "fr_3d",
  dims: 3,
  params: params(3),
  backends: ["cpu", "opencl"],
  doc: "Fruchterman-Reingold in 3D (igraph's algorithm; a 3D grid above 1000 vertices)",
  place: (graph, p, ctx) => placeFr(3, graph, p, ctx),
  start: (graph, p, ctx, initial) => startFr(3, graph, p, ctx, initial).iteration,
  liveParams: LIVE,
});

export const entries: LayoutEntry[] = [
  fr,
  aliasOf(fr, "fruchterman_reingold"),
  fr3d,
  aliasOf(fr3d, "fr3d"),
  aliasOf(fr3d, "fruchterman_reingold_3d"),
];
