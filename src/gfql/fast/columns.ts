// A stored table's columns as JavaScript arrays, read once per table and kept with it, for the fast path's
// predicates: each nodejs-polars wrapper (an Expr, a Series) costs a few tenths of a millisecond, more than testing
// the few thousand rows a small query touches. Text columns are not copied: a JavaScript string per row costs more
// time (the first query over a column paid for the copy) and memory than polars takes to test the whole column.

import pl from "nodejs-polars";

/** Numbers (every value exactly representable) or booleans as 0/1; `nulls[i]` is 1 where row i is null. */
export type ColumnData =
  | { kind: "number"; values: Float64Array; nulls: Uint8Array | null; unsigned: boolean }
  | { kind: "bool"; values: Uint8Array; nulls: Uint8Array | null };

const SAFE = 2 ** 53;

const tables = new WeakMap<object, Map<string, ColumnData | null>>();

function nullMask(series: pl.Series): Uint8Array | null {
  if (series.nullCount() === 0) return null;
  return series.isNull().cast(pl.UInt8).toTypedArray() as Uint8Array;
}

/**
 * Whether a value is NaN: `includes` finds NaN (SameValueZero) in V8's own code, about half the time of a plain loop
 * over 5M values, and with no warm-up (a first query paid the loop unoptimized; a callback per value, as `some`
 * takes, cost several times as much).
 */
const hasNaN = (values: Float64Array): boolean => values.includes(Number.NaN);

function read(frame: pl.DataFrame, column: string): ColumnData | null {
  const series = frame.getColumn(column);
  const variant = String(series.dtype.variant);
  // Float32 stays in polars: it compares a float literal as float32, which JavaScript cannot mirror.
  if (/^(U?Int(8|16|32|64)|Float64)$/.test(variant)) {
    if (/Int64$/.test(variant)) {
      const max = Number(series.max() ?? 0);
      const min = Number(series.min() ?? 0);
      if (Math.abs(max) >= SAFE || Math.abs(min) >= SAFE) return null;
    }
    // (a cast or a fill that changes nothing would copy the column once more)
    const asFloat = variant === "Float64" ? series : series.cast(pl.Float64);
    const values = (series.nullCount() === 0 ? asFloat : asFloat.fillNull("zero")).toTypedArray() as Float64Array;
    // polars orders NaN above every number and finds it equal to itself: such a column stays in polars
    if (variant === "Float64" && hasNaN(values)) return null;
    return { kind: "number", values, nulls: nullMask(series), unsigned: variant.startsWith("U") };
  }
  if (variant === "Bool") {
    return { kind: "bool", values: series.cast(pl.UInt8).fillNull("zero").toTypedArray() as Uint8Array, nulls: nullMask(series) };
  }
  return null;
}

function cached(
  cache: WeakMap<object, Map<string, ColumnData | null>>,
  key: object,
  column: string,
  make: () => ColumnData | null,
): ColumnData | null {
  let columns = cache.get(key);
  if (columns === undefined) {
    columns = new Map();
    cache.set(key, columns);
  }
  if (!columns.has(column)) columns.set(column, make());
  return columns.get(column) ?? null;
}

/** The column's values for JavaScript predicates, or null when only polars may test it (its dtype, NaN). */
export function columnData(frame: pl.DataFrame, column: string): ColumnData | null {
  return cached(tables, frame, column, () => read(frame, column));
}
