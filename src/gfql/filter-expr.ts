// Compiles a parsed filter dict into one polars boolean expression, checking columns (E301) and types (E302).

import pl from "nodejs-polars";
import {
  DATE_PART_TESTS,
  type DatePartTest,
  type FilterDict,
  type FilterValue,
  type Predicate,
  type Scalar,
  STRING_CLASS_TESTS,
  type StringClassTest,
} from "./ast.ts";
import { type ColumnKind, type ColumnRead, compare, equals, isMissing, membership, readColumn } from "./filter-compare.ts";
import { gfqlError } from "./gfql-error.ts";
import { col as colExpr, dtypeOf } from "./graph-frames.ts";
import { datePartExpr, duplicatedExpr, stringClassExpr } from "./predicate-extra.ts";
import { absentColumnPasses } from "./strictness.ts";

function columnKind(df: pl.DataFrame, column: string): ColumnKind {
  let variant: string;
  try {
    variant = String(dtypeOf(df, column).variant);
  } catch {
    return "other"; // dtype throws for Binary/Int128 columns
  }
  if (/^(U?Int\d+|Float\d+)$/.test(variant)) return "numeric";
  if (variant === "String" || variant === "Utf8" || variant === "Categorical") return "string";
  if (variant === "Bool") return "bool";
  if (variant === "Date" || variant === "Datetime") return "temporal";
  if (variant === "Time") return "time";
  if (variant === "Null") return "null";
  return "other";
}

/** pygraphistry's Between: numeric bounds by pandas' own >= and <= (which refuse text and dates), dates as GE/LE. */
function between(c: ColumnRead, p: Extract<Predicate, { type: "Between" }>, column: string, path: string): pl.Expr {
  const [low, high] = p.inclusive ? (["GE", "LE"] as const) : (["GT", "LT"] as const);
  if (typeof p.lower === "number" && typeof p.upper === "number") {
    const numeric = c.kind === "bool" ? { ...c, col: c.col.cast(pl.Int8), kind: "numeric" as const } : c;
    if (numeric.kind !== "numeric" && numeric.kind !== "null" && numeric.kind !== "other")
      throw gfqlError("E302", `column '${column}' holds ${c.kind} values and cannot be compared with numeric bounds`, path);
    return compare(numeric, low, p.lower, column, path).and(compare(numeric, high, p.upper, column, path));
  }
  return compare(c, low, p.lower, column, path).and(compare(c, high, p.upper, column, path));
}

const escapeRegex = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");

function regexPrefix(caseSensitive: boolean, flags: number): string {
  let inline = "";
  if (!caseSensitive || (flags & 2) !== 0) inline += "i";
  if ((flags & 8) !== 0) inline += "m";
  if ((flags & 16) !== 0) inline += "s";
  return inline === "" ? "" : `(?${inline})`;
}

function regexPredicate(p: Predicate): { pattern: string; na: boolean | null } | null {
  switch (p.type) {
    case "Contains":
      return { pattern: regexPrefix(p.case, p.flags) + (p.regex ? p.pat : escapeRegex(p.pat)), na: p.na };
    case "Startswith":
      return { pattern: `${regexPrefix(p.case, 0)}^(?:${p.pat.map(escapeRegex).join("|")})`, na: p.na };
    case "Endswith":
      return { pattern: `${regexPrefix(p.case, 0)}(?:${p.pat.map(escapeRegex).join("|")})$`, na: p.na };
    case "Match":
      return { pattern: `${regexPrefix(p.case, p.flags)}^(?:${p.pat})`, na: p.na };
    case "Fullmatch":
      return { pattern: `${regexPrefix(p.case, p.flags)}^(?:${p.pat})$`, na: p.na };
    default:
      return null;
  }
}

