// Writes what an algorithm answered onto the node and edge frames: columns added or replaced, node-row references
// as node ids, NaN/Inf/invalid as null, and graph answers (kept rows, new edges) replacing the graph.
import pl from "nodejs-polars";
import type { Csr } from "../../kernels/cpu/csr.ts";
import type { GraphTables } from "./graph-from-tables.ts";
import { invalidField } from "./params.ts";
import type { ComputeOutput, OutColumn } from "./types.ts";

const LIST_TYPES = { "list<int64>": pl.List(pl.Int64), "list<float64>": pl.List(pl.Float64) } as const;

/** `series` with a null wherever `valid` is 0. */
function masked(series: pl.Series, valid: Uint8Array | undefined): pl.Series {
  if (!valid) return series;
  const name = series.name;
  return pl
    .DataFrame([series, pl.Series("__valid", valid)])
    .select(pl.when(pl.col("__valid").eq(0)).then(pl.lit(null)).otherwise(pl.col(name)).alias(name))
    .getColumn(name);
}

/** Node ids at the given rows (-1 = null). */
function idsAt(nodes: pl.DataFrame, nodeId: string, rows: Int32Array | Float64Array, name: string): pl.Series {
  const clamped = new Int32Array(rows.length);
  const valid = new Uint8Array(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i] as number;
    if (r >= 0 && r < nodes.height) {
      clamped[i] = r;
      valid[i] = 1;
    }
  }
  const ids = nodes.select(pl.col(nodeId).gather(pl.Series("__i", clamped)).alias(name)).getColumn(name);
  return masked(ids, valid);
}

/** One output column as a polars series of `height` values. */
export function columnSeries(column: OutColumn, height: number, tables: GraphTables, field: string): pl.Series {
  const { name, values, type, valid } = column;
  if (values.length !== height) throw new Error(`${field}: column "${name}" has ${values.length} values for ${height} rows`);
  if (column.ref === "node") return masked(idsAt(tables.nodes, tables.nodeId, values as Int32Array, name), valid);
  let series: pl.Series;
  if (type === "list<int64>" || type === "list<float64>") {
    series = pl.Series(name, Array.from(values as ArrayLike<readonly number[] | null>), LIST_TYPES[type]);
  } else if (type === "utf8") {
    series = pl.Series(name, Array.from(values as ArrayLike<string | null>), pl.Utf8);
  } else if (values instanceof Float64Array || values instanceof Float32Array) {
    // NaN and ±Infinity are null (igraph's NaN for isolated nodes, unreachable distances)
    const raw = pl.Series(name, values instanceof Float64Array ? values : Float64Array.from(values));
    series = pl
      .DataFrame([raw])
      .select(pl.when(pl.col(name).isFinite()).then(pl.col(name)).otherwise(pl.lit(null)).alias(name))
      .getColumn(name);
    if (type === "int64" || type === "int32") series = series.cast(type === "int64" ? pl.Int64 : pl.Int32);
  } else if (values instanceof Uint8Array) {
    series = pl.Series(name, values).cast(pl.Bool);
  } else if (values instanceof Int32Array) {
    series = pl.Series(name, values);
    if (type === "int64") series = series.cast(pl.Int64);
    else if (type === "float64") series = series.cast(pl.Float64);
    else if (type === "bool") series = series.cast(pl.Bool);
  } else {
    series = pl.Series(name, Array.from(values as ArrayLike<unknown>));
  }
  return masked(series, valid);
}

/** Adds or replaces columns; the id and endpoint columns are never replaced. */
function withColumns(frame: pl.DataFrame, series: pl.Series[], protectedNames: string[], field: string): pl.DataFrame {
  for (const s of series) {
    if (protectedNames.includes(s.name))
      throw invalidField(`${field}: the output column "${s.name}" would replace the graph's own ids`, field);
  }
  return series.length === 0 ? frame : frame.withColumns(...series);
}

/** Rows of a frame, in the given order. */
function gatherRows(frame: pl.DataFrame, rows: Int32Array): pl.DataFrame {
  return frame.select(pl.all().gather(pl.Series("__rows", rows)));
}

/** Edges whose both ends are among the kept node rows. */
function edgesBetween(csr: Csr, keptNodes: Int32Array): Int32Array {
  const kept = new Uint8Array(csr.n);
  for (let i = 0; i < keptNodes.length; i++) kept[keptNodes[i] as number] = 1;
  let count = 0;
  for (let e = 0; e < csr.m; e++) if (kept[csr.src[e] as number] && kept[csr.dst[e] as number]) count++;
  const out = new Int32Array(count);
  for (let e = 0, k = 0; e < csr.m; e++) if (kept[csr.src[e] as number] && kept[csr.dst[e] as number]) out[k++] = e;
  return out;
}

/**
 * The tables after one output. `csr` is the graph the algorithm ran on (rows refer to it); `field` names the entry
 * ("compute.<label>") in errors.
 */
export function applyOutput(tables: GraphTables, output: ComputeOutput, csr: Csr, field: string): GraphTables {
  const { nodes, edges, nodeId, source, destination } = tables;
  if (output.kind === "nodes") {
    const series = output.columns.map((c) => columnSeries(c, nodes.height, tables, field));
    return { ...tables, nodes: withColumns(nodes, series, [nodeId], field) };
  }
  if (output.kind === "edges") {
    const base = edges ?? pl.DataFrame({ [source]: [], [destination]: [] });
    const series = output.columns.map((c) => columnSeries(c, base.height, tables, field));
    return { ...tables, edges: withColumns(base, series, [source, destination], field) };
  }
  if (output.newEdges) {
    const { src, dst, columns } = output.newEdges;
    const keptNodes = output.nodeRows ? gatherRows(nodes, output.nodeRows) : nodes;
    let newEdges = pl.DataFrame([idsAt(nodes, nodeId, src, source), idsAt(nodes, nodeId, dst, destination)]);
    newEdges = withColumns(
      newEdges,
      columns.map((c) => columnSeries(c, src.length, tables, field)),
      [source, destination],
      field,
    );
    return { ...tables, nodes: keptNodes, edges: newEdges };
  }
  const edgeRows = output.edgeRows ?? (output.nodeRows ? edgesBetween(csr, output.nodeRows) : null);
  const keptNodes = output.nodeRows ? gatherRows(nodes, output.nodeRows) : nodes;
  let keptEdges = edges && edgeRows ? gatherRows(edges, edgeRows) : edges;
  if (keptEdges && output.edgeColumns && output.edgeColumns.length > 0) {
    const height = keptEdges.height;
    keptEdges = withColumns(
      keptEdges,
      output.edgeColumns.map((c) => columnSeries(c, height, tables, field)),
      [source, destination],
      field,
    );
  }
  return { ...tables, nodes: keptNodes, edges: keptEdges };
}
