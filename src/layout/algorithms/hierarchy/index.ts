// The hierarchical layouts of python-igraph: Reingold-Tilford trees (straight and circular), Sugiyama's layered
// drawing and the bipartite two-row drawing, with python-igraph's names, aliases and parameters.
import { type ComputeContext, ComputeInputError, type ParamSpec } from "../../../compute/types.ts";
import { aliasOf, type LayoutEntry, layoutEntry } from "../../types.ts";
import { bipartite } from "./bipartite.ts";
import { fromComputeGraph, type Mode } from "./igraph-graph.ts";
import { reingoldTilford, reingoldTilfordCircular } from "./reingold-tilford.ts";
import { sugiyama } from "./sugiyama.ts";

const treeParams: Record<string, ParamSpec> = {
  mode: {
    type: "enum",
    values: ["out", "in", "all", "OUT", "IN", "ALL"],
    default: "out",
    description: "directed graphs: follow out-edges (a tree hanging from its root), in-edges, or both",
  },
  root: {
    type: "nodes",
    nullable: true,
    description: "the root(s), one per component (default: igraph's choice: highest degree, or lowest eccentricity from 500 vertices)",
  },
  rootlevel: {
    type: "numbers",
    nullable: true,
    min: 0,
    max: 1_000_000,
    description: "with several roots: the level (depth) of each root",
  },
};

function treeOptions(params: Record<string, unknown>, ctx: ComputeContext) {
  const mode = String(params.mode ?? "out").toLowerCase();
  if (mode !== "out" && mode !== "in" && mode !== "all") throw new ComputeInputError("mode must be out, in or all", "mode");
  return {
    mode: mode as Mode,
    roots: params.root as Int32Array | null | undefined,
    rootlevel: params.rootlevel as number[] | null | undefined,
    checkCancelled: () => ctx.checkCancelled(),
  };
}

const rt = layoutEntry({
  library: "igraph",
  name: "rt",
  dims: 2,
  params: treeParams,
  doc: "Reingold-Tilford tree: y = depth from the root (BFS tree for non-trees), parents centered over their children",
  place: (graph, params, ctx) => reingoldTilford(fromComputeGraph(graph), treeOptions(params, ctx)),
});

const rtCircular = layoutEntry({
  library: "igraph",
  name: "rt_circular",
  dims: 2,
  params: treeParams,
  doc: "Reingold-Tilford tree drawn radially: the root at the center, depth as the radius",
  place: (graph, params, ctx) => reingoldTilfordCircular(fromComputeGraph(graph), treeOptions(params, ctx)),
});

const gaps: Record<string, ParamSpec> = {
  hgap: { type: "number", default: 1, description: "minimum horizontal gap between vertices of one layer" },
  vgap: { type: "number", default: 1, description: "distance between layers" },
  maxiter: { type: "integer", default: 100, min: 1, description: "most sweeps of the crossing reduction" },
};

const sugiyamaEntry = layoutEntry({
  library: "igraph",
  name: "sugiyama",
  dims: 2,
  params: {
    layers: {
      type: "json",
      nullable: true,
      columnOf: "node",
      description:
        "a non-negative integer layer per node: a list in node order or a node column's name (default: computed; edges then point down)",
    },
    weights: {
      type: "json",
      nullable: true,
      columnOf: "edge",
      description: "edge weights, a list in edge order or an edge column's name: heavier edges are kept when breaking cycles",
    },
    ...gaps,
  },
  doc: "layered drawing: each vertex on its layer's row (y = layer * vgap), edges pointing down, crossings reduced",
  place: (graph, params, ctx) =>
    sugiyama(fromComputeGraph(graph), {
      layers: perNode(params.layers, "layers"),
      weights: perEdge(params.weights, graph.m),
      hgap: (params.hgap as number | undefined) ?? 1,
      vgap: (params.vgap as number | undefined) ?? 1,
      maxiter: (params.maxiter as number | undefined) ?? 100,
      checkCancelled: () => ctx.checkCancelled(),
    }),
});

/**
 * A json parameter holding one number per node: a node column resolved by the request (a typed array), or a list
 * of numbers (booleans read as 0/1). The layout checks length and values.
 */
function perNode(value: unknown, field: string): ArrayLike<number> | null {
  if (value === undefined || value === null) return null;
  if (value instanceof Float64Array || value instanceof Float32Array || value instanceof Int32Array || value instanceof Uint8Array)
    return value;
  if (Array.isArray(value) && value.every((v) => typeof v === "number" || typeof v === "boolean")) return value.map(Number);
  throw new ComputeInputError(`${field} must be a list with one value per node or the name of a node column`, field);
}

/** `weights` as a request gives them: an edge column (resolved to floats) or a list of finite numbers, one per edge. */
function perEdge(value: unknown, m: number): Float64Array | null {
  if (value === undefined || value === null) return null;
  const list =
    value instanceof Float64Array
      ? value
      : Array.isArray(value) && value.every((v) => typeof v === "number")
        ? Float64Array.from(value)
        : null;
  if (!list) throw new ComputeInputError("weights must be a list of numbers, one per edge, or the name of an edge column", "weights");
  if (list.length !== m) throw new ComputeInputError(`weights must give one number per edge (${m} edges, got ${list.length})`, "weights");
  if (!list.every(Number.isFinite)) throw new ComputeInputError("weights must be finite numbers", "weights");
  return list;
}

const bipartiteEntry = layoutEntry({
  library: "igraph",
  name: "bipartite",
  dims: 2,
  params: {
    types: {
      type: "json",
      default: "type",
      columnOf: "node",
      description: "vertex types: a boolean node column's name or a list of booleans; true in the top row (y = 0), false in the row below",
    },
    ...gaps,
  },
  doc: "two rows by vertex type (true at y = 0, false at y = vgap), ordered to reduce crossings",
  place: (graph, params, ctx) =>
    bipartite(fromComputeGraph(graph), {
      types: perNode(params.types, "types"),
      hgap: (params.hgap as number | undefined) ?? 1,
      vgap: (params.vgap as number | undefined) ?? 1,
      maxiter: (params.maxiter as number | undefined) ?? 100,
      checkCancelled: () => ctx.checkCancelled(),
    }),
});

export const entries: LayoutEntry[] = [
  rt,
  aliasOf(rt, "tree"),
  aliasOf(rt, "reingold_tilford"),
  rtCircular,
  aliasOf(rtCircular, "reingold_tilford_circular"),
  sugiyamaEntry,
  bipartiteEntry,
];
