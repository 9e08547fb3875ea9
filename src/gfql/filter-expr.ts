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
import { gfqlError } from "./gfql-error.ts";
import { col as colExpr, dtypeOf } from "./graph-frames.ts";
import { datePartExpr, duplicatedExpr, stringClassExpr } from "./predicate-extra.ts";
import { absentColumnPasses } from "./strictness.ts";

type ColumnKind = "numeric" | "string" | "bool" | "temporal" | "time" | "null" | "other";

/** A literal operand; a time of day compares as nanoseconds since midnight (time columns are cast likewise). */
function lit(value: Scalar): pl.Expr {
  return typeof value === "object" && !(value instanceof Date) ? pl.lit(value.timeNanos) : pl.lit(value);
}

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

function valueKind(value: Scalar): string {
  if (value instanceof Date) return "temporal";
  if (typeof value === "object") return "time";
  if (typeof value === "number") return "numeric";
  if (typeof value === "boolean") return "bool";
  return "string";
}

function checkOperand(kind: ColumnKind, value: Scalar, column: string, path: string): void {
  const vk = valueKind(value);
  const ok =
    kind === "null" || kind === "other" || vk === kind || (vk === "bool" && kind === "numeric") || (vk === "numeric" && kind === "bool");
  if (!ok) {
    throw gfqlError("E302", `column '${column}' holds ${kind} values and cannot be compared with ${vk} ${JSON.stringify(value)}`, path);
  }
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

function membership(col: pl.Expr, kind: ColumnKind, values: Array<Scalar | null>, column: string, path: string): pl.Expr {
  let expr: pl.Expr = pl.lit(false);
  for (const v of values) {
    if (v === null) {
      expr = expr.or(col.isNull());
      continue;
    }
    checkOperand(kind, v, column, path);
    expr = expr.or(col.eq(lit(v)));
  }
  return expr;
}

function isMissing(col: pl.Expr, kind: ColumnKind): pl.Expr {
  // pandas isna/isnull also count float NaN as missing
  return kind === "numeric" ? col.isNull().or(col.isNan().fillNull(false)) : col.isNull();
}

function predicateExpr(col: pl.Expr, kind: ColumnKind, p: Predicate, column: string, path: string): pl.Expr {
  switch (p.type) {
    case "GT":
    case "LT":
    case "GE":
    case "LE":
    case "EQ":
    case "NE": {
      checkOperand(kind, p.val, column, path);
      const v = lit(p.val);
      // null compares as null, which filters treat as false: comparisons with null (NE included) never match
      if (p.type === "GT") return col.gt(v);
      if (p.type === "LT") return col.lt(v);
      if (p.type === "GE") return col.gtEq(v);
      if (p.type === "LE") return col.ltEq(v);
      if (p.type === "EQ") return col.eq(v);
      return col.neq(v);
    }
    case "Between":
      checkOperand(kind, p.lower, column, path);
      checkOperand(kind, p.upper, column, path);
      return p.inclusive ? col.gtEq(lit(p.lower)).and(col.ltEq(lit(p.upper))) : col.gt(lit(p.lower)).and(col.lt(lit(p.upper)));
    case "IsIn":
      return membership(col, kind, p.options, column, path);
    case "IsNull":
    case "IsNA":
      return isMissing(col, kind);
    case "NotNull":
    case "NotNA":
      return isMissing(col, kind).not();
    case "Duplicated":
      return duplicatedExpr(col, p.keep);
    case "AllOf":
      return p.predicates.reduce<pl.Expr>((acc, q) => acc.and(predicateExpr(col, kind, q, column, path)), pl.lit(true));
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
  // filter_by_dict.filter_mask_by_dict: a missing cell is never a member of a list (isin(...) & notna()), and a
  // plain None matches nothing (`== None` is false everywhere, as null = null is unknown in three-valued logic)
  if (value.kind === "in") return membership(col, kind, nonNull(value.values), column, path);
  if (value.kind === "predicate") return predicateExpr(col, kind, value.predicate, column, path);
  if (value.value === null) return pl.lit(false);
  checkOperand(kind, value.value, column, path);
  return col.eq(lit(value.value));
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
