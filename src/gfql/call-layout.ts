// GFQL Calls layout_igraph and layout_cugraph (pygraphistry's names: layout, params, directed, x_out_col, y_out_col,
// bind_position, play; igraph's use_vids, cuGraph's kind and G): the layout registry's entries run synchronously on
// the current graph and write node position columns. The registry loads on first need, like the compute registry.
import { createRequire } from "node:module";
import pl from "nodejs-polars";
import { createComputeContext } from "../compute/backend.ts";
import { configuredBackend } from "../compute/compute-pool.ts";
import { computeGraphOf, type GraphTables } from "../compute/graph-from-tables.ts";
import { unknownNameHint, withArticle } from "../compute/name-hint.ts";
import { invalidField, type ParsedEntry, parseEntry, resolveParams } from "../compute/params.ts";
import { inputErrorField } from "../compute/run-entries.ts";
import { ComputeInputError } from "../compute/types.ts";
import type { LayoutEntry } from "../layout/types.ts";
import { asGfqlError } from "./call-compute.ts";
import { gfqlError, isPlainObject } from "./gfql-error.ts";
import type { GfqlGraph } from "./graph-frames.ts";

export const LAYOUT_CALL_PARAMS = {
  layout_igraph: {
    allowed: ["layout", "directed", "use_vids", "bind_position", "x_out_col", "y_out_col", "play", "params"],
    required: ["layout"],
  },
  layout_cugraph: {
    allowed: ["layout", "params", "kind", "directed", "G", "bind_position", "x_out_col", "y_out_col", "play"],
    required: [],
  },
} as const;

export type LayoutCallName = keyof typeof LAYOUT_CALL_PARAMS;

/** A checked layout Call: its entry, and the columns the positions go to. */
export type LayoutCallSpec = {
  fn: LayoutCallName;
  entry: ParsedEntry & { entry: LayoutEntry };
  /** x and y go to these columns; a 3D layout's third axis goes to `z`. */
  xCol: string;
  yCol: string;
  /** layout_cugraph writes cuGraph's own x and y columns too when x_out_col / y_out_col name others. */
  alsoXY: boolean;
};

type LayoutRegistry = typeof import("../layout/registry.ts");
let registry: LayoutRegistry | undefined;

/** Loads the layout registry in this thread (a GFQL worker does it before a query that lays out). */
export async function loadLayouts(): Promise<void> {
  registry ??= await import("../layout/registry.ts");
}

/** The layout `name` of `library`; a thread that did not await loadLayouts() loads the registry here. */
export function lookupLayout(library: string, name: string): LayoutEntry | undefined {
  registry ??= createRequire(import.meta.url)("../layout/registry.ts") as LayoutRegistry;
  return registry.findLayout(library, name);
}

const CUGRAPH_KINDS = ["Graph", "MultiGraph", "BiPartiteGraph"];

const invalid = (fn: string, key: string, want: string, path: string) =>
  gfqlError("E201", `invalid parameter '${key}' for '${fn}': expected ${want}`, `${path}.params.${key}`);

function outColumn(p: Record<string, unknown>, key: string, fn: string, path: string): string {
  const v = p[key] ?? key.slice(0, 1);
  if (typeof v !== "string" || v === "") throw invalid(fn, key, "a column name", path);
  return v;
}

