// The plain geometric layouts: circle, star, grid, sphere, random (and their 3D forms and aliases).
import { aliasOf, type LayoutEntry, layoutEntry } from "../../types.ts";
import { circlePositions } from "./circle.ts";

const circle = layoutEntry({
  library: "igraph",
  name: "circle",
  dims: 2,
  params: { order: { type: "nodes", nullable: true, description: "vertices in order around the circle; the rest sit at the origin" } },
  doc: "vertices evenly on the unit circle, in node order (or `order`)",
  place: (graph, params) => circlePositions(graph, params.order as Int32Array | null | undefined),
});

export const entries: LayoutEntry[] = [circle, aliasOf(circle, "circular")];
