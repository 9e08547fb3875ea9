// Narrowing a whole-table filter by a range: a numeric column's non-null rows sorted by value (built once per
// column and kept with the table), so `score < 10` finds its rows by binary search instead of testing every row.
// The first query over a column scans it instead (a scan costs a fraction of the sort, which only later queries
// repay). The rows found are only candidates: the filter itself still tests each of them.

import pl from "nodejs-polars";
import type { FilterDict, FilterValue, Predicate } from "../ast.ts";
import { type ColumnData, columnData } from "./columns.ts";

type NumberData = Extract<ColumnData, { kind: "number" }>;

const orders = new WeakMap<NumberData, { rows: Int32Array; values: Float64Array }>();
/** Columns a range was found in once already (by a scan). */
const scanned = new WeakSet<NumberData>();

/**
 * The column's non-null rows in ascending value order, with their values in the same order: polars' argsort of
 * the column (several times faster than a JavaScript sort with a comparator), nulls last and dropped.
 */
function sortedOf(data: NumberData, series: () => pl.Series): { rows: Int32Array; values: Float64Array } {
  let sorted = orders.get(data);
  if (sorted === undefined) {
    const { values, nulls } = data;
    const order = series().argSort({ descending: false, nullsLast: true }).cast(pl.Int32).toTypedArray() as Int32Array;
    let n = order.length;
    while (n > 0 && nulls?.[order[n - 1] as number] === 1) n--;
    const rows = order.slice(0, n);
    const inOrder = new Float64Array(n);
    for (let i = 0; i < n; i++) inOrder[i] = values[rows[i] as number] as number;
    sorted = { rows, values: inOrder };
    orders.set(data, sorted);
  }
  return sorted;
}

/** The first position whose value is >= t (`strict` false) or > t (`strict` true). */
function lowerBound(values: Float64Array, t: number, strict: boolean): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const v = values[mid] as number;
    if (strict ? v <= t : v < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

type Range = { low?: { t: number; strict: boolean }; high?: { t: number; strict: boolean } };

/** The non-null rows whose value is in the range, in row order, by one pass over the column. */
function scan(data: NumberData, range: Range): Int32Array {
  const { values, nulls } = data;
  const lo = range.low?.t ?? Number.NEGATIVE_INFINITY;
  const hi = range.high?.t ?? Number.POSITIVE_INFINITY;
  const loStrict = range.low?.strict ?? false;
  const hiStrict = range.high?.strict ?? false;
  const inRange = (v: number) => (loStrict ? v > lo : v >= lo) && (hiStrict ? v < hi : v <= hi);
  let n = 0;
  for (let r = 0; r < values.length; r++) if (nulls?.[r] !== 1 && inRange(values[r] as number)) n++;
  const rows = new Int32Array(n);
  n = 0;
  for (let r = 0; r < values.length; r++) if (nulls?.[r] !== 1 && inRange(values[r] as number)) rows[n++] = r;
  return rows;
}

/** The rows in the range: by a scan the first time the column is asked, through its sorted order after. */
function rowsIn(data: NumberData, range: Range, series: () => pl.Series): Int32Array {
  if (!orders.has(data) && !scanned.has(data)) {
    scanned.add(data);
    return scan(data, range);
  }
  const sorted = sortedOf(data, series);
  const lo = range.low ? lowerBound(sorted.values, range.low.t, range.low.strict) : 0;
  const hi = range.high ? lowerBound(sorted.values, range.high.t, !range.high.strict) : sorted.values.length;
  return sorted.rows.subarray(lo, Math.max(lo, hi));
}

function rangeOf(p: Predicate): Range | null {
  const num = (v: unknown) => (typeof v === "number" ? v : null);
  switch (p.type) {
    case "GT":
    case "GE": {
      const t = num(p.val);
      return t === null ? null : { low: { t, strict: p.type === "GT" } };
    }
    case "LT":
    case "LE": {
      const t = num(p.val);
      return t === null ? null : { high: { t, strict: p.type === "LT" } };
    }
    case "EQ": {
      const t = num(p.val);
      return t === null ? null : { low: { t, strict: false }, high: { t, strict: false } };
    }
    case "Between": {
      const [low, high] = [num(p.lower), num(p.upper)];
      return low === null || high === null ? null : { low: { t: low, strict: !p.inclusive }, high: { t: high, strict: !p.inclusive } };
    }
    default:
      return null;
  }
}

function entryRange(value: FilterValue): Range | null {
  if (value.kind === "eq") return typeof value.value === "number" ? rangeOf({ type: "EQ", val: value.value }) : null;
  return value.kind === "predicate" ? rangeOf(value.predicate) : null;
}

/**
 * Rows of `frame` that may pass `filter`, found through the narrowest numeric range among its entries; null when
 * no entry is such a range or the narrowest still holds over a quarter of the table (a scan is then as fast).
 */
export function candidateRows(frame: pl.DataFrame, filter: FilterDict): Int32Array | null {
  let best: Int32Array | null = null;
  for (const [column, value] of Object.entries(filter)) {
    const range = entryRange(value);
    if (range === null || !frame.columns.includes(column)) continue;
    const data = columnData(frame, column);
    if (data?.kind !== "number") continue;
    // a negative operand on an unsigned column is left to polars (see row-filter.ts)
    if ((range.low && data.unsigned && range.low.t < 0) || (range.high && data.unsigned && range.high.t < 0)) continue;
    const rows = rowsIn(data, range, () => frame.getColumn(column));
    if (best === null || rows.length < best.length) best = rows;
  }
  return best !== null && best.length <= frame.height / 4 ? best : null;
}
