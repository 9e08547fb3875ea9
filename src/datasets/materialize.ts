// Builds a dataset's node and edge tables from its sources and bindings, reporting every repair it makes.
import pl from "nodejs-polars";
import { AppError } from "../errors/app-error.ts";
import { variantOf } from "../ingest/normalize.ts";

export type MaterializeInput = {
  edges: pl.DataFrame | undefined;
  nodes: pl.DataFrame | undefined;
  nodeBindings: Record<string, string>;
  edgeBindings: Record<string, string>;
};

export type Materialized = {
  nodes: pl.DataFrame;
  edges: pl.DataFrame | undefined;
  /** The node id column (the `node` binding, or `node` when nodes were made from the edges). */
  nodeId: string;
  /** One sentence per repair, with counts, for the creation message. */
  report: string[];
  /** True when the edges come out exactly as they went in (so a stored copy can be reused). */
  edgesUnchanged: boolean;
};

const INTEGER = new Set(["Int8", "Int16", "Int32", "Int64", "UInt8", "UInt16", "UInt32", "UInt64"]);
const FLOAT = new Set(["Float32", "Float64"]);

const invalid = (message: string, field: string) => new AppError("INVALID_INPUT", message, { details: { field } });

function checkBound(table: pl.DataFrame | undefined, bindings: Record<string, string>, axis: "node" | "edge"): void {
  for (const [key, column] of Object.entries(bindings)) {
    const field = `${axis}_encodings.bindings.${key}`;
    // Without that table yet (pygraphistry posts edges before nodes) there is nothing to check against.
    if (!table) continue;
    if (!table.columns.includes(column)) {
      throw invalid(
        `${field} names column "${column}", which the ${axis}s table does not have (it has ${table.columns.slice(0, 20).join(", ")})`,
        field,
      );
    }
  }
}

/** One type for node ids and both endpoints: integers stay integers, numbers become floats, anything else text. */
function commonIdType(variants: string[]): { type: pl.DataType; label: string } | undefined {
  const distinct = [...new Set(variants)];
  if (distinct.length <= 1) return undefined;
  if (distinct.every((v) => INTEGER.has(v))) return { type: pl.Int64, label: "Int64" };
  if (distinct.every((v) => INTEGER.has(v) || FLOAT.has(v))) return { type: pl.Float64, label: "Float64" };
  return { type: pl.Utf8, label: "text" };
}

/** Casts an id column; whole floats become text as "1", not "1.0", so they meet integer ids written as text. */
function castId(frame: pl.DataFrame, column: string, type: pl.DataType): pl.Expr {
  const col = pl.col(column);
  if (type.equals(pl.Utf8) && FLOAT.has(variantOf(frame, column))) {
    return pl.when(col.eq(col.floor())).then(col.cast(pl.Int64).cast(pl.Utf8)).otherwise(col.cast(pl.Utf8)).alias(column);
  }
  return col.cast(type).alias(column);
}

/** Drops rows with a null in any of the columns; the same frame comes back when there is none. */
function dropNulls(frame: pl.DataFrame, columns: string[]): { frame: pl.DataFrame; dropped: number } {
  const nulls = columns.reduce((sum, c) => sum + frame.getColumn(c).nullCount(), 0);
  if (nulls === 0) return { frame, dropped: 0 };
  const kept = frame.filter(columns.map((c) => pl.col(c).isNotNull()).reduce((a, b) => a.and(b)));
  return { frame: kept, dropped: frame.height - kept.height };
}

export function materialize(input: MaterializeInput): Materialized {
  const { nodeBindings, edgeBindings } = input;
  const report: string[] = [];
  let edges = input.edges;
  let nodes = input.nodes;
  checkBound(edges, edgeBindings, "edge");
  checkBound(nodes, nodeBindings, "node");
  const source = edgeBindings.source;
  const destination = edgeBindings.destination;
  if (edges && (!source || !destination)) {
    const field = `edge_encodings.bindings.${source ? "destination" : "source"}`;
    throw invalid(`${field} is required when the dataset has edges`, field);
  }
  if (nodes && !nodeBindings.node)
    throw invalid("node_encodings.bindings.node is required with a nodes table", "node_encodings.bindings.node");
  const nodeId = nodeBindings.node ?? "node";

  if (edges && source && destination) {
    const cleaned = dropNulls(edges, [source, destination]);
    edges = cleaned.frame;
    if (cleaned.dropped > 0) report.push(`${cleaned.dropped} edges with a null source or destination were dropped.`);
  }
  if (nodes) {
    const cleaned = dropNulls(nodes, [nodeId]);
    if (cleaned.dropped > 0) report.push(`${cleaned.dropped} nodes with a null id were dropped.`);
    // The first row of each id, in order (a column test: much faster than a row-wise unique).
    const unique = cleaned.frame.filter(pl.col(nodeId).isFirstDistinct());
    if (unique.height < cleaned.frame.height)
      report.push(`${cleaned.frame.height - unique.height} duplicate node ids were dropped (the first row of each id is kept).`);
    nodes = unique;
  }
  if (edges && source && destination) {
    const variants = [variantOf(edges, source), variantOf(edges, destination), ...(nodes ? [variantOf(nodes, nodeId)] : [])];
    const common = commonIdType(variants);
    if (common) {
      const typed = edges;
      edges = edges.withColumns(castId(typed, source, common.type), castId(typed, destination, common.type));
      const nodeTable = nodes;
      if (nodeTable) nodes = nodeTable.withColumns(castId(nodeTable, nodeId, common.type));
      report.push(
        `Node ids and edge endpoints had different types (${[...new Set(variants)].join(", ")}); all were compared as ${common.label}.`,
      );
    }
    // Distinct endpoints in order of first appearance, as a column expression (a row-wise unique is several times slower).
    const endpoints = pl
      .concat([edges.select(pl.col(source).alias(nodeId)), edges.select(pl.col(destination).alias(nodeId))])
      .select(pl.col(nodeId).unique({ maintainOrder: true }));
    if (!nodes) {
      nodes = endpoints;
    } else {
      const missing = endpoints.join(nodes.select(nodeId), { on: nodeId, how: "anti" });
      if (missing.height > 0) {
        nodes = pl.concat([nodes, missing], { how: "diagonal" });
        report.push(`${missing.height} edge endpoints missing from the nodes table were added as nodes.`);
      }
    }
  }
  return { nodes: nodes ?? pl.DataFrame({ [nodeId]: [] }), edges, nodeId, report, edgesUnchanged: edges === input.edges };
}
