// Comparisons and membership tests of one column against predicate operands, with pygraphistry's semantics on
// pandas (predicates/comparison.py and is_in.py), checked against pygraphistry itself
// (scripts/gfql-differential/run.ts --focus predicates):
// - a datetime column compares with a datetime operand by the instant (a naive column read as UTC), with a date
//   operand by its day (2024-03-01T10:00 equals the date 2024-03-01), with a time operand by its time of day, and
//   with ISO text as pandas reads it (a Timestamp);
// - operands of another kind never satisfy a comparison (`!=` holds on every present cell): a number against text,
//   text against a number column, anything against a boolean column but a boolean; ordering a non-date column
//   against a date is refused (E302), as pandas raises there;
// - a NaN cell satisfies nothing, `!=` included (pandas' NaN compares false; NE keeps present cells only);
// - IsIn matches each option as pandas' isin does: 1/0 are true/false in a boolean column, numbers never match
//   text, a null option matches missing text only, a time option the time of day, text a datetime column's
//   instants when all the text options read as dates ("" then matches the missing cells), none otherwise.

import pl from "nodejs-polars";
import { CalendarDate, type Scalar, type TimeOfDay } from "./ast.ts";
import { gfqlError } from "./gfql-error.ts";

export type ColumnKind = "numeric" | "string" | "bool" | "temporal" | "time" | "null" | "other";
export type Comparison = "GT" | "LT" | "GE" | "LE" | "EQ" | "NE";

/** The column as the comparisons read it: its kind and, for dates, how its integers count time. */
export type ColumnRead = {
  col: pl.Expr;
  kind: ColumnKind;
  /** Float columns hold NaN, which pandas never matches. */
  float: boolean;
  /** Datetime columns: integer units per millisecond, and whether the column carries a time zone. */
  perMs?: bigint;
  zoned?: boolean;
  /** Date columns (days since the epoch). */
  days?: boolean;
};

const DAY_MS = 86_400_000n;
const PER_MS: Record<string, bigint> = { ns: 1_000_000n, us: 1_000n, ms: 1n };

export function readColumn(col: pl.Expr, kind: ColumnKind, dtype: pl.DataType | undefined): ColumnRead {
  const variant = String(dtype?.variant ?? "");
  if (kind !== "temporal") return { col, kind, float: /^Float/.test(variant) };
  if (variant === "Date") return { col, kind, float: false, days: true };
  const typed = dtype as unknown as { timeUnit?: string; timeZone?: string | null };
  return { col, kind, float: false, perMs: PER_MS[typed.timeUnit ?? "us"] ?? 1_000n, zoned: Boolean(typed.timeZone) };
}

export function valueKind(value: Scalar): string {
  if (value instanceof Date) return "temporal";
  if (typeof value === "object") return "time";
  if (typeof value === "number") return "numeric";
  if (typeof value === "boolean") return "bool";
  return "string";
}

/** A literal operand; a time of day compares as nanoseconds since midnight (time columns are cast likewise). */
export function lit(value: Scalar): pl.Expr {
  return typeof value === "object" && !(value instanceof Date) ? pl.lit(value.timeNanos) : pl.lit(value);
}

export function isMissing(c: ColumnRead): pl.Expr {
  // pandas isna/isnull also count float NaN as missing
  return c.float ? c.col.isNull().or(c.col.isNan().fillNull(false)) : c.col.isNull();
}

function apply(x: pl.Expr, op: Comparison, v: pl.Expr): pl.Expr {
  if (op === "GT") return x.gt(v);
  if (op === "LT") return x.lt(v);
  if (op === "GE") return x.gtEq(v);
  if (op === "LE") return x.ltEq(v);
  if (op === "EQ") return x.eq(v);
  return x.neq(v);
}

/** Where column and operand cannot be compared: `==` and orderings hold nowhere, `!=` on every present cell. */
function incomparable(c: ColumnRead, op: Comparison): pl.Expr {
  return op === "NE" ? isMissing(c).not() : pl.lit(false);
}

const int64 = (v: bigint) => pl.lit(v).cast(pl.Int64);

/**
 * ISO text as pandas reads it against a datetime column (a naive value in the column's zone, UTC here); null when
 * it is not a date, or when it names a zone and the column has none (pandas cannot compare the two).
 */
