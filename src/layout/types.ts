// The contract between the layout service and the layouts (spec 2.9 `layout`): a layout is a compute entry whose
// answer is node positions (columns x, y and, for 3D layouts, z), so dataset creation, compute workers, jobs and GFQL
// run layouts through the same plumbing as algorithms. Force layouts can also run step by step (live sessions
// stream their positions while they run).
import type { ComputeGraph } from "../../kernels/cpu/csr.ts";
import type { AlgorithmEntry, Backend, ComputeContext, Library, ParamSpec } from "../compute/types.ts";

export type Dims = 2 | 3;

/**
 * A layout run step by step (live sessions): `step()` runs one iteration; `positions()` is the current layout,
 * node-major (node i at [i*dims, i*dims + dims)), as float32 (a view may be reused between calls: copy it to keep
 * it). `setParams` takes the layout's own parameter names (already checked against its specs) and changes them for
 * the next steps. `dispose` frees kernel buffers.
 */
export type LayoutIteration = {
  readonly dims: Dims;
  readonly iteration: number;
  step(): void;
  positions(): Float32Array;
  setParams?(params: Record<string, unknown>): void;
  dispose?(): void;
};

export type LayoutEntry = AlgorithmEntry & {
  kind: "layout";
  dims: Dims;
  /** The positions, node-major (node i at [i*dims, i*dims + dims)); node i is row i of the node table. */
  place(graph: ComputeGraph, params: Record<string, unknown>, ctx: ComputeContext): Float64Array;
  /**
   * Force layouts: the same layout as an iteration (live sessions). `initial` (node-major, `dims` per node) replaces
   * the layout's seeded start. `place` must give what `start` then `max_iter` steps give.
   */
  start?(graph: ComputeGraph, params: Record<string, unknown>, ctx: ComputeContext, initial?: Float32Array): LayoutIteration;
  /** Parameters a running iteration accepts through setParams (subset of params). */
  liveParams?: readonly string[];
};

export type LayoutSpec = {
  library: Library;
  name: string;
  params: Record<string, ParamSpec>;
  dims: Dims;
  backends?: readonly Backend[];
  undirectedOnly?: boolean;
  doc: string;
  place: LayoutEntry["place"];
  start?: LayoutEntry["start"];
  liveParams?: readonly string[];
};

/** The output columns of a layout with `dims` dimensions. */
export const axisNames = (dims: Dims): string[] => (dims === 3 ? ["x", "y", "z"] : ["x", "y"]);

/** Node-major positions as one Float64Array column per axis. */
export function splitAxes(positions: Float64Array | Float32Array, dims: Dims, n: number): Float64Array[] {
  if (positions.length !== n * dims) throw new Error(`a layout gave ${positions.length} values for ${n} nodes in ${dims}D`);
  const axes = Array.from({ length: dims }, () => new Float64Array(n));
  for (let i = 0; i < n; i++) for (let d = 0; d < dims; d++) (axes[d] as Float64Array)[i] = positions[i * dims + d] as number;
  return axes;
}

/** A registry entry from a layout's spec: `run` answers the columns x, y (and z). */
export function layoutEntry(spec: LayoutSpec): LayoutEntry {
  return {
    kind: "layout",
    library: spec.library,
    name: spec.name,
    params: spec.params,
    output: "nodes",
    backends: spec.backends ?? ["cpu"],
    ...(spec.undirectedOnly ? { undirectedOnly: true } : {}),
    doc: spec.doc,
    dims: spec.dims,
    place: spec.place,
    ...(spec.start ? { start: spec.start } : {}),
    ...(spec.liveParams ? { liveParams: spec.liveParams } : {}),
    run(graph, params, ctx) {
      const axes = splitAxes(spec.place(graph, params, ctx), spec.dims, graph.n);
      return { kind: "nodes", columns: axisNames(spec.dims).map((name, d) => ({ name, values: axes[d] as Float64Array })) };
    },
  };
}

/** The same layout under another name (igraph's aliases: fr and fruchterman_reingold run one layout). */
export function aliasOf(entry: LayoutEntry, name: string): LayoutEntry {
  return { ...entry, name };
}
