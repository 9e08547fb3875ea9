// Compiles a parsed DataFrame.query string into one polars boolean expression over a table, with pandas' results:
// every comparison is a definite true or false (a missing value or NaN compares false, except `!=`, which is true),
// `==` / `!=` with a list and `in` / `not in` test membership (None in the list matches missing values), comparing
// values of unrelated types is false with `==` (true with `!=`) and refused for ordering, `/` is true division.
// Unknown names are E301, type errors E302, everything else the grammar refuses E205, each with its column.

import pl from "nodejs-polars";
import { col, dtypeOf } from "../graph-frames.ts";
import { type CallContext, compileCall, type Kind, type Lit, type Val } from "./methods.ts";
import type { ArithOp, CmpOp, QNode, QueryExpr } from "./parse.ts";
import { queryError } from "./tokenize.ts";

function kindOfColumn(df: pl.DataFrame, name: string): Kind {
  let variant: string;
  try {
    variant = String(dtypeOf(df, name).variant);
  } catch {
    return "other";
  }
  if (/^U?Int\d+$/.test(variant)) return "int";
  if (/^Float\d+$/.test(variant)) return "float";
  if (variant === "String" || variant === "Utf8" || variant === "Categorical") return "string";
  if (variant === "Bool") return "bool";
  if (variant === "Date" || variant === "Datetime") return "temporal";
  if (variant === "Null") return "null";
  return "other";
}

const litKind = (v: Lit): Kind =>
  v === null ? "null" : typeof v === "string" ? "string" : typeof v === "boolean" ? "bool" : Number.isInteger(v) ? "int" : "float";
const isNumeric = (k: Kind) => k === "int" || k === "float" || k === "bool";
const describe = (k: Kind) => (k === "int" || k === "float" ? "number" : k === "null" ? "None" : k === "temporal" ? "date" : k);

/** Python's value of `a op b` for two numbers (floor division and modulo take the divisor's sign). */
function foldArith(op: ArithOp, a: number, b: number, pos: number, path: string): number {
  switch (op) {
    case "+":
      return a + b;
    case "-":
      return a - b;
    case "*":
      return a * b;
    case "**":
      return a ** b;
    default:
      if (b === 0) throw queryError("division by zero", pos, path, "E302");
      if (op === "/") return a / b;
      if (op === "//") return Math.floor(a / b);
      return a - b * Math.floor(a / b);
  }
}

/** Names under a `/`: pandas' Div casts its terms to float64 in the expression's scope (ops.Div, _cast_inplace). */
function divided(node: QNode, under: boolean, out: Set<string>): Set<string> {
  switch (node.k) {
    case "name":
      if (under) out.add(node.name);
      break;
    case "list":
      for (const n of node.items) divided(n, under, out);
      break;
    case "attr":
      divided(node.target, under, out);
      break;
    case "call":
      divided(node.callee, under, out);
      for (const n of [...node.args, ...Object.values(node.kwargs)]) divided(n, under, out);
      break;
    case "unary":
      divided(node.arg, under, out);
      break;
    case "arith":
      divided(node.left, under || node.op === "/", out);
      divided(node.right, under || node.op === "/", out);
      break;
    case "cmp":
      for (const n of node.operands) divided(n, under, out);
      break;
    case "logic":
      for (const n of node.args) divided(n, under, out);
      break;
  }
  return out;
}

class Compiler implements CallContext {
  readonly df: pl.DataFrame;
  private readonly path: string;
  /** Integer columns read as floats everywhere in the query (numexpr then evaluates every occurrence as float). */
  private readonly floated: ReadonlySet<string>;
  constructor(df: pl.DataFrame, path: string, floated: ReadonlySet<string>) {
    this.df = df;
    this.path = path;
    this.floated = floated;
  }

  fail(message: string, pos: number, code = "E205"): never {
    throw queryError(message, pos, this.path, code);
  }

