// GFQL Call fa2_layout, as pygraphistry's graphistry/layout/fa2.py does it on its GPU engine: ForceAtlas2 (the
// registry's cugraph force_atlas2, undirected, with fa2_params or Graphistry's defaults) on the nodes that have an
// edge once self-loops are set aside, then the nodes left without one on a circle (circle_layout) around the FA2
// layout's bounding box, or one circle per partition around that partition's box. Positions land in node columns
// x and y; node rows keep their order.
import pl from "nodejs-polars";
import { csrOfTables } from "../compute/graph-from-tables.ts";
import { checkParams, type ParsedEntry } from "../compute/params.ts";
import { AppError } from "../errors/app-error.ts";
import type { LayoutEntry } from "../layout/types.ts";
import { asGfqlError } from "./call-compute.ts";
import { lookupLayout, placeLayout, tablesOf, withPositionColumns } from "./call-layout.ts";
import { gfqlError, isPlainObject } from "./gfql-error.ts";
import type { GfqlGraph } from "./graph-frames.ts";

export const FA2_CALL_PARAMS = {
  fa2_layout: {
    allowed: ["fa2_params", "circle_layout_params", "partition_key", "remove_self_edges", "engine", "featurize"],
    required: [],
  },
} as const;

/** pygraphistry's GRAPHISTRY_FA2_PARAMS: used when fa2_params is not given (a given object replaces them whole). */
export const GRAPHISTRY_FA2_PARAMS = { max_iter: 1000, outbound_attraction_distribution: false, scaling_ratio: 1 };

const CIRCLE_PARAMS = ["ring_spacing", "point_spacing", "partition_by", "sort_by", "ascending", "na_position", "ignore_index", "engine"];
const ENGINES = ["auto", "pandas", "cudf", "dask", "dask_cudf"];

export type Fa2LayoutSpec = {
  fn: "fa2_layout";
  entry: ParsedEntry & { entry: LayoutEntry };
  /** Where fa2_params sit in the query (errors inside them name it). */
  paramsPath: string;
  partitionKey: string | undefined;
  partitionBy: string | undefined;
  removeSelfEdges: boolean;
};

const invalid = (key: string, want: string, path: string) =>
  gfqlError("E201", `invalid parameter '${key}' for 'fa2_layout': expected ${want}`, `${path}.params.${key}`);

function parseCircleParams(raw: unknown, path: string): string | undefined {
  if (raw === undefined || raw === null) return undefined;
  const at = `${path}.params.circle_layout_params`;
  if (!isPlainObject(raw)) throw invalid("circle_layout_params", "an object", path);
  for (const [key, v] of Object.entries(raw)) {
    if (!CIRCLE_PARAMS.includes(key))
      throw gfqlError("E303", `unknown parameter '${key}' for fa2_layout's circle_layout_params`, `${at}.${key}`);
    const ok =
      key === "ring_spacing" || key === "point_spacing"
        ? v === null || (typeof v === "number" && Number.isFinite(v))
        : key === "partition_by"
          ? v === null || (typeof v === "string" && v !== "")
          : key === "sort_by"
            ? v === null || typeof v === "string" || (Array.isArray(v) && v.every((s) => typeof s === "string"))
            : key === "ascending"
              ? typeof v === "boolean" || (Array.isArray(v) && v.every((b) => typeof b === "boolean"))
              : key === "na_position"
                ? v === "first" || v === "last"
                : key === "ignore_index"
                  ? typeof v === "boolean"
                  : ENGINES.includes(v as string);
    if (!ok) throw gfqlError("E201", `invalid value for fa2_layout's circle_layout_params.${key}`, `${at}.${key}`);
  }
  return (raw.partition_by as string | null | undefined) ?? undefined;
}

