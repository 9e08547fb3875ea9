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

/** The column's values if a query has read them already (undefined: not read yet; null: only polars may test it). */
export function readColumnData(frame: pl.DataFrame, column: string): ColumnData | null | undefined {
  const columns = tables.get(frame);
  return columns?.has(column) ? (columns.get(column) ?? null) : undefined;
}

const dtypes = new WeakMap<object, Record<string, string>>();

/** The dtype name (polars' variant) of each column of `frame`, read once per table. */
export function dtypeOf(frame: pl.DataFrame, column: string): string | undefined {
  let names = dtypes.get(frame);
  if (names === undefined) {
    names = Object.fromEntries(
      Object.entries(frame.schema as Record<string, pl.DataType>).map(([name, type]) => [name, String(type.variant)]),
    );
    dtypes.set(frame, names);
  }
  return names[column];
}

/** Columns to read into JavaScript once the thread is idle, and the read under way. */
const later: Array<[pl.DataFrame, string]> = [];
let reading: Promise<void> | undefined;

/**
 * Reads the column into JavaScript once the thread is next idle (after the query that tested it through polars has
 * answered), so that the next query testing a few of its rows finds it read, and no query waits for the copy.
 */
export function readWhenIdle(frame: pl.DataFrame, column: string): void {
  if (readColumnData(frame, column) !== undefined) return;
  later.push([frame, column]);
  reading ??= new Promise<void>((resolve) => {
    setImmediate(() => {
      reading = undefined;
      try {
        for (const [f, c] of later.splice(0)) columnData(f, c);
      } finally {
        resolve();
      }
    });
  });
}

/** Settles once the columns waiting for an idle moment are read (benchmarks time queries apart from that work). */
export const idleReads = (): Promise<void> => reading ?? Promise.resolve();