  value(node: QNode): Val {
    switch (node.k) {
      case "num":
      case "str":
      case "bool":
        return { c: "const", value: node.value, pos: node.pos };
      case "none":
        return { c: "const", value: null, pos: node.pos };
      case "name":
        return this.name(node.name, node.pos);
      case "list":
        return { c: "list", values: node.items.map((item) => this.literal(item)), pos: node.pos };
      case "unary":
        return this.unary(node.op, this.value(node.arg), node.pos);
      case "arith":
        return this.arith(node.op, this.value(node.left), this.value(node.right), node.pos);
      case "cmp":
        return this.comparison(node);
      case "attr":
        return this.fail(
          node.name === "str"
            ? "'.str' needs a method: .str.contains(), .str.startswith(), ..."
            : `attribute '.${node.name}' is not supported`,
          node.pos,
        );
      case "call":
        return compileCall(this, node);
      case "logic": {
        const conds = node.args.map((a) => this.cond(this.value(a)));
        const expr = conds.reduce((acc, c) => (node.op === "and" ? acc.and(c) : acc.or(c)));
        return { c: "cond", expr, pos: node.pos };
      }
    }
  }

  private name(name: string, pos: number): Val {
    if (this.df.columns.includes(name)) {
      const kind = kindOfColumn(this.df, name);
      if (kind === "int" && this.floated.has(name)) return { c: "expr", expr: col(name).cast(pl.Float64), kind: "float", pos };
      // NaN is pandas' missing value: it compares false, as a missing value does here
      return { c: "expr", expr: kind === "float" ? col(name).fillNan(null) : col(name), kind, pos };
    }
    // pandas' default globals: inf and Inf (columns come first)
    if (name === "inf" || name === "Inf") return { c: "const", value: Number.POSITIVE_INFINITY, pos };
    return this.fail(`name '${name}' is not defined: no such column`, pos, "E301");
  }

  /** A list item: a literal, or a sign applied to a number. */
  literal(node: QNode): Lit {
    const v = this.value(node);
    if (v.c !== "const") this.fail("list items must be literals (numbers, strings, True, False, None)", node.pos);
    return v.value;
  }

  /** A value as a polars expression with its kind (a constant becomes a literal). */
  private operand(v: Val): { expr: pl.Expr; kind: Kind } {
    if (v.c === "expr") return v;
    if (v.c === "cond") return { expr: v.expr, kind: "bool" };
    if (v.c === "list") return this.fail("a list can only be compared with ==, !=, in or not in", v.pos);
    return { expr: pl.lit(v.value), kind: litKind(v.value) };
  }

  /** A value used as a condition: booleans only; a missing boolean counts as false. */
  cond(v: Val): pl.Expr {
    if (v.c === "cond") return v.expr;
    if (v.c === "const" && typeof v.value === "boolean") return pl.lit(v.value);
    if (v.c === "expr" && v.kind === "bool") return v.expr.fillNull(false);
    const what = v.c === "list" ? "a list" : v.c === "const" ? describe(litKind(v.value)) : `a ${describe(v.kind)} column value`;
    return this.fail(`expected a condition (true or false per row), found ${what}`, v.pos, "E302");
  }

  private unary(op: "-" | "+" | "~" | "not", v: Val, pos: number): Val {
    if (op === "~" || op === "not") {
      // pandas turns `not True` into ~True, the integer -2: refused
      if (v.c === "const") this.fail(`'${op}' of a constant is not supported`, pos);
      if (v.c === "cond" || (v.c === "expr" && v.kind === "bool")) return { c: "cond", expr: this.cond(v).not(), pos };
      return this.fail(`'${op}' needs a condition or a boolean column`, pos, "E302");
    }
    if (v.c === "const" && typeof v.value === "number") return { c: "const", value: op === "-" ? -v.value : v.value, pos };
    const { expr, kind } = this.operand(v);
    if (!isNumeric(kind)) this.fail(`unary '${op}' needs a number, not ${describe(kind)}`, pos, "E302");
    const num = kind === "bool" ? expr.cast(pl.Int64) : expr;
    return { c: "expr", expr: op === "-" ? num.mul(-1) : num, kind: kind === "bool" ? "int" : kind, pos };
  }