export function parseFa2Call(p: Record<string, unknown>, path: string): Fa2LayoutSpec {
  if (p.fa2_params !== undefined && p.fa2_params !== null && !isPlainObject(p.fa2_params)) throw invalid("fa2_params", "an object", path);
  const partitionKey = p.partition_key ?? undefined;
  if (partitionKey !== undefined && (typeof partitionKey !== "string" || partitionKey === ""))
    throw invalid("partition_key", "a column name or null", path);
  if (p.remove_self_edges !== undefined && typeof p.remove_self_edges !== "boolean") throw invalid("remove_self_edges", "a boolean", path);
  if (p.engine !== undefined && !ENGINES.includes(p.engine as string)) throw invalid("engine", `one of ${ENGINES.join(", ")}`, path);
  if (p.featurize !== undefined && p.featurize !== null) {
    if (!isPlainObject(p.featurize)) throw invalid("featurize", "an object", path);
    if (Object.keys(p.featurize).length > 0)
      throw gfqlError("unsupported-call", "parameter 'featurize' of 'fa2_layout' is not supported", `${path}.params.featurize`);
  }
  const partitionBy = parseCircleParams(p.circle_layout_params, path);
  // pygraphistry lays singletons out per partition only with both (the partition boxes come from partition_key)
  if (partitionBy !== undefined && partitionKey === undefined)
    throw gfqlError(
      "E201",
      "fa2_layout's circle_layout_params.partition_by needs partition_key (the partitions' bounding boxes)",
      `${path}.params.circle_layout_params.partition_by`,
    );
  const entry = lookupLayout("cugraph", "force_atlas2");
  if (!entry)
    throw gfqlError("unsupported-call", "'fa2_layout' needs cuGraph force_atlas2, which this server does not run", `${path}.function`);
  const paramsPath = `${path}.params.fa2_params`;
  try {
    const params = checkParams(entry, p.fa2_params ?? GRAPHISTRY_FA2_PARAMS, paramsPath);
    return {
      fn: "fa2_layout",
      entry: { label: "fa2_layout", field: paramsPath, entry, params, directed: false },
      paramsPath,
      partitionKey: partitionKey as string | undefined,
      partitionBy: partitionBy ?? (partitionKey as string | undefined),
      removeSelfEdges: p.remove_self_edges === true,
    };
  } catch (error) {
    throw asGfqlError(error, path);
  }
}

/** A partition value as a map key (null is a partition of its own). */
const keyOf = (v: unknown) => (v === null || v === undefined ? "\u0000null" : typeof v === "object" ? JSON.stringify(v) : String(v));

type Box = { cx: number; cy: number; w: number; h: number };

/** The bounding box of the given rows' positions (pygraphistry's cx, cy, w, h). */
function boxOf(rows: number[], x: Float64Array, y: Float64Array): Box {
  let [left, right, top, bottom] = [Infinity, -Infinity, Infinity, -Infinity];
  for (const r of rows) {
    left = Math.min(left, x[r] as number);
    right = Math.max(right, x[r] as number);
    top = Math.min(top, y[r] as number);
    bottom = Math.max(bottom, y[r] as number);
  }
  return { cx: (left + right) / 2, cy: (top + bottom) / 2, w: right - left, h: bottom - top };
}

function column(g: GfqlGraph, name: string, at: string): unknown[] {
  if (!g.nodes.columns.includes(name)) throw gfqlError("E201", `fa2_layout: the nodes have no column '${name}'`, at);
  return g.nodes.getColumn(name).toArray() as unknown[];
}

