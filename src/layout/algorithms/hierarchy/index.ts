// The hierarchical layouts of python-igraph: Reingold-Tilford trees (straight and circular), Sugiyama's layered
// drawing and the bipartite two-row drawing, with python-igraph's names, aliases and parameters.
import { ComputeInputError, type ParamSpec } from "../../../compute/types.ts";
import { aliasOf, type LayoutEntry, layoutEntry } from "../../types.ts";
import { fromComputeGraph, type Mode } from "./igraph-graph.ts";
import { reingoldTilford, reingoldTilfordCircular } from "./reingold-tilford.ts";

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
  rootlevel: { type: "numbers", nullable: true, min: 0, description: "with several roots: the level (depth) of each root" },
};

function treeOptions(params: Record<string, unknown>) {
  const mode = String(params.mode ?? "out").toLowerCase();
  if (mode !== "out" && mode !== "in" && mode !== "all") throw new ComputeInputError("mode must be out, in or all", "mode");
  return {
    mode: mode as Mode,
    roots: params.root as Int32Array | null | undefined,
    rootlevel: params.rootlevel as number[] | null | undefined,
  };
}

const rt = layoutEntry({
  library: "igraph",
  name: "rt",
  dims: 2,
  params: treeParams,
  doc: "Reingold-Tilford tree: y = depth from the root (BFS tree for non-trees), parents centered over their children",
  place: (graph, params) => reingoldTilford(fromComputeGraph(graph), treeOptions(params)),
});

const rtCircular = layoutEntry({
  library: "igraph",
  name: "rt_circular",
  dims: 2,
  params: treeParams,
  doc: "Reingold-Tilford tree drawn radially: the root at the center, depth as the radius",
  place: (graph, params) => reingoldTilfordCircular(fromComputeGraph(graph), treeOptions(params)),
});

export const entries: LayoutEntry[] = [
  rt,
  aliasOf(rt, "tree"),
  aliasOf(rt, "reingold_tilford"),
  rtCircular,
  aliasOf(rtCircular, "reingold_tilford_circular"),
];
