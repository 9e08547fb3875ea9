// A filter dict as a batch test of rows of a stored table: plain comparisons on number and boolean columns run in
// JavaScript loops over the table's column arrays; anything else (text columns, regexes, dates, ...) is evaluated
// once by polars into a row mask. Errors and warnings are the polars path's own: a missing column is settled by strictness.ts, and an entry
// JavaScript does not take goes through filterExpr, which checks it.

import pl from "nodejs-polars";
import type { FilterDict, FilterValue, Predicate, Scalar } from "../ast.ts";
import { filterExpr, nonNull } from "../filter-expr.ts";
import { absentColumnPasses } from "../strictness.ts";
import { type ColumnData, dtypeOf, readColumnData, readWhenIdle } from "./columns.ts";
import { scratch } from "./row-sets.ts";

/** Clears pass[i] for each of rows[0..n) that fails; rows already cleared stay cleared. */
export type RowFilter = (rows: Int32Array, n: number, pass: Uint8Array) => void;

type Compare = "GT" | "LT" | "GE" | "LE" | "EQ" | "NE";
type Values = ArrayLike<number>;

// One loop per comparison, so each stays monomorphic (a comparator closure per row costs several times more).
const LOOPS: Record<Compare, (values: Values, t: number, rows: Int32Array, n: number, pass: Uint8Array) => void> = {
  GT: (v, t, rows, n, pass) => {
    for (let i = 0; i < n; i++) if (pass[i] === 1 && !((v[rows[i] as number] as number) > t)) pass[i] = 0;
  },
  LT: (v, t, rows, n, pass) => {
    for (let i = 0; i < n; i++) if (pass[i] === 1 && !((v[rows[i] as number] as number) < t)) pass[i] = 0;
  },
  GE: (v, t, rows, n, pass) => {
    for (let i = 0; i < n; i++) if (pass[i] === 1 && !((v[rows[i] as number] as number) >= t)) pass[i] = 0;
  },
  LE: (v, t, rows, n, pass) => {
    for (let i = 0; i < n; i++) if (pass[i] === 1 && !((v[rows[i] as number] as number) <= t)) pass[i] = 0;
  },
  EQ: (v, t, rows, n, pass) => {
    for (let i = 0; i < n; i++) if (pass[i] === 1 && v[rows[i] as number] !== t) pass[i] = 0;
  },
  NE: (v, t, rows, n, pass) => {
    for (let i = 0; i < n; i++) if (pass[i] === 1 && v[rows[i] as number] === t) pass[i] = 0;
  },
};

/** Clears null rows (`keep` false) or non-null rows (`keep` true). */
function nullFilter(data: ColumnData, keepNulls: boolean): RowFilter {
  const nulls = data.nulls;
  if (nulls === null) return keepNulls ? (_rows, n, pass) => pass.fill(0, 0, n) : () => {};
  const want = keepNulls ? 1 : 0;
  return (rows, n, pass) => {
    for (let i = 0; i < n; i++) if (pass[i] === 1 && nulls[rows[i] as number] !== want) pass[i] = 0;
  };
}

/** The operand as the column's values hold it, or null when JavaScript cannot mirror polars for it. */
function operand(data: ColumnData, op: Compare, value: Scalar): number | null {
  if (data.kind === "number") return typeof value === "number" && !(data.unsigned && value < 0) ? value : null;
  // booleans: only equality
  if (op !== "EQ" && op !== "NE") return null;
  return typeof value === "boolean" ? (value ? 1 : 0) : null;
}

/** Compare with null never matches (NE included), as in polars filters. */
function comparison(data: ColumnData, op: Compare, value: Scalar): RowFilter | null {
  const t = operand(data, op, value);
  if (t === null) return null;
  const dropNulls = nullFilter(data, false);
  const loop = LOOPS[op];
  const values = data.values as Values;
  return (rows, n, pass) => {
    dropNulls(rows, n, pass);
    loop(values, t, rows, n, pass);
  };
}

function membership(data: ColumnData, options: Array<Scalar | null>): RowFilter | null {
  const wanted = new Set<number>();
  let nulls = false;
  for (const option of options) {
    if (option === null) nulls = true;
    else {
      const t = operand(data, "EQ", option);
      if (t === null) return null;
      wanted.add(t);
    }
  }
  const values = data.values as Values;
  const isNull = (r: number) => data.nulls?.[r] === 1;
  return (rows, n, pass) => {
    for (let i = 0; i < n; i++) {
      if (pass[i] !== 1) continue;
      const r = rows[i] as number;
      if (!(isNull(r) ? nulls : wanted.has(values[r] as number))) pass[i] = 0;
    }
  };
}

function all(filters: Array<RowFilter | null>): RowFilter | null {
  if (filters.some((f) => f === null)) return null;
  return (rows, n, pass) => {
    for (const f of filters) (f as RowFilter)(rows, n, pass);
  };
}

function predicateFilter(data: ColumnData, p: Predicate): RowFilter | null {
  switch (p.type) {
    case "GT":
    case "LT":
    case "GE":
    case "LE":
    case "EQ":
    case "NE":
      return comparison(data, p.type, p.val);
    case "Between":
      return all([comparison(data, p.inclusive ? "GE" : "GT", p.lower), comparison(data, p.inclusive ? "LE" : "LT", p.upper)]);
    case "IsIn":
      return membership(data, p.options);
    // a number column holds no NaN here (columns.ts), so missing is null
    case "IsNull":
    case "IsNA":
      return nullFilter(data, true);
    case "NotNull":
    case "NotNA":
      return nullFilter(data, false);
    case "AllOf":
      return all(p.predicates.map((q) => predicateFilter(data, q)));
    default:
      return null;
  }
}