/** Parses a layout Call's params into a checked registry entry and its output columns. */
export function parseLayoutCall(fn: LayoutCallName, p: Record<string, unknown>, path: string): LayoutCallSpec {
  const library = fn === "layout_igraph" ? "igraph" : "cugraph";
  const name = p.layout ?? "force_atlas2";
  if (typeof name !== "string" || name === "") throw invalid(fn, "layout", "a layout name", path);
  if (p.directed !== undefined && p.directed !== null && typeof p.directed !== "boolean")
    throw invalid(fn, "directed", "a boolean or null", path);
  if (p.params !== undefined && p.params !== null && !isPlainObject(p.params)) throw invalid(fn, "params", "an object", path);
  if (p.bind_position !== undefined && typeof p.bind_position !== "boolean") throw invalid(fn, "bind_position", "a boolean", path);
  if (p.play !== undefined && p.play !== null && !Number.isInteger(p.play)) throw invalid(fn, "play", "an integer or null", path);
  const xCol = outColumn(p, "x_out_col", fn, path);
  const yCol = outColumn(p, "y_out_col", fn, path);
  if (xCol === yCol) throw invalid(fn, "y_out_col", "a column other than x_out_col", path);
  if (fn === "layout_igraph") {
    if (p.use_vids !== undefined && p.use_vids !== false)
      throw gfqlError("unsupported-call", "parameter 'use_vids' of 'layout_igraph' is not supported", `${path}.params.use_vids`);
  } else {
    if (p.kind !== undefined && p.kind !== null && !CUGRAPH_KINDS.includes(p.kind as string))
      throw invalid(fn, "kind", `one of ${CUGRAPH_KINDS.join(", ")}`, path);
    if (p.G !== undefined && p.G !== null)
      throw gfqlError("unsupported-call", "parameter 'G' of 'layout_cugraph' is not supported", `${path}.params.G`);
  }
  const entry = lookupLayout(library, name);
  if (!entry)
    throw gfqlError(
      "E201",
      `'${name}' is not ${withArticle(library)} layout this server runs${unknownNameHint(library, name, lookupLayout)}`,
      `${path}.params.layout`,
    );
  // pygraphistry: directed=None tries directed, then undirected where the layout refuses directed graphs
  const directed = typeof p.directed === "boolean" ? p.directed : !entry.undirectedOnly;
  try {
    const parsed = parseEntry(name, { libraries: [library], alg: name, params: p.params ?? {}, directed }, `${path}.params`, lookupLayout);
    return { fn, entry: parsed as LayoutCallSpec["entry"], xCol, yCol, alsoXY: fn === "layout_cugraph" };
  } catch (error) {
    throw asGfqlError(error, path);
  }
}

/** The graph tables of a GFQL graph, as compute reads them. */
export const tablesOf = (g: GfqlGraph): GraphTables => ({
  nodes: g.nodes,
  edges: g.edges,
  nodeId: g.nodeId,
  source: g.source,
  destination: g.destination,
  edgeWeight: g.edgeWeight,
});

/**
 * Runs a checked layout entry on `tables`: node-major positions, node i = row i of `tables.nodes`. A refusal is a
 * 400 naming the field under the entry.
 */
export function placeLayout(tables: GraphTables, parsed: ParsedEntry & { entry: LayoutEntry }): Float64Array {
  const graph = computeGraphOf(tables, parsed.directed);
  const params = resolveParams(parsed, tables);
  const ctx = createComputeContext({ backend: configuredBackend() });
  try {
    return parsed.entry.place(graph, params, ctx);
  } catch (error) {
    if (error instanceof ComputeInputError) throw invalidField(`${parsed.field}: ${error.message}`, inputErrorField(parsed, error));
    throw error;
  }
}

/** `nodes` with float64 columns added or replaced (in place where they exist, else appended). */
export function withPositionColumns(nodes: pl.DataFrame, columns: [string, Float64Array][]): pl.DataFrame {
  return nodes.withColumns(...columns.map(([name, values]) => pl.Series(name, values, pl.Float64)));
}

/** Runs a parsed layout Call on the current graph: its positions as node columns. */
export function runLayoutCall(g: GfqlGraph, spec: LayoutCallSpec, path: string): GfqlGraph {
  const { dims } = spec.entry.entry;
  let positions: Float64Array;
  try {
    positions = placeLayout(tablesOf(g), spec.entry);
  } catch (error) {
    throw asGfqlError(error, path);
  }
  const n = g.nodes.height;
  const axes = Array.from({ length: dims }, (_, d) => Float64Array.from({ length: n }, (_, i) => positions[i * dims + d] as number));
  const [x, y, z] = axes as [Float64Array, Float64Array, Float64Array | undefined];
  const columns: [string, Float64Array][] = [];
  if (spec.alsoXY) columns.push(["x", x], ["y", y]);
  columns.push([spec.xCol, x], [spec.yCol, y]);
  if (z) columns.push(["z", z]);
  const unique = [...new Map(columns).entries()];
  if (unique.some(([name]) => name === g.nodeId))
    throw gfqlError("E201", `a layout column would replace the node id column '${g.nodeId}'`, `${path}.params`);
  return { ...g, nodes: withPositionColumns(g.nodes, unique) };
}
