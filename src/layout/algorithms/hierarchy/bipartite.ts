// igraph's layout_bipartite: vertices of type true in the top row (y = 0), type false in the row below (y = vgap),
// each row ordered to reduce crossings and spaced by Sugiyama's placement (igraph runs layout_sugiyama with these
// two layers).
import { ComputeInputError } from "../../../compute/types.ts";
import type { IGraph } from "./igraph-graph.ts";
import { sugiyama } from "./sugiyama.ts";

export type BipartiteOptions = {
  types: ArrayLike<number> | null | undefined;
  hgap: number;
  vgap: number;
  maxiter: number;
  checkCancelled?: () => void;
};

export function bipartite(graph: IGraph, options: BipartiteOptions): Float64Array {
  const { types } = options;
  if (!types) throw new ComputeInputError("types must name a boolean node column (python-igraph's default: type)", "types");
  if (types.length !== graph.n)
    throw new ComputeInputError(`types must give one value per node (${graph.n} nodes, got ${types.length})`, "types");
  if (options.hgap < 0) throw new ComputeInputError("hgap cannot be negative", "hgap");
  const layers = new Int32Array(graph.n);
  for (let i = 0; i < graph.n; i++) {
    const t = types[i] as number;
    if (t !== 0 && t !== 1) throw new ComputeInputError("types must be a boolean (or 0/1) column", "types");
    layers[i] = t ? 0 : 1;
  }
  return sugiyama(graph, { ...options, layers });
}
