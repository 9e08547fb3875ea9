// The plain geometric layouts of python-igraph: circle, star, grid, sphere, random (and their 3D forms and the
// aliases python-igraph's Graph.layout() name table gives them).
import { ComputeInputError } from "../../../compute/types.ts";
import { DEFAULT_SEED } from "../../seeded.ts";
import { aliasOf, type LayoutEntry, layoutEntry } from "../../types.ts";
import { circlePositions } from "./circle.ts";
import { grid3dPositions, gridPositions } from "./grid.ts";
import { randomLayoutPositions } from "./random.ts";
import { spherePositions } from "./sphere.ts";
import { starPositions } from "./star.ts";

/** python-igraph's `dim` on the 2D names: only 2 here (the 3D form is a name of its own: grid_3d, random_3d). */
const dim2 = {
  type: "integer",
  default: 2,
  min: 2,
  max: 2,
  description: "number of dimensions: 2 (ask for the _3d name for three)",
} as const;

function checkDim2(value: unknown, name: string): void {
  if (value !== undefined && value !== 2)
    throw new ComputeInputError(`${name} answers 2D positions (dim 2); ask for ${name === "circle" ? "sphere" : `${name}_3d`}`, "dim");
}

const seed = {
  type: "integer",
  default: DEFAULT_SEED,
  min: 0,
  max: Number.MAX_SAFE_INTEGER,
  description: "seed of the generator (Python's random.seed(seed); python-igraph itself has no seed parameter)",
} as const;

const circle = layoutEntry({
  library: "igraph",
  name: "circle",
  dims: 2,
  params: {
    order: { type: "nodes", nullable: true, description: "vertices in order around the circle; the rest sit at the origin" },
    dim: dim2,
  },
  doc: "vertices evenly on the unit circle, in node order (or `order`)",
  place: (graph, params) => {
    checkDim2(params.dim, "circle");
    return circlePositions(graph, params.order as Int32Array | null | undefined);
  },
});

const star = layoutEntry({
  library: "igraph",
  name: "star",
  dims: 2,
  params: {
    center: { type: "node", nullable: true, description: "the vertex at the center (default: the first node)" },
    order: { type: "nodes", nullable: true, description: "every vertex, the center included, in order around the circle" },
  },
  doc: "the center vertex at the origin, the others evenly on the unit circle in node order (or `order`)",
  place: (graph, params) =>
    starPositions(graph, (params.center as number | null | undefined) ?? 0, params.order as Int32Array | null | undefined),
});

const grid = layoutEntry({
  library: "igraph",
  name: "grid",
  dims: 2,
  params: {
    width: { type: "integer", default: 0, min: 0, description: "vertices per row; 0 = ceil(sqrt(n))" },
    dim: dim2,
  },
  doc: "vertices in node order on a square grid with unit spacing, row by row from the origin",
  place: (graph, params) => {
    checkDim2(params.dim, "grid");
    return gridPositions(graph.n, (params.width as number | undefined) ?? 0);
  },
});

const grid3d = layoutEntry({
  library: "igraph",
  name: "grid_3d",
  dims: 3,
  params: {
    width: { type: "integer", default: 0, min: 0, description: "vertices per row; 0 = from n and height" },
    height: { type: "integer", default: 0, min: 0, description: "rows per layer; 0 = from n and width" },
  },
  doc: "vertices in node order on a cubic grid with unit spacing: rows, then layers (z)",
  place: (graph, params) => grid3dPositions(graph.n, (params.width as number | undefined) ?? 0, (params.height as number | undefined) ?? 0),
});

const random = layoutEntry({
  library: "igraph",
  name: "random",
  dims: 2,
  params: { dim: dim2, seed },
  doc: "every coordinate uniform in [-1, 1), seeded (the same seed gives the same layout)",
  place: (graph, params) => {
    checkDim2(params.dim, "random");
    return randomLayoutPositions(graph.n, 2, (params.seed as number | undefined) ?? DEFAULT_SEED);
  },
});

const random3d = layoutEntry({
  library: "igraph",
  name: "random_3d",
  dims: 3,
  params: { seed },
  doc: "every coordinate uniform in [-1, 1) in 3D, seeded",
  place: (graph, params) => randomLayoutPositions(graph.n, 3, (params.seed as number | undefined) ?? DEFAULT_SEED),
});

const sphere = layoutEntry({
  library: "igraph",
  name: "sphere",
  dims: 3,
  params: {},
  doc: "vertices spread evenly over the unit sphere along a spiral, vertex 0 at the south pole",
  place: (graph) => spherePositions(graph.n),
});

export const entries: LayoutEntry[] = [
  circle,
  aliasOf(circle, "circular"),
  star,
  grid,
  grid3d,
  random,
  random3d,
  sphere,
  aliasOf(sphere, "spherical"),
  aliasOf(sphere, "circle_3d"),
  aliasOf(sphere, "circular_3d"),
];
