// Lowers a WHERE clause into per-variable filter_dict predicates (JSON wire form); refuses what cannot be.

import { cypherError, type Pos, unsupported } from "./errors.ts";
import type { CmpOp, Expr, Operand, Value } from "./syntax.ts";

/** A wire-form predicate ({"type":"GT","val":..} etc.). */
export type WirePredicate = Record<string, unknown>;

/** Conditions collected per variable: column -> predicates (ANDed). */
export type VarFilters = Map<string, Map<string, WirePredicate[]>>;

export function addFilter(filters: VarFilters, variable: string, column: string, pred: WirePredicate): void {
  let cols = filters.get(variable);
  if (cols === undefined) {
    cols = new Map();
    filters.set(variable, cols);
  }
  const list = cols.get(column) ?? [];
  list.push(pred);
  cols.set(column, list);
}

const FLIP: Record<string, CmpOp> = { "<": ">", ">": "<", "<=": ">=", ">=": "<=", "=": "=", "<>": "<>" };
const NEGATE: Record<string, CmpOp> = { "<": ">=", ">=": "<", ">": "<=", "<=": ">", "=": "<>", "<>": "=" };
const WIRE: Record<string, string> = { "=": "EQ", "<>": "NE", "<": "LT", "<=": "LE", ">": "GT", ">=": "GE" };

function scalar(v: Value, op: string, pos: Pos): string | number | boolean {
  if (v === null) throw cypherError(`comparison '${op}' with null is never true; use IS NULL / IS NOT NULL`, pos);
  if (Array.isArray(v)) throw unsupported(`a list operand for '${op}'`, pos);
  return v;
}
function str(v: Value, op: string, pos: Pos): string {
  if (typeof v !== "string") throw cypherError(`'${op}' needs a string operand`, pos);
  return v;
}

/** One comparison as (variable, column, predicate); `negated` applies NOT where it has an exact predicate form. */
function lowerCmp(e: Extract<Expr, { kind: "cmp" }>, negated: boolean): [string, string, WirePredicate, Pos] {
  let { op, left, right } = e;
  if (left.kind === "lit" && right.kind === "prop" && FLIP[op] !== undefined) {
    [left, right] = [right, left];
    op = FLIP[op] as CmpOp;
  }
  if (left.kind === "var" || right.kind === "var") throw unsupported("comparing whole variables (use properties)", e.pos);
  if (left.kind === "prop" && right.kind === "prop") {
    const what = left.variable === right.variable ? "comparisons between two properties" : "comparisons between two variables";
    throw unsupported(`${what} (${left.variable}.${left.key} ${op} ${right.variable}.${right.key})`, e.pos);
  }
  if (left.kind !== "prop" || right.kind !== "lit") throw unsupported(`'${op}' without a property operand`, e.pos);
  const v = right.value;
  if (negated) {
    const neg = NEGATE[op];
    if (neg === undefined) throw unsupported(`NOT ... ${op}`, e.pos);
    op = neg;
  }
  let pred: WirePredicate;
  switch (op) {
    case "=~":
      pred = { type: "Fullmatch", pat: str(v, op, right.pos) };
      break;
    case "STARTS WITH":
      pred = { type: "Startswith", pat: str(v, op, right.pos) };
      break;
    case "ENDS WITH":
      pred = { type: "Endswith", pat: str(v, op, right.pos) };
      break;
    case "CONTAINS":
      pred = { type: "Contains", pat: str(v, op, right.pos), regex: false };
      break;
    case "IN":
      if (!Array.isArray(v) || v.some((x) => Array.isArray(x))) throw cypherError("IN needs a list of scalar values", right.pos);
      pred = { type: "IsIn", options: v };
      break;
    default:
      pred = { type: WIRE[op], val: scalar(v, op, right.pos) };
  }
  return [left.variable, left.key, pred, left.pos];
}

function varsOf(e: Expr, out: Set<string>): Set<string> {
  const add = (o: Operand) => {
    if (o.kind === "prop") out.add(o.variable);
    if (o.kind === "var") out.add(o.name);
  };
  switch (e.kind) {
    case "and":
    case "or":
    case "xor":
      varsOf(e.left, out);
      varsOf(e.right, out);
      break;
    case "not":
      varsOf(e.expr, out);
      break;
    case "cmp":
      add(e.left);
      add(e.right);
      break;
    case "null":
    case "operand":
      add(e.operand);
      break;
    case "label":
      out.add(e.variable);
  }
  return out;
}

function scopeNote(e: Expr): string {
  const vars = varsOf(e, new Set());
  return vars.size > 1 ? ` across variables (${[...vars].join(", ")})` : "";
}

/** Lowers a WHERE expression (a conjunction) into `filters`; `check` validates each variable reference. */
export function lowerWhere(e: Expr, filters: VarFilters, check: (variable: string, pos: Pos) => void, negated = false): void {
  switch (e.kind) {
    case "and":
      if (negated) throw unsupported(`NOT over AND${scopeNote(e)}`, e.pos);
      lowerWhere(e.left, filters, check);
      lowerWhere(e.right, filters, check);
      return;
    case "or":
    case "xor":
      throw unsupported(`${e.kind.toUpperCase()}${scopeNote(e)} (no AnyOf predicate to lower it onto)`, e.pos);
    case "not":
      if (negated) {
        lowerWhere(e.expr, filters, check, false);
        return;
      }
      if (e.expr.kind === "and" || e.expr.kind === "or" || e.expr.kind === "xor") {
        throw unsupported(`NOT over ${e.expr.kind.toUpperCase()}${scopeNote(e.expr)}`, e.pos);
      }
      lowerWhere(e.expr, filters, check, true);
      return;
    case "null": {
      if (e.operand.kind !== "prop") throw unsupported("IS NULL on anything but a property", e.pos);
      check(e.operand.variable, e.operand.pos);
      const isNull = e.negated === negated;
      addFilter(filters, e.operand.variable, e.operand.key, { type: isNull ? "IsNull" : "NotNull" });
      return;
    }
    case "cmp": {
      const [variable, column, pred, at] = lowerCmp(e, negated);
      check(variable, at);
      addFilter(filters, variable, column, pred);
      return;
    }
    case "label":
      check(e.variable, e.pos);
      if (negated || e.labels.length !== 1) throw unsupported("this label predicate as a Chain filter", e.pos);
      addFilter(filters, e.variable, "type", { type: "EQ", val: e.labels[0] });
      return;
    case "operand":
      if (e.operand.kind === "prop") {
        check(e.operand.variable, e.operand.pos);
        addFilter(filters, e.operand.variable, e.operand.key, { type: negated ? "NE" : "EQ", val: true });
        return;
      }
      throw unsupported("a bare value as a WHERE condition", e.pos);
  }
}