function entryFilter(data: ColumnData, value: FilterValue): RowFilter | null {
  // as filterExpr: a list never matches a missing cell, a plain None matches nothing
  if (value.kind === "in") return membership(data, nonNull(value.values));
  if (value.kind === "predicate") return predicateFilter(data, value.predicate);
  return value.value === null ? noRow : comparison(data, "EQ", value.value);
}

/** The entry evaluated by polars over the whole table, as a 0/1 row mask (null counts as no match). */
function polarsMask(frame: pl.DataFrame, column: string, value: FilterValue, path: string): Uint8Array {
  const expr = filterExpr(frame, { [column]: value }, path) as pl.Expr;
  return frame.select(expr.fillNull(false).cast(pl.UInt8).alias("__gfql_mask")).getColumn("__gfql_mask").toTypedArray() as Uint8Array;
}

/** Number and boolean dtypes: the columns JavaScript may test (columns.ts). */
const JS_TESTABLE = /^(U?Int(8|16|32|64)|Float64|Bool)$/;

/**
 * The test of one entry: in JavaScript over a column a query has read already. A column no query has read is tested
 * by polars the first time (one vectorised pass over the column, a byte per row back) and read into JavaScript once
 * the thread is idle: a first query no longer waits for the copy (at 5M rows about 30 ms: 8 bytes per row, every page
 * new to the process, and the NaN check; the polars pass takes about 16 ms). An entry JavaScript does not take is
 * checked now by filterExpr (its errors come in the entries' order) and evaluated by polars, as before.
 */
function entryTest(frame: pl.DataFrame, column: string, value: FilterValue, path: string): RowFilter {
  const read = readColumnData(frame, column);
  if (read !== undefined) return (read && entryFilter(read, value)) ?? maskFilter(polarsMask(frame, column, value, path));
  const dtype = dtypeOf(frame, column) ?? "";
  // Whether JavaScript takes the entry on a column of this dtype (its values aside: NaN or integers past 2^53 leave
  // it to polars, which takes every entry JavaScript does, with the same answers).
  const shape: ColumnData | null = JS_TESTABLE.test(dtype)
    ? dtype === "Bool"
      ? { kind: "bool", values: new Uint8Array(0), nulls: null }
      : { kind: "number", values: new Float64Array(0), nulls: null, unsigned: dtype.startsWith("U") }
    : null;
  if (shape === null || entryFilter(shape, value) === null) return maskFilter(polarsMask(frame, column, value, path));
  let chosen: RowFilter | undefined;
  return (rows, n, pass) => {
    if (chosen === undefined) {
      // Read meanwhile (by an earlier entry's idle read, say): tested in JavaScript.
      const data = readColumnData(frame, column);
      if (data === undefined) readWhenIdle(frame, column);
      chosen = (data && entryFilter(data, value)) ?? maskFilter(polarsMask(frame, column, value, path));
    }
    chosen(rows, n, pass);
  };
}

/** A filter testing rows against a row mask. */
function maskFilter(mask: Uint8Array): RowFilter {
  return (rows, n, pass) => {
    for (let i = 0; i < n; i++) if (pass[i] === 1 && mask[rows[i] as number] !== 1) pass[i] = 0;
  };
}

/**
 * `filter` testing positions of `order` (row order[j] at position j): the positions are mapped to rows once per
 * call, for all the entries, instead of keeping a copy of each column in every order (as long as the table, and
 * made by the first query that reads it).
 */
function through(order: Int32Array, filter: RowFilter): RowFilter {
  return (rows, n, pass) => {
    const mapped = scratch.int32(n);
    for (let i = 0; i < n; i++) mapped[i] = order[rows[i] as number] as number;
    filter(mapped, n, pass);
  };
}

/**
 * Batch tests of rows of `frame` for every entry of `filter`, one per order given (null when the dict is empty):
 * with an order the filter tests positions j of it (row order[j]) instead of rows, and `undefined` means rows.
 * Entries are checked in order, so the first bad one is the error, as filterExpr reports it; an entry polars
 * evaluates is evaluated once, over the whole table.
 */
export function rowFilters(
  frame: pl.DataFrame,
  filter: FilterDict,
  path: string,
  orders: Array<Int32Array | undefined>,
): Array<RowFilter | null> {
  const entries = Object.entries(filter);
  if (entries.length === 0) return orders.map(() => null);
  const filters: RowFilter[] = [];
  const columns = frame.columns;
  let none = false;
  for (const [column, value] of entries) {
    if (!columns.includes(column)) {
      // as filterExpr: an absent column matches nothing (the other entries are still checked), or all for IsNA
      if (!absentColumnPasses(column, value, path)) none = true;
      continue;
    }
    filters.push(entryTest(frame, column, value, path));
  }
  if (none) return orders.map(() => noRow);
  const rows = all(filters) as RowFilter;
  return orders.map((order) => (order === undefined ? rows : through(order, rows)));
}

/** The filter no row passes. */
const noRow: RowFilter = (_rows, n, pass) => {
  pass.fill(0, 0, n);
};

/** A batch test of rows of `frame` for every entry of `filter` (null when the dict is empty): see rowFilters. */
export function rowFilter(frame: pl.DataFrame, filter: FilterDict, path: string): RowFilter | null {
  return rowFilters(frame, filter, path, [undefined])[0] ?? null;
}
