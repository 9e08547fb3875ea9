// igraph's layout_auto (python-igraph's Graph.layout_auto) for a graph without stored coordinates: Kamada-Kawai for
// a connected graph of at most 100 vertices, else Fruchterman-Reingold up to 1000 vertices, else DrL; the 3D forms
// for a 3D layout. The chosen layout runs from the registry with its own defaults.
import { type ComputeGraph, undirected } from "../../../../kernels/cpu/csr.ts";
import type { ComputeContext } from "../../../compute/types.ts";
import type { Dims, LayoutEntry } from "../../types.ts";

/** python-igraph's rule: the name of the layout auto runs on `graph`. */
export function autoChoice(graph: ComputeGraph, dims: Dims): string {
  const suffix = dims === 3 ? "_3d" : "";
  if (graph.n <= 100 && isConnected(graph)) return `kk${suffix}`;
  if (graph.n <= 1000) return `fr${suffix}`;
  return `drl${suffix}`;
}

/** igraph's is_connected: the null graph is not connected, one vertex is. */
function isConnected(graph: ComputeGraph): boolean {
  const n = graph.n;
  if (n === 0) return false;
  const { start, nbr } = undirected(graph);
  const seen = new Uint8Array(n);
  const stack = [0];
  seen[0] = 1;
  let reached = 1;
  while (stack.length > 0) {
    const u = stack.pop() as number;
    for (let j = start[u] as number; j < (start[u + 1] as number); j++) {
      const v = nbr[j] as number;
      if (!seen[v]) {
        seen[v] = 1;
        reached++;
        stack.push(v);
      }
    }
  }
  return reached === n;
}

/** The parameters a layout runs with when the request gives none (its defaults). */
function defaults(entry: LayoutEntry): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(entry.params)) if (spec.default !== undefined) out[name] = spec.default;
  return out;
}

/** Runs the layout auto chooses; `find` is the layout registry (passed in: the registry imports this family). */
export function autoLayout(
  graph: ComputeGraph,
  ctx: ComputeContext,
  dims: Dims,
  find: (library: string, name: string) => LayoutEntry | undefined,
): Float64Array {
  if (graph.n === 0) return new Float64Array(0);
  const name = autoChoice(graph, dims);
  const entry = find("igraph", name);
  if (!entry || entry.dims !== dims) throw new Error(`auto chose igraph's ${name}, which this service does not run`);
  return entry.place(graph, defaults(entry), ctx);
}
