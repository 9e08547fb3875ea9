// The method calls and functions a query string may use, each with pandas' results: isna()/isnull(),
// notna()/notnull(), isin(list), between(left, right, inclusive), abs() and abs(x), and the string methods
// .str.contains(pat, case, flags, na, regex), .str.startswith(pat, na), .str.endswith(pat, na), .str.len().
// Any other method or function is refused by name.

import pl from "nodejs-polars";
import type { QNode } from "./parse.ts";

export type Lit = number | string | boolean | null;
export type Kind = "int" | "float" | "string" | "bool" | "temporal" | "null" | "other";
export type Val =
  | { c: "const"; value: Lit; pos: number }
  | { c: "list"; values: Lit[]; pos: number }
  /** A column or arithmetic over columns: may hold missing values. */
  | { c: "expr"; expr: pl.Expr; kind: Kind; pos: number }
  /** A condition: true or false on every row, never missing. */
  | { c: "cond"; expr: pl.Expr; pos: number };

/** What a call needs from the compiler. */
export type CallContext = {
  df: pl.DataFrame;
  value(node: QNode): Val;
  literal(node: QNode): Lit;
  member(v: Val, values: Lit[], pos: number): pl.Expr;
  fail(message: string, pos: number, code?: string): never;
};

type Call = Extract<QNode, { k: "call" }>;

const METHODS = "isna, isnull, notna, notnull, isin, between, abs, str.contains, str.startswith, str.endswith, str.len";

/** Checks the call's arguments against a signature (positional names in order) and returns them by name. */
function bind(c: CallContext, call: Call, what: string, names: string[], required: number): Record<string, QNode> {
  if (call.args.length > names.length) c.fail(`${what} takes at most ${names.length} arguments`, call.pos);
  const out: Record<string, QNode> = {};
  call.args.forEach((a, i) => {
    out[names[i] as string] = a;
  });
  for (const [k, v] of Object.entries(call.kwargs)) {
    if (!names.includes(k)) c.fail(`${what} has no argument '${k}'`, v.pos);
    if (k in out) c.fail(`${what} got '${k}' twice`, v.pos);
    out[k] = v;
  }
  for (const name of names.slice(0, required)) if (!(name in out)) c.fail(`${what} needs '${name}'`, call.pos);
  return out;
}

function literalOf<T extends Lit>(c: CallContext, node: QNode | undefined, fallback: T, ok: (v: Lit) => boolean, what: string): T {
  if (node === undefined) return fallback;
  const v = c.literal(node);
  if (!ok(v)) c.fail(`${what}`, node.pos, "E302");
  return v as T;
}