/** Runs fa2_layout on the current graph. */
export function runFa2Call(g: GfqlGraph, spec: Fa2LayoutSpec, path: string): GfqlGraph {
  const n = g.nodes.height;
  // the partition columns exist before any work (partition_by defaults to partition_key)
  const keys = spec.partitionKey ? column(g, spec.partitionKey, `${path}.params.partition_key`) : undefined;
  const partition = spec.partitionBy
    ? spec.partitionBy === spec.partitionKey
      ? keys
      : column(g, spec.partitionBy, `${path}.params.circle_layout_params.partition_by`)
    : undefined;
  const x = new Float64Array(n);
  const y = new Float64Array(n);
  const csr = csrOfTables(tablesOf(g));
  // 1-3. nodes with an edge other than a self-loop are laid out by FA2; the others are singletons
  const connected = new Uint8Array(n);
  for (let e = 0; e < csr.m; e++) {
    const [s, d] = [csr.src[e] as number, csr.dst[e] as number];
    if (s !== d) connected[s] = connected[d] = 1;
  }
  const connectedRows: number[] = [];
  const singletonRows: number[] = [];
  for (let i = 0; i < n; i++) (connected[i] ? connectedRows : singletonRows).push(i);
  const loopless = g.edges.filter(pl.col(g.source).neq(pl.col(g.destination)));
  // 4-5. FA2 on the connected nodes and the edges between them
  let box: Box = { cx: 0, cy: 0, w: 1, h: 1 };
  if (connectedRows.length > 0) {
    const nodes = g.nodes.select(pl.col(g.nodeId).gather(pl.Series("__rows", Int32Array.from(connectedRows))));
    let positions: Float64Array;
    try {
      positions = placeLayout({ ...tablesOf(g), nodes, edges: loopless }, spec.entry);
    } catch (error) {
      // resolved parameters name `<fa2_params>.params.<name>`: the query has them at `<fa2_params>.<name>`
      if (error instanceof AppError && typeof error.details?.field === "string")
        error.details.field = error.details.field.replace(`${spec.paramsPath}.params.`, `${spec.paramsPath}.`);
      throw asGfqlError(error, path);
    }
    for (const [k, r] of connectedRows.entries()) {
      x[r] = positions[k * 2] as number;
      y[r] = positions[k * 2 + 1] as number;
    }
    box = boxOf(connectedRows, x, y);
  }
  // 6. singletons on a circle (circle_layout): sorted by node id (within partition), around the box of the FA2
  // layout or of their partition's connected nodes (0, 0, 1, 1 for a partition without any)
  if (singletonRows.length > 0) {
    const boxes = new Map<string, Box>();
    if (keys) {
      const members = new Map<string, number[]>();
      for (const r of connectedRows) {
        const k = keyOf(keys[r]);
        const list = members.get(k);
        if (list) list.push(r);
        else members.set(k, [r]);
      }
      for (const [k, rows] of members) boxes.set(k, boxOf(rows, x, y));
    }
    const order = g.nodes
      .select(pl.col(g.nodeId).alias("__id"), ...(spec.partitionBy ? [pl.col(spec.partitionBy).alias("__part")] : []))
      .withRowIndex("__r")
      .filter(pl.col("__r").isIn(pl.lit(pl.Series(Int32Array.from(singletonRows)).cast(pl.UInt32))))
      .sort(spec.partitionBy ? ["__part", "__id"] : ["__id"])
      .getColumn("__r")
      .toArray() as number[];
    const groups = new Map<string, number[]>();
    for (const r of order) {
      const k = partition ? keyOf(partition[r]) : "";
      const list = groups.get(k);
      if (list) list.push(r);
      else groups.set(k, [r]);
    }
    for (const [k, rows] of groups) {
      const b = partition ? (boxes.get(k) ?? { cx: 0, cy: 0, w: 1, h: 1 }) : box;
      const radius = (1.05 * Math.sqrt(b.w * b.w + b.h * b.h)) / 2;
      for (const [i, r] of rows.entries()) {
        const angle = (2 * Math.PI * i) / rows.length;
        x[r] = b.cx + radius * Math.cos(angle);
        y[r] = b.cy + radius * Math.sin(angle);
      }
    }
  }
  const out = withPositionColumns(g.nodes, [
    ["x", x],
    ["y", y],
  ]);
  return { ...g, nodes: out, edges: spec.removeSelfEdges ? loopless : g.edges };
}
