// Internal column names and id-set helpers (semi joins, unions) shared by the GFQL executor.

import pl from "nodejs-polars";

/**
 * A graph being queried. After a row-pipeline Call (rows, select, group_by, ...) `rows` is true: `nodes` then holds
 * the active row table and `edges` is empty.
 */
export type GfqlGraph = {
  nodes: pl.DataFrame;
  edges: pl.DataFrame;
  nodeId: string;
  source: string;
  destination: string;
  rows?: boolean;
  /**
   * Every edge endpoint is already a row of `nodes` (a materialized dataset guarantees it), so the executor
   * need not look for missing ones, a pass over every edge.
   */
  endpointsInNodes?: boolean;
  /**
   * The node table lacks some endpoints on purpose (filter_nodes_by_dict keeps every edge, as pygraphistry's does):
   * a traversal then sees only the edges both of whose endpoints have a row, as pygraphistry's hop does (it joins
   * each edge's far end with the node table), and adds no node.
   */
  partialNodes?: boolean;
  /** The bound `edge_weight` column (compute_cugraph weighs by it). */
  edgeWeight?: string | undefined;
};

export const ID = "__gfql_id";
export const EID = "__gfql_eid";
export const A = "__gfql_a";
export const B = "__gfql_b";
export const HOP = "__gfql_hop";

const built = new Map<string, pl.Expr>();

/**
 * A polars expression built once and reused (expressions are immutable): nodejs-polars builds a large wrapper
 * object for every Expr, which costs a few tenths of a millisecond, so a hop loop building a dozen per hop would
 * spend more on wrappers than on small frames' work. Keys name internal patterns and column names.
 */
export function memoExpr(key: string, build: () => pl.Expr): pl.Expr {
  let e = built.get(key);
  if (e === undefined) {
    if (built.size > 10_000) built.clear(); // column names come from data: stay bounded
    e = build();
    built.set(key, e);
  }
  return e;
}

/** pl.col(from).alias(to), memoized. */
export function colAs(from: string, to: string): pl.Expr {
  return memoExpr(`as\u0000${from}\u0000${to}`, () => pl.col(from).alias(to));
}

/** pl.col(name), memoized. */
export function col(name: string): pl.Expr {
  return memoExpr(`col\u0000${name}`, () => pl.col(name));
}

/**
 * The dtype of `column`, read from the frame's dtype list: getColumn builds a Series wrapper, which costs more
 * than a small query's polars work.
 */
export function dtypeOf(df: pl.DataFrame, column: string): pl.DataType {
  const i = df.columns.indexOf(column);
  let dtypes: pl.DataType[] | undefined;
  try {
    dtypes = df.dtypes;
  } catch {
    dtypes = undefined; // some dtypes (Binary, Int128) cannot be read this way
  }
  return dtypes?.[i] ?? df.getColumn(column).dtype;
}

/** The distinct values of `column` as a one-column id frame. */
export function idsOf(df: pl.DataFrame, column: string): pl.DataFrame {
  // the expression's unique is far faster than DataFrame.unique (which hashes rows)
  return df.select(memoExpr(`ids\u0000${column}`, () => pl.col(column).unique().alias(ID)));
}

/** Rows of `df` whose `column` is in the id frame, in their original order. */
export function keepIn(df: pl.DataFrame, column: string, ids: pl.DataFrame): pl.DataFrame {
  return df.join(ids, { leftOn: column, rightOn: ID, how: "semi" });
}

/** The distinct rows of `frames`, each of which holds distinct rows already (so one frame is returned as is). */
export function union(frames: pl.DataFrame[], empty: pl.DataFrame): pl.DataFrame {
  const nonEmpty = frames.filter((f) => f.height > 0);
  if (nonEmpty.length === 0) return empty;
  if (nonEmpty.length === 1) return nonEmpty[0] as pl.DataFrame;
  const all = pl.concat(nonEmpty);
  const only = all.columns.length === 1 ? all.columns[0] : undefined;
  return only === undefined ? all.unique() : all.select(memoExpr(`unique\u0000${only}`, () => pl.col(only).unique()));
}

/** The frames stacked, repeats kept: enough for a semi join (keepIn), which only asks whether a key is there. */
export function concatIds(frames: pl.DataFrame[], empty: pl.DataFrame): pl.DataFrame {
  const nonEmpty = frames.filter((f) => f.height > 0);
  if (nonEmpty.length === 0) return empty;
  return nonEmpty.length === 1 ? (nonEmpty[0] as pl.DataFrame) : pl.concat(nonEmpty);
}

/** Adds a boolean column `name` that is true where `column` is in the id frame. */
export function markIn(df: pl.DataFrame, column: string, ids: pl.DataFrame, name: string): pl.DataFrame {
  const flags = ids.withColumn(pl.lit(true).alias(name));
  const base: pl.DataFrame = df.columns.includes(name) ? df.drop(name) : df;
  const joined: pl.DataFrame = base.join(flags, { leftOn: column, rightOn: ID, how: "left" });
  return joined.withColumn(pl.col(name).fillNull(false).alias(name)).select(...base.columns, name);
}

/** Adds (or replaces) column `name` from a two-column (key, HOP) frame joined on `column`; unmatched rows get null. */
export function addLabel(df: pl.DataFrame, column: string, labels: pl.DataFrame, key: string, name: string): pl.DataFrame {
  const base: pl.DataFrame = df.columns.includes(name) ? df.drop(name) : df;
  const renamed = labels.select(pl.col(key).alias(`${key}_label`), pl.col(HOP).alias(name));
  return base.join(renamed, { leftOn: column, rightOn: `${key}_label`, how: "left" }).select(...base.columns, name);
}