/** Lookarounds and backreferences: Python's re has them, polars' regex engine does not. */
const UNSUPPORTED_REGEX = /\(\?<?[=!]|\\[1-9]|\(\?P=/;
const escapeRegex = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");

function numeric(c: CallContext, v: Val, what: string, pos: number): pl.Expr {
  if (v.c === "const" && typeof v.value === "number") return pl.lit(v.value);
  if (v.c !== "expr" || (v.kind !== "int" && v.kind !== "float")) c.fail(`${what} needs a number column`, pos, "E302");
  return v.expr;
}

/** `target.str.<name>(...)`: the string methods. */
function strMethod(c: CallContext, call: Call, name: string, target: QNode): Val {
  const t = c.value(target);
  if (t.c !== "expr" || (t.kind !== "string" && t.kind !== "null")) c.fail(`.str.${name}() needs a string column`, target.pos, "E302");
  const s = t.expr;
  if (name === "len") {
    bind(c, call, ".str.len()", [], 0);
    return { c: "expr", expr: s.str.lengths().cast(pl.Int64), kind: "int", pos: call.pos };
  }
  let test: pl.Expr;
  let naArg: QNode | undefined;
  if (name === "contains") {
    const a = bind(c, call, ".str.contains()", ["pat", "case", "flags", "na", "regex"], 1);
    const pat = literalOf<string>(c, a.pat, "", (v) => typeof v === "string", ".str.contains() needs a string pattern");
    const caseSensitive = literalOf(c, a.case, true, (v) => typeof v === "boolean", "case must be True or False");
    const flags = literalOf<number>(c, a.flags, 0, (v) => v === 0 || v === 2, "flags may only be 0 or re.IGNORECASE (2)");
    const regex = literalOf(c, a.regex, true, (v) => typeof v === "boolean", "regex must be True or False");
    if (regex && UNSUPPORTED_REGEX.test(pat)) c.fail("lookarounds and backreferences are not supported in patterns", (a.pat as QNode).pos);
    const prefix = !caseSensitive || flags === 2 ? "(?i)" : "";
    test = s.str.contains(prefix + (regex ? pat : escapeRegex(pat)));
    naArg = a.na;
  } else if (name === "startswith" || name === "endswith") {
    const a = bind(c, call, `.str.${name}()`, ["pat", "na"], 1);
    const pat = literalOf<string>(c, a.pat, "", (v) => typeof v === "string", `.str.${name}() needs a string`);
    test = name === "startswith" ? s.str.startsWith(pat) : s.str.endsWith(pat);
    naArg = a.na;
  } else {
    return c.fail(`method '.str.${name}()' is not supported; supported: ${METHODS}`, call.pos);
  }
  if (naArg !== undefined) {
    const na = literalOf(c, naArg, false, (v) => typeof v === "boolean", "na must be True or False");
    return { c: "cond", expr: test.fillNull(na), pos: call.pos };
  }
  // without na, a missing string gives NaN, and pandas cannot filter on it (nor numexpr take the object column)
  const column = target.k === "name" ? target.name : undefined;
  if (t.kind === "null" || (column !== undefined && c.df.getColumn(column).nullCount() > 0)) {
    c.fail(`.str.${name}() meets missing values, which pandas cannot filter on: pass na=False (or na=True)`, call.pos, "E302");
  }
  return { c: "cond", expr: test.fillNull(false), pos: call.pos };
}

/** A method call or function call. */
export function compileCall(c: CallContext, call: Call): Val {
  const callee = call.callee;
  if (callee.k === "name") {
    if (callee.name !== "abs") c.fail(`function '${callee.name}()' is not supported; supported: abs()`, callee.pos);
    const a = bind(c, call, "abs()", ["x"], 1);
    const v = c.value(a.x as QNode);
    if (v.c === "const" && typeof v.value === "number") return { c: "const", value: Math.abs(v.value), pos: call.pos };
    const kind = v.c === "expr" ? v.kind : "other";
    return { c: "expr", expr: numeric(c, v, "abs()", call.pos).abs(), kind, pos: call.pos };
  }
  if (callee.k !== "attr") return c.fail("only methods of a column and abs() can be called", call.pos);
  const target = callee.target;
  if (target.k === "attr" && target.name === "str") return strMethod(c, call, callee.name, target.target);
  const name = callee.name;
  const v = c.value(target);
  if (v.c !== "expr") c.fail(`.${name}() needs a column`, callee.pos, "E302");
  const { expr, kind } = v as Extract<Val, { c: "expr" }>;
  switch (name) {
    case "isna":
    case "isnull":
      bind(c, call, `.${name}()`, [], 0);
      return { c: "cond", expr: expr.isNull(), pos: call.pos };
    case "notna":
    case "notnull":
      bind(c, call, `.${name}()`, [], 0);
      return { c: "cond", expr: expr.isNotNull(), pos: call.pos };
    case "isin": {
      const a = bind(c, call, ".isin()", ["values"], 1);
      const list = c.value(a.values as QNode);
      if (list.c !== "list") c.fail(".isin() needs a list or tuple of literals", (a.values as QNode).pos);
      return { c: "cond", expr: c.member(v as Val, (list as Extract<Val, { c: "list" }>).values, call.pos), pos: call.pos };
    }
    case "between": {
      const a = bind(c, call, ".between()", ["left", "right", "inclusive"], 2);
      const how = literalOf(
        c,
        a.inclusive,
        "both",
        (x) => ["both", "neither", "left", "right"].includes(String(x)),
        'inclusive must be "both", "neither", "left" or "right"',
      );
      const lo = numeric(c, c.value(a.left as QNode), ".between()", call.pos);
      const hi = numeric(c, c.value(a.right as QNode), ".between()", call.pos);
      const x = numeric(c, v as Val, ".between()", call.pos);
      const low = how === "both" || how === "left" ? x.gtEq(lo) : x.gt(lo);
      const high = how === "both" || how === "right" ? x.ltEq(hi) : x.lt(hi);
      return { c: "cond", expr: low.and(high).fillNull(false), pos: call.pos };
    }
    case "abs":
      bind(c, call, ".abs()", [], 0);
      return { c: "expr", expr: numeric(c, v as Val, ".abs()", call.pos).abs(), kind, pos: call.pos };
    default:
      return c.fail(`method '.${name}()' is not supported; supported: ${METHODS}`, callee.pos);
  }
}
