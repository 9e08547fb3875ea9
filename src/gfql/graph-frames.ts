// Internal column names and id-set helpers (semi joins, unions) shared by the GFQL executor.

import pl from "nodejs-polars";

export type GfqlGraph = { nodes: pl.DataFrame; edges: pl.DataFrame; nodeId: string; source: string; destination: string };

export const ID = "__gfql_id";
export const EID = "__gfql_eid";
export const A = "__gfql_a";
export const B = "__gfql_b";

/** The distinct values of `column` as a one-column id frame. */
export function idsOf(df: pl.DataFrame, column: string): pl.DataFrame {
  return df.select(pl.col(column).alias(ID)).unique();
}

/** Rows of `df` whose `column` is in the id frame, in their original order. */
export function keepIn(df: pl.DataFrame, column: string, ids: pl.DataFrame): pl.DataFrame {
  return df.join(ids, { leftOn: column, rightOn: ID, how: "semi" });
}

export function union(frames: pl.DataFrame[], empty: pl.DataFrame): pl.DataFrame {
  const nonEmpty = frames.filter((f) => f.height > 0);
  if (nonEmpty.length === 0) return empty;
  return pl.concat(nonEmpty).unique();
}

/** Adds a boolean column `name` that is true where `column` is in the id frame. */
export function markIn(df: pl.DataFrame, column: string, ids: pl.DataFrame, name: string): pl.DataFrame {
  const flags = ids.withColumn(pl.lit(true).alias(name));
  const base: pl.DataFrame = df.columns.includes(name) ? df.drop(name) : df;
  const joined: pl.DataFrame = base.join(flags, { leftOn: column, rightOn: ID, how: "left" });
  return joined.withColumn(pl.col(name).fillNull(false).alias(name)).select(...base.columns, name);
}
