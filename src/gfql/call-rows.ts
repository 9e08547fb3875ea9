// Row-pipeline Calls: rows, select, where_rows, order_by, skip, limit, distinct, group_by and count_table.

import pl from "nodejs-polars";
import type { AggFn, CallSpec } from "./ast.ts";
import { runRowPlan } from "./cypher/rows.ts";
import { applyFilter } from "./filter-expr.ts";
import { gfqlError } from "./gfql-error.ts";
import type { GfqlGraph } from "./graph-frames.ts";

function needAll(df: pl.DataFrame, cols: string[], path: (i: number) => string): void {
  cols.forEach((c, i) => {
    need(df, c, path(i));
  });
}

function need(df: pl.DataFrame, col: string, path: string): pl.Expr {
  if (!df.columns.includes(col)) throw gfqlError("E301", `column '${col}' not found in the row table`, path);
  return pl.col(col);
}

function aggExpr(df: pl.DataFrame, agg: AggFn, col: string | undefined, path: string): pl.Expr {
  if (col === undefined) return pl.len(); // count / count(*): rows per group
  const c = need(df, col, path);
  switch (agg) {
    case "count":
      return c.count(); // non-null values
    case "count_distinct":
      return c.dropNulls().nUnique();
    case "sum":
      return c.sum();
    case "min":
      return c.min();
    case "max":
      return c.max();
    case "mean":
    case "avg":
      return c.mean();
    case "first":
      return c.first();
    case "last":
      return c.last();
  }
}

/** A row table as the graph state: the table in `nodes`, no edges, `rows` set. */
function asRows(g: GfqlGraph, table: pl.DataFrame): GfqlGraph {
  return { ...g, nodes: table, edges: g.edges.head(0), rows: true };
}

/**
 * Runs one row call. Without a preceding `rows`, the active table is the node table (as in pygraphistry, where the
 * row operations work on the nodes frame).
 */
export function runRowCall(g: GfqlGraph, spec: CallSpec, path: string): GfqlGraph {
  const t = g.nodes;
  const at = `${path}.params`;
  switch (spec.fn) {
    case "rows": {
      if (g.rows === true) throw gfqlError("E101", "'rows' cannot run on a row table", path);
      let table = spec.table === "nodes" ? g.nodes : g.edges;
      // source: keep the rows the named step (alias) matched, read from its boolean column
      if (spec.source !== undefined) {
        if (!table.columns.includes(spec.source))
          throw gfqlError("E301", `no step named '${spec.source}' in the ${spec.table}`, `${at}.source`);
        table = table.filter(pl.col(spec.source).fillNull(false));
      }
      return asRows(g, table);
    }
    case "select":
      return asRows(g, t.select(...spec.items.map((it, i) => need(t, it.column, `${at}.items[${i}]`).alias(it.alias))));
    case "where_rows":
      return asRows(g, applyFilter(t, spec.filter, `${at}.filter_dict`, "row table"));
    case "order_by": {
      const by = spec.keys.map((k) => k.column);
      needAll(t, by, (i) => `${at}.keys[${i}]`);
      // nulls last in both directions, like pandas sort_values; ties keep their order
      return asRows(g, t.sort({ by, descending: spec.keys.map((k) => k.descending), nullsLast: true, maintainOrder: true }));
    }
    case "skip":
      return asRows(g, t.slice(Math.min(spec.value, t.height), Math.max(0, t.height - spec.value)));
    case "limit":
      return asRows(g, t.head(spec.value));
    case "distinct":
      return asRows(g, t.unique({ keep: "first", maintainOrder: true }));
    case "count_table": {
      // the active table's rows, or (with source, an alias's mark column) the rows it marks
      const table = spec.table === "edges" ? g.edges : t;
      const n = spec.source === undefined ? table.height : table.filter(need(table, spec.source, `${at}.source`).eq(pl.lit(true))).height;
      return asRows(g, pl.DataFrame({ [spec.alias]: pl.Series(spec.alias, [n], pl.Int64) }));
    }
    case "cypher_rows":
      if (g.rows === true) throw gfqlError("E101", "a Cypher query cannot run on a row table", path);
      return asRows(g, runRowPlan(g, spec.plan));
    case "group_by": {
      needAll(t, spec.keys, (i) => `${at}.keys[${i}]`);
      const aggs = spec.aggregations.map((a, i) => aggExpr(t, a.agg, a.column, `${at}.aggregations[${i}]`).alias(a.out));
      const grouped = t.groupBy(spec.keys).agg(...aggs);
      // groups come out sorted by their keys (pandas groupby's default), null keys last
      return asRows(g, grouped.sort({ by: spec.keys, nullsLast: true, maintainOrder: true }));
    }
    default:
      throw new Error(`not a row call: ${spec.fn}`);
  }
}
