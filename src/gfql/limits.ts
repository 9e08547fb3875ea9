// The cap on intermediate frame sizes (hop layers, same-path joins, Let bindings): a query that would build a larger
// frame fails with [result-too-large] instead of exhausting memory.

import pl from "nodejs-polars";
import { gfqlError } from "./gfql-error.ts";

export const MAX_INTERMEDIATE_ROWS_ENV = "GFQL_MAX_INTERMEDIATE_ROWS";
export const DEFAULT_MAX_INTERMEDIATE_ROWS = 50_000_000;

/**
 * The cap, read from GFQL_MAX_INTERMEDIATE_ROWS (an integer >= 1; unset or empty is the default). It is read on
 * each use, so query workers, which inherit the server's environment, follow it too.
 */
export function maxIntermediateRows(env: Record<string, string | undefined> = process.env): number {
  const raw = env[MAX_INTERMEDIATE_ROWS_ENV];
  if (raw === undefined || raw === "") return DEFAULT_MAX_INTERMEDIATE_ROWS;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) {
    throw new Error(`${MAX_INTERMEDIATE_ROWS_ENV} must be an integer >= 1, got "${raw}"`);
  }
  return value;
}

/** Refuses `rows` rows of `what` (an intermediate frame about to be built or just built) past the cap. */
export function checkRows(rows: number, what: string, path: string): void {
  const limit = maxIntermediateRows();
  if (rows <= limit) return;
  const error = gfqlError(
    "result-too-large",
    `${what} would hold ${rows} rows, over the limit of ${limit} (${MAX_INTERMEDIATE_ROWS_ENV}); narrow the query`,
    path,
  );
  if (error.details !== undefined) Object.assign(error.details, { rows, limit });
  throw error;
}

/**
 * The row count of the inner join of `left` on `leftOn` with `right` on `rightOn`, computed from per-key counts
 * (null keys never match) without building the join.
 */
export function innerJoinSize(left: pl.DataFrame, leftOn: string, right: pl.DataFrame, rightOn: string): number {
  const K = "__gfql_key";
  const counts = (df: pl.DataFrame, on: string, name: string) =>
    df.select(pl.col(on).alias(K)).filter(pl.col(K).isNotNull()).groupBy(K).agg(pl.len().cast(pl.Float64).alias(name));
  const both = counts(left, leftOn, "__gfql_l").join(counts(right, rightOn, "__gfql_r"), { on: K, how: "inner" });
  if (both.height === 0) return 0;
  return Number(
    both
      .select(pl.col("__gfql_l").mul(pl.col("__gfql_r")).sum())
      .getColumn("__gfql_l")
      .get(0),
  );
}

/** Checks an inner join's size against the cap before it is built. */
export function checkJoin(left: pl.DataFrame, leftOn: string, right: pl.DataFrame, rightOn: string, what: string, path: string): void {
  if (left.height * right.height <= maxIntermediateRows()) return; // cannot exceed the cap: skip the counting
  checkRows(innerJoinSize(left, leftOn, right, rightOn), what, path);
}