function predicateExpr(c: ColumnRead, p: Predicate, column: string, path: string): pl.Expr {
  const { col, kind } = c;
  switch (p.type) {
    case "GT":
    case "LT":
    case "GE":
    case "LE":
    case "EQ":
    case "NE":
      // null compares as null, which filters treat as false: comparisons with null (NE included) never match
      return compare(c, p.type, p.val, column, path);
    case "Between":
      return between(c, p, column, path);
    case "IsIn":
      return membership(c, p.options);
    case "IsNull":
    case "IsNA":
      return isMissing(c);
    case "NotNull":
    case "NotNA":
      return isMissing(c).not();
    case "Duplicated":
      return duplicatedExpr(col, p.keep);
    case "AllOf":
      return p.predicates.reduce<pl.Expr>((acc, q) => acc.and(predicateExpr(c, q, column, path)), pl.lit(true));
    default: {
      if ((STRING_CLASS_TESTS as readonly string[]).includes(p.type)) {
        if (kind !== "string" && kind !== "null")
          throw gfqlError("E302", `${p.type} needs a string column, but '${column}' holds ${kind} values`, path);
        return stringClassExpr(col, p.type as StringClassTest);
      }
      if ((DATE_PART_TESTS as readonly string[]).includes(p.type)) {
        if (kind !== "temporal" && kind !== "null")
          throw gfqlError("E302", `${p.type} needs a date column, but '${column}' holds ${kind} values`, path);
        return datePartExpr(col, p.type as DatePartTest);
      }
      const rx = regexPredicate(p);
      if (rx === null) throw gfqlError("E101", `unsupported predicate ${p.type}`, path);
      if (kind !== "string" && kind !== "null") {
        throw gfqlError("E302", `${p.type} needs a string column, but '${column}' holds ${kind} values`, path);
      }
      const matched = col.cast(pl.Utf8).str.contains(rx.pattern);
      return rx.na === null ? matched : matched.fillNull(pl.lit(rx.na));
    }
  }
}

/** The list's values other than null: a filter dict's list never matches a missing cell. */
export const nonNull = (values: Array<Scalar | null>): Scalar[] => values.filter((v): v is Scalar => v !== null);

function entryExpr(df: pl.DataFrame, column: string, value: FilterValue, path: string): pl.Expr {
  const kind = columnKind(df, column);
  const col = kind === "time" ? colExpr(column).cast(pl.Int64) : colExpr(column);
  const c = readColumn(col, kind, kind === "other" ? undefined : dtypeOf(df, column));
  // filter_by_dict.filter_mask_by_dict: a missing cell is never a member of a list (isin(...) & notna()), and a
  // plain None matches nothing (`== None` is false everywhere, as null = null is unknown in three-valued logic)
  if (value.kind === "in") return membership(c, nonNull(value.values));
  if (value.kind === "predicate") return predicateExpr(c, value.predicate, column, path);
  if (value.value === null) return pl.lit(false);
  return equals(c, value.value, column, path);
}

/**
 * One AND of all entries, or null when the dict is empty. `path` prefixes each entry's error path. An entry on a
 * column the table lacks is settled by strictness.ts (filter_by_dict.filter_mask_by_dict): it matches nothing
 * (the whole filter then matches nothing; the other entries are still checked) unless it is an IsNA test.
 * `table` names the table in that warning (by default it follows from the path).
 */
export function filterExpr(df: pl.DataFrame, filter: FilterDict, path: string, table?: string): pl.Expr | null {
  let expr: pl.Expr | null = null;
  let none = false;
  for (const [column, value] of Object.entries(filter)) {
    if (!df.columns.includes(column)) {
      if (!absentColumnPasses(column, value, path, table)) none = true;
      continue;
    }
    const e = entryExpr(df, column, value, `${path}.${column}`);
    expr = expr === null ? e : expr.and(e);
  }
  return none ? pl.lit(false) : expr;
}

const PLAIN_PREDICATES = new Set(["GT", "LT", "GE", "LE", "EQ", "NE", "Between", "IsIn", "IsNull", "NotNull", "IsNA", "NotNA"]);

/**
 * Whether `filter` (already checked by filterExpr) cannot fail when polars runs it: plain comparisons on numeric,
 * string or boolean columns. A regex, for one, is only compiled then, so a filter whose run may be put off must
 * be one of these for its error to come when it did.
 */
export function cannotFailAtRun(df: pl.DataFrame, filter: FilterDict): boolean {
  return Object.entries(filter).every(([column, value]) => {
    const kind = columnKind(df, column);
    if (kind !== "numeric" && kind !== "string" && kind !== "bool") return false;
    return value.kind !== "predicate" || PLAIN_PREDICATES.has(value.predicate.type);
  });
}

export function applyFilter(df: pl.DataFrame, filter: FilterDict, path: string, table?: string): pl.DataFrame {
  const expr = filterExpr(df, filter, path, table);
  return expr === null ? df : df.filter(expr);
}