function textAsInstant(text: string, zonedColumn: boolean): Date | null {
  const m = /^\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/.exec(text.trim());
  if (m === null || (m[1] !== undefined && !zonedColumn)) return null;
  const iso = text.trim().replace(" ", "T");
  const date = new Date(m[1] !== undefined || !iso.includes("T") ? iso : `${iso}Z`);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** A datetime or date column against an instant, a calendar day or a time of day. */
function temporalCompare(c: ColumnRead, op: Comparison, value: Date | TimeOfDay): pl.Expr {
  // Integers in the column's own unit: days for a Date column, counted here in milliseconds.
  const perMs = c.days ? 1n : (c.perMs as bigint);
  const units = c.days ? c.col.cast(pl.Int64).mul(pl.lit(Number(DAY_MS))) : c.col.cast(pl.Int64);
  const day = DAY_MS * perMs;
  if (!(value instanceof Date)) {
    const nanos = BigInt(Math.round(value.timeNanos));
    const wanted = c.days ? nanos / 1_000_000n : (nanos * perMs) / 1_000_000n;
    return apply(units.modulo(int64(day)), op, int64(wanted));
  }
  const at = BigInt(value.getTime()) * perMs;
  if (!(value instanceof CalendarDate)) return apply(units, op, int64(at));
  // By the day: [at, at + day) is the date.
  const [start, next] = [int64(at), int64(at + day)];
  if (op === "EQ") return units.gtEq(start).and(units.lt(next));
  if (op === "NE") return units.lt(start).or(units.gtEq(next));
  if (op === "GT") return units.gtEq(next);
  if (op === "GE") return units.gtEq(start);
  if (op === "LT") return units.lt(start);
  return units.lt(next);
}

/** The column against one operand, as pygraphistry's GT/LT/GE/LE/EQ/NE predicates (see the head of this file). */
export function compare(c: ColumnRead, op: Comparison, value: Scalar, column: string, path: string): pl.Expr {
  const vk = valueKind(value);
  if (c.kind === "null" || c.kind === "other") return apply(c.col, op, lit(value));
  if (c.kind === "temporal") {
    if (value instanceof Date || vk === "time") return temporalCompare(c, op, value as Date | TimeOfDay);
    const parsed = typeof value === "string" ? textAsInstant(value, c.zoned === true) : null;
    return parsed ? temporalCompare(c, op, parsed) : incomparable(c, op);
  }
  if (c.kind === "time") {
    if (vk !== "time")
      throw gfqlError("E302", `column '${column}' holds time values and cannot be compared with ${vk} ${JSON.stringify(value)}`, path);
    return apply(c.col, op, lit(value));
  }
  if (vk === "temporal" || vk === "time") {
    if (op === "EQ" || op === "NE") return incomparable(c, op);
    throw gfqlError("E302", `column '${column}' holds ${c.kind} values and cannot be ordered against ${vk} ${JSON.stringify(value)}`, path);
  }
  // pygraphistry: a boolean column against a number never satisfies (ordering them is incomparable).
  if (c.kind === "bool" && vk === "numeric") return pl.lit(false);
  const comparable = vk === c.kind || (c.kind === "numeric" && vk === "bool");
  if (!comparable) return incomparable(c, op);
  const test = apply(c.col, op, c.kind === "numeric" && vk === "bool" ? pl.lit(value ? 1 : 0) : lit(value));
  // polars orders NaN above every number and NaN != x holds; pandas compares NaN false, and NE keeps present cells.
  return c.float && (op === "GT" || op === "GE" || op === "NE") ? test.and(c.col.isNan().not()) : test;
}

/**
 * One IsIn option's matches, or null where it matches nothing (pandas' isin; see the head of this file). `texts`:
 * whether text options may match a datetime column (pandas reads them as dates only when all of them are).
 */
function member(c: ColumnRead, option: Scalar | null, texts: boolean): pl.Expr | null {
  const col = c.col;
  if (option === null) return c.kind === "string" || c.kind === "bool" || c.kind === "null" || c.kind === "other" ? col.isNull() : null;
  const vk = valueKind(option);
  switch (c.kind) {
    case "numeric":
      if (vk === "numeric") return col.eq(pl.lit(option as number));
      return vk === "bool" ? col.eq(pl.lit(option ? 1 : 0)) : null;
    case "bool":
      if (vk === "bool") return col.eq(pl.lit(option as boolean));
      return vk === "numeric" && (option === 0 || option === 1) ? col.eq(pl.lit(option === 1)) : null;
    case "string":
      return vk === "string" ? col.eq(pl.lit(option as string)) : null;
    case "temporal": {
      if (vk === "time") return temporalCompare(c, "EQ", option as TimeOfDay);
      // A date option is its midnight (pandas' isin), which a zone-aware column never holds.
      if (option instanceof CalendarDate) return c.zoned ? null : temporalCompare(c, "EQ", new Date(option.getTime()));
      // pandas reads "" as NaT, which isin matches with the missing cells.
      if (option === "" && texts) return col.isNull();
      const at = option instanceof Date ? option : typeof option === "string" && texts ? textAsInstant(option, c.zoned === true) : null;
      return at ? temporalCompare(c, "EQ", at) : null;
    }
    case "time":
      return vk === "time" ? col.eq(lit(option)) : null;
    default:
      return col.eq(lit(option));
  }
}

/** Whether the cell is one of `options` (IsIn, and a filter dict's list after its nulls are dropped). */
export function membership(c: ColumnRead, options: Array<Scalar | null>): pl.Expr {
  // pandas converts the options to dates when every text among them reads as one; else it compares them as objects.
  const texts = options.every((o) => typeof o !== "string" || o === "" || textAsInstant(o, c.zoned === true) !== null);
  let expr: pl.Expr = pl.lit(false);
  for (const option of options) {
    const m = member(c, option, texts);
    if (m !== null) expr = expr.or(m);
  }
  return expr;
}

/**
 * A filter dict's plain value (`{"age": 3}`): pygraphistry's filter_by_dict refuses text against a number column
 * and a number against a text column (E302), and otherwise tests pandas' `==` (where 1 equals true).
 */
export function equals(c: ColumnRead, value: Scalar, column: string, path: string): pl.Expr {
  const vk = valueKind(value);
  if ((c.kind === "numeric" && vk === "string") || (c.kind === "string" && vk === "numeric"))
    throw gfqlError("E302", `column '${column}' holds ${c.kind} values and cannot be compared with ${vk} ${JSON.stringify(value)}`, path);
  if (c.kind === "bool" && vk === "numeric") return value === 0 || value === 1 ? c.col.eq(pl.lit(value === 1)) : pl.lit(false);
  return compare(c, "EQ", value, column, path);
}