  private arith(op: ArithOp, l: Val, r: Val, pos: number): Val {
    // pandas' query engines do not take floor division
    if (op === "//") this.fail("'//' (floor division) is not supported by pandas' query", pos);
    if ((op === "/" || op === "%") && r.c === "const" && r.value === 0) this.fail("division by zero", pos, "E302");
    if (l.c === "const" && r.c === "const") {
      if (typeof l.value === "number" && typeof r.value === "number") {
        return { c: "const", value: foldArith(op, l.value, r.value, pos, this.path), pos };
      }
      if (op === "+" && typeof l.value === "string" && typeof r.value === "string") return { c: "const", value: l.value + r.value, pos };
    }
    const a = this.operand(l);
    const b = this.operand(r);
    // string columns are pandas object columns, which its query arithmetic refuses (string + too)
    if (!isNumeric(a.kind) || !isNumeric(b.kind)) {
      this.fail(`cannot apply '${op}' to ${describe(a.kind)} and ${describe(b.kind)}`, pos, "E302");
    }
    const num = (x: { expr: pl.Expr; kind: Kind }) => (x.kind === "bool" ? x.expr.cast(pl.Int64) : x.expr);
    const ints = a.kind !== "float" && b.kind !== "float";
    let expr: pl.Expr;
    let kind: Kind = ints ? "int" : "float";
    switch (op) {
      case "+":
        expr = num(a).add(num(b));
        break;
      case "-":
        expr = num(a).sub(num(b));
        break;
      case "*":
        expr = num(a).mul(num(b));
        break;
      case "/":
        expr = num(a).cast(pl.Float64).div(num(b).cast(pl.Float64));
        kind = "float";
        break;
      case "%": {
        // numexpr: between integers, the remainder takes the dividend's sign (C) and modulo zero is 0; with a
        // float, it takes the divisor's (Python), and modulo zero is NaN (missing below). polars' is Python's.
        const floorMod = num(a).modulo(num(b));
        expr = ints
          ? pl
              .when(num(b).eq(0))
              .then(pl.lit(0))
              .when(floorMod.neq(0).and(num(a).lt(0).neq(num(b).lt(0))))
              .then(floorMod.sub(num(b)))
              .otherwise(floorMod)
          : floorMod;
        break;
      }
      default: {
        if (r.c !== "const" || typeof r.value !== "number") this.fail("'**' needs a number literal as its exponent", r.pos);
        const exponent = r.value as number;
        if (ints && Number.isInteger(exponent) && exponent < 0) {
          this.fail("integers to negative integer powers are not allowed (numpy)", pos, "E302");
        }
        expr = num(a).cast(pl.Float64).pow(exponent);
        kind = "float";
        break;
      }
    }
    // NaN (0/0, inf - inf) is missing to pandas' comparisons
    return { c: "expr", expr: kind === "float" ? expr.fillNan(null) : expr, kind, pos };
  }

  private comparison(node: Extract<QNode, { k: "cmp" }>): Val {
    const vals = node.operands.map((o) => this.value(o));
    const parts: pl.Expr[] = [];
    for (let i = 0; i < node.ops.length; i++) {
      const c = this.compare(node.ops[i] as CmpOp, vals[i] as Val, vals[i + 1] as Val, node.opPos[i] ?? node.pos);
      parts.push(c);
    }
    return { c: "cond", expr: parts.reduce((acc, p) => acc.and(p)), pos: node.pos };
  }

  private compare(op: CmpOp, l: Val, r: Val, pos: number): pl.Expr {
    // pandas' handling of a constant condition depends on where it stands ((1 < 2) & (a > 1) fails, the reverse
    // works): refused here wherever it stands
    const constant = (v: Val) => v.c === "const" || v.c === "list";
    if (constant(l) && constant(r)) this.fail("this comparison reads no column", pos);
    if (op === "in" || op === "not in") {
      if (r.c !== "list") this.fail(`'${op}' needs a list or tuple of literals on its right`, r.pos);
      const hit = this.member(l, r.values, pos);
      return op === "in" ? hit : hit.not();
    }
    if (l.c === "list" || r.c === "list") {
      if (op !== "==" && op !== "!=") this.fail(`a list can only be compared with ==, !=, in or not in, not '${op}'`, pos, "E302");
      if (l.c === "list" && r.c === "list") this.fail("comparing two lists is not supported", pos);
      const [list, other] = l.c === "list" ? [l, r] : [r as Extract<Val, { c: "list" }>, l];
      const hit = this.member(other, list.values, pos);
      return op === "==" ? hit : hit.not();
    }
    const a = this.operand(l);
    const b = this.operand(r);
    const known = (k: Kind) => k !== "null" && k !== "other";
    if (a.kind === "null" || b.kind === "null") {
      // None and all-missing columns: equal to nothing, unequal to everything, unordered (pandas: False)
      if (op === "==" || op === "!=") return pl.lit(op === "!=");
      if ((l.c === "const" && l.value === null) || (r.c === "const" && r.value === null)) {
        this.fail(`'${op}' is not supported between None and a value`, pos, "E302");
      }
      return pl.lit(false);
    }
    let [x, y] = [a.expr, b.expr];
    let comparable = (isNumeric(a.kind) && isNumeric(b.kind)) || a.kind === b.kind;
    if (!comparable && (a.kind === "temporal" || b.kind === "temporal")) {
      // pandas reads a string compared with a date column as a date
      const text = a.kind === "string" ? l : b.kind === "string" ? r : undefined;
      if (text?.c === "const" && typeof text.value === "string") {
        const date = new Date(text.value);
        if (Number.isNaN(date.getTime())) this.fail(`${JSON.stringify(text.value)} is not a date`, text.pos, "E302");
        if (text === l) x = pl.lit(date);
        else y = pl.lit(date);
        comparable = true;
      }
    }
    if (!comparable || !known(a.kind) || !known(b.kind)) {
      if (op === "==" || op === "!=") return pl.lit(op === "!=");
      this.fail(`'${op}' is not supported between ${describe(a.kind)} and ${describe(b.kind)}`, pos, "E302");
    }
    if (a.kind === "bool" && b.kind !== "bool") x = x.cast(pl.Int64);
    if (b.kind === "bool" && a.kind !== "bool") y = y.cast(pl.Int64);
    const cmp: Record<Exclude<CmpOp, "in" | "not in">, (p: pl.Expr, q: pl.Expr) => pl.Expr> = {
      "==": (p, q) => p.eq(q),
      "!=": (p, q) => p.neq(q),
      "<": (p, q) => p.lt(q),
      "<=": (p, q) => p.ltEq(q),
      ">": (p, q) => p.gt(q),
      ">=": (p, q) => p.gtEq(q),
    };
    return cmp[op](x, y).fillNull(op === "!=");
  }

  /** Whether the value is one of `values` (pandas isin: only values of a comparable type can match; None matches missing). */
  member(v: Val, values: Lit[], pos: number): pl.Expr {
    if (v.c === "const") {
      return pl.lit(
        values.some(
          (w) =>
            w === v.value ||
            (typeof w !== "string" && typeof v.value !== "string" && Number(w) === Number(v.value) && w !== null && v.value !== null),
        ),
      );
    }
    const { expr, kind } = this.operand(v);
    if (kind === "other") this.fail("membership tests on this column's type are not supported", pos, "E302");
    let hit: pl.Expr = pl.lit(false);
    for (const w of values) {
      if (w === null) continue;
      const wk = litKind(w);
      if (kind === "string" ? wk !== "string" : !(isNumeric(kind) && isNumeric(wk))) continue;
      const lhs = kind === "bool" && wk !== "bool" ? expr.cast(pl.Int64) : expr;
      const rhs = kind !== "bool" && wk === "bool" ? Number(w) : w;
      hit = hit.or(lhs.eq(pl.lit(rhs)).fillNull(false));
    }
    // None in the list matches missing strings (object columns); a numeric NaN is not matched by it (pandas 1.5)
    return values.includes(null) && kind === "string" ? hit.or(expr.isNull()) : hit;
  }
}

/** Whether the tree reads a column (pandas refuses a query that is a constant: df[True] is a KeyError). */
function readsColumn(node: QNode, df: pl.DataFrame): boolean {
  switch (node.k) {
    case "name":
      return df.columns.includes(node.name);
    case "list":
      return node.items.some((n) => readsColumn(n, df));
    case "unary":
      return readsColumn(node.arg, df);
    case "arith":
      return readsColumn(node.left, df) || readsColumn(node.right, df);
    case "cmp":
      return node.operands.some((n) => readsColumn(n, df));
    case "logic":
      return node.args.some((n) => readsColumn(n, df));
    case "attr":
      return readsColumn(node.target, df);
    case "call":
      return readsColumn(node.callee, df) || node.args.some((n) => readsColumn(n, df));
    default:
      return false;
  }
}

/** The query as one polars filter over `df`. */
export function queryFilterExpr(df: pl.DataFrame, query: QueryExpr, path: string): pl.Expr {
  const c = new Compiler(df, path, divided(query.tree, false, new Set()));
  const expr = c.cond(c.value(query.tree));
  if (!readsColumn(query.tree, df)) throw queryError("the query reads no column (a constant condition)", query.tree.pos, path);
  return expr;
}
