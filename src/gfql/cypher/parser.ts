// Recursive-descent parser for the read-only Cypher subset: [OPTIONAL] MATCH clauses of path patterns, WHERE, RETURN.

import { cypherError, type Pos, readOnly, unsupported } from "./errors.ts";
import {
  AGGREGATES,
  type AggArg,
  type Aggregate,
  type CmpOp,
  type CypherQuery,
  type Expr,
  type MatchClause,
  type NodePattern,
  type Operand,
  type PathPattern,
  type RelPattern,
  type ReturnExpr,
  type ReturnItem,
  type Value,
} from "./syntax.ts";
import { type Token, tokenize } from "./tokenize.ts";

const WRITE_CLAUSES: Record<string, string> = {
  CREATE: "CREATE",
  MERGE: "MERGE",
  SET: "SET",
  DELETE: "DELETE",
  DETACH: "DETACH DELETE",
  REMOVE: "REMOVE",
  FOREACH: "FOREACH",
};
const OTHER_CLAUSES = ["OPTIONAL", "UNWIND", "UNION", "WITH", "USE", "GRAPH", "MATCH", "CALL", "LOAD", "RETURN", "WHERE"];

class Parser {
  private i = 0;
  private readonly toks: Token[];
  private readonly params: Record<string, unknown>;
  constructor(toks: Token[], params: Record<string, unknown>) {
    this.toks = toks;
    this.params = params;
  }

  peek(k = 0): Token {
    return this.toks[Math.min(this.i + k, this.toks.length - 1)] as Token;
  }
  next(): Token {
    const t = this.peek();
    if (t.kind !== "eof") this.i++;
    return t;
  }
  isKw(word: string, k = 0): boolean {
    const t = this.peek(k);
    return t.kind === "ident" && !t.quoted && t.text.toUpperCase() === word;
  }
  isP(text: string, k = 0): boolean {
    const t = this.peek(k);
    return t.kind === "punct" && t.text === text;
  }
  acceptKw(word: string): boolean {
    if (!this.isKw(word)) return false;
    this.i++;
    return true;
  }
  acceptP(text: string): boolean {
    if (!this.isP(text)) return false;
    this.i++;
    return true;
  }
  describe(t: Token): string {
    return t.kind === "eof"
      ? "end of input"
      : `'${t.kind === "string" ? JSON.stringify(t.text) : t.kind === "param" ? `$${t.text}` : t.text}'`;
  }
  fail(want: string): never {
    const t = this.peek();
    throw cypherError(`syntax error: expected ${want}, found ${this.describe(t)}`, t);
  }
  expectKw(word: string): void {
    if (!this.acceptKw(word)) this.fail(word);
  }
  expectP(text: string): void {
    if (!this.acceptP(text)) this.fail(`'${text}'`);
  }
  name(what: string): string {
    const t = this.peek();
    if (t.kind !== "ident") this.fail(what);
    this.i++;
    return t.text;
  }

  /** Refuses a clause keyword outside the subset (writes first), or fails with `want`. */
  clause(want: string): never {
    const t = this.peek();
    if (t.kind === "ident" && !t.quoted) {
      const w = t.text.toUpperCase();
      const write = WRITE_CLAUSES[w];
      if (write !== undefined) throw readOnly(write, t);
      if (w === "LOAD" && this.isKw("CSV", 1)) throw readOnly("LOAD CSV", t);
      if (w === "CALL") {
        throw this.callIsWrite() ? readOnly("CALL ... write", t) : unsupported("CALL (procedures)", t);
      }
      if (OTHER_CLAUSES.includes(w)) throw unsupported(w, t);
    }
    this.fail(want);
  }
  callIsWrite(): boolean {
    for (let k = this.i; k < this.toks.length; k++) {
      const t = this.toks[k] as Token;
      if (t.kind === "ident" && t.text.toLowerCase() === "write") return true;
      if (t.kind === "punct" && t.text === "(") return false;
    }
    return false;
  }

  query(): CypherQuery {
    const matches: MatchClause[] = [];
    for (;;) {
      const pos: Pos = this.peek();
      const optional = this.isKw("OPTIONAL") && this.isKw("MATCH", 1);
      if (optional) this.i++;
      if (!this.acceptKw("MATCH")) break;
      const patterns = [this.pattern()];
      while (this.acceptP(",")) patterns.push(this.pattern());
      const clause: MatchClause = { optional, patterns, pos };
      if (this.acceptKw("WHERE")) clause.where = this.expr();
      matches.push(clause);
    }
    if (matches.length === 0) this.clause("MATCH");
    const returnPos: Pos = this.peek();
    if (!this.acceptKw("RETURN")) this.clause("RETURN");
    const distinct = this.acceptKw("DISTINCT");
    const items: ReturnItem[] = [];
    do {
      if (this.isP("*")) throw unsupported("RETURN *", this.peek());
      const expr = this.returnExpr();
      const item: ReturnItem = { expr };
      if (this.acceptKw("AS")) item.alias = this.name("an alias");
      items.push(item);
    } while (this.acceptP(","));
    const orderBy: CypherQuery["orderBy"] = [];
    if (this.acceptKw("ORDER")) {
      this.expectKw("BY");
      do {
        const expr = this.returnExpr();
        let descending = false;
        if (this.acceptKw("DESC") || this.acceptKw("DESCENDING")) descending = true;
        else if (!this.acceptKw("ASC")) this.acceptKw("ASCENDING");
        orderBy.push({ expr, descending });
      } while (this.acceptP(","));
    }
    const q: CypherQuery = { matches, distinct, items, orderBy, returnPos };
    if (this.acceptKw("SKIP")) q.skip = this.count("SKIP");
    if (this.acceptKw("LIMIT")) q.limit = this.count("LIMIT");
    if (this.peek().kind !== "eof") this.clause("end of query");
    return q;
  }

  count(what: string): number {
    const t = this.peek();
    const v = this.value();
    if (typeof v !== "number" || !Number.isInteger(v) || v < 0) throw cypherError(`${what} needs a non-negative integer`, t);
    return v;
  }

  pattern(): PathPattern {
    const pos: Pos = this.peek();
    const nodes = [this.node()];
    const rels: RelPattern[] = [];
    while (this.isP("-") || this.isP("<")) {
      rels.push(this.rel());
      nodes.push(this.node());
    }
    return { nodes, rels, pos };
  }

  node(): NodePattern {
    const pos: Pos = this.peek();
    if (this.peek().kind === "ident" && this.isP("=", 1)) throw unsupported("named paths (p = ...)", pos);
    this.expectP("(");
    const n: NodePattern = { labels: [], props: [], pos };
    if (this.peek().kind === "ident") n.variable = this.name("a variable");
    while (this.acceptP(":")) n.labels.push(this.name("a label"));
    if (this.isP("{")) n.props = this.propMap();
    this.expectP(")");
    return n;
  }

  rel(): RelPattern {
    const pos: Pos = this.peek();
    const left = this.acceptP("<");
    this.expectP("-");
    const r: RelPattern = { types: [], direction: "undirected", props: [], pos };
    if (this.acceptP("[")) {
      if (this.peek().kind === "ident") r.variable = this.name("a variable");
      if (this.acceptP(":")) {
        r.types.push(this.name("a relationship type"));
        while (this.acceptP("|")) {
          this.acceptP(":");
          r.types.push(this.name("a relationship type"));
        }
      }
      if (this.acceptP("*")) r.range = this.range();
      if (this.isP("{")) r.props = this.propMap();
      this.expectP("]");
      this.expectP("-");
    } else if (!this.acceptP("-")) this.fail("'-' or '['");
    const right = this.acceptP(">");
    if (left && right) throw unsupported("bidirectional relationship <-->", pos);
    r.direction = right ? "forward" : left ? "reverse" : "undirected";
    return r;
  }

  hopCount(): number {
    const t = this.next();
    if (t.kind !== "number" || !t.integer) throw cypherError(`syntax error: expected a hop count, found ${this.describe(t)}`, t);
    return t.value;
  }
  range(): { min?: number; max?: number } {
    const out: { min?: number; max?: number } = {};
    if (this.peek().kind === "number") {
      const n = this.hopCount();
      if (!this.acceptP("..")) return { min: n, max: n };
      out.min = n;
      if (this.peek().kind === "number") out.max = this.hopCount();
      return out;
    }
    if (this.acceptP("..")) out.max = this.hopCount();
    return out;
  }

  propMap(): Array<[string, Value]> {
    this.expectP("{");
    const out: Array<[string, Value]> = [];
    if (!this.isP("}")) {
      do {
        const k = this.name("a property name");
        this.expectP(":");
        out.push([k, this.value()]);
      } while (this.acceptP(","));
    }
    this.expectP("}");
    return out;
  }

  /** A literal, list or $param value. */
  value(): Value {
    const t = this.peek();
    if (this.acceptP("-")) {
      const n = this.next();
      if (n.kind !== "number") throw cypherError(`syntax error: expected a number after '-', found ${this.describe(n)}`, n);
      return -n.value;
    }
    if (t.kind === "number" || t.kind === "string") {
      this.i++;
      return t.kind === "number" ? t.value : t.text;
    }
    if (t.kind === "param") {
      this.i++;
      if (!Object.hasOwn(this.params, t.text)) throw cypherError(`missing parameter $${t.text}`, t);
      return toValue(this.params[t.text], t);
    }
    if (this.acceptP("[")) {
      const out: Value[] = [];
      if (!this.isP("]")) {
        do out.push(this.value());
        while (this.acceptP(","));
      }
      this.expectP("]");
      return out;
    }
    if (t.kind === "ident" && !t.quoted) {
      const w = t.text.toUpperCase();
      if (w === "TRUE" || w === "FALSE" || w === "NULL") {
        this.i++;
        return w === "NULL" ? null : w === "TRUE";
      }
    }
    if (this.isP("{")) throw unsupported("map values", t);
    this.fail("a literal value or $parameter");
  }

  expr(): Expr {
    let left = this.xorExpr();
    while (this.isKw("OR")) {
      const pos: Pos = this.next();
      left = { kind: "or", left, right: this.xorExpr(), pos };
    }
    return left;
  }
  xorExpr(): Expr {
    let left = this.andExpr();
    while (this.isKw("XOR")) {
      const pos: Pos = this.next();
      left = { kind: "xor", left, right: this.andExpr(), pos };
    }
    return left;
  }
  andExpr(): Expr {
    let left = this.notExpr();
    while (this.isKw("AND")) {
      const pos: Pos = this.next();
      left = { kind: "and", left, right: this.notExpr(), pos };
    }
    return left;
  }
  notExpr(): Expr {
    if (this.isKw("NOT")) {
      const pos: Pos = this.next();
      return { kind: "not", expr: this.notExpr(), pos };
    }
    return this.predicate();
  }
  predicate(): Expr {
    if (this.isP("(")) {
      this.i++;
      const e = this.expr();
      this.expectP(")");
      return e;
    }
    const first = this.peek();
    if (first.kind === "ident" && this.isP(":", 1)) {
      this.i++;
      const labels: string[] = [];
      while (this.acceptP(":")) labels.push(this.name("a label"));
      return { kind: "label", variable: first.text, labels, pos: first };
    }
    const left = this.operand();
    const t = this.peek();
    const pos: Pos = t;
    if (this.acceptKw("IS")) {
      const negated = this.acceptKw("NOT");
      this.expectKw("NULL");
      return { kind: "null", negated, operand: left, pos };
    }
    let op: CmpOp | undefined;
    if (t.kind === "punct" && ["=", "<>", "<", "<=", ">", ">=", "=~"].includes(t.text)) {
      this.i++;
      op = t.text as CmpOp;
    } else if (this.acceptKw("STARTS")) {
      this.expectKw("WITH");
      op = "STARTS WITH";
    } else if (this.acceptKw("ENDS")) {
      this.expectKw("WITH");
      op = "ENDS WITH";
    } else if (this.acceptKw("CONTAINS")) op = "CONTAINS";
    else if (this.acceptKw("IN")) op = "IN";
    if (op === undefined) {
      if (t.kind === "punct" && ["+", "/", "%", "*", "-"].includes(t.text)) throw unsupported(`arithmetic '${t.text}'`, t);
      return { kind: "operand", operand: left, pos: left.pos };
    }
    return { kind: "cmp", op, left, right: this.operand(), pos };
  }
  operand(): Operand {
    const t = this.peek();
    const pos: Pos = t;
    if (t.kind === "ident" && !(t.kind === "ident" && !t.quoted && ["TRUE", "FALSE", "NULL"].includes(t.text.toUpperCase()))) {
      if (this.isP("(", 1)) throw unsupported(`function ${t.text}()`, t);
      if (this.isP("{", 1)) throw unsupported("map projections", t);
      this.i++;
      if (this.acceptP(".")) return { kind: "prop", variable: t.text, key: this.name("a property name"), pos };
      return { kind: "var", name: t.text, pos };
    }
    return { kind: "lit", value: this.value(), pos };
  }

  returnExpr(): ReturnExpr {
    const t = this.peek();
    const pos: Pos = t;
    if (t.kind !== "ident") {
      if (t.kind === "eof" || t.kind === "punct") this.fail("a variable, property or count()");
      throw unsupported("returning literals", t);
    }
    if (this.isP("(", 1)) {
      const fn = t.text.toLowerCase() as Aggregate;
      if (!AGGREGATES.includes(fn)) throw unsupported(`function ${t.text}()`, t);
      this.i += 2;
      const distinct = this.acceptKw("DISTINCT");
      let arg: AggArg;
      let argText: string;
      if (this.isP("*")) {
        if (distinct || fn !== "count") this.fail("a variable or property");
        this.i++;
        arg = { kind: "star" };
        argText = "*";
      } else {
        const v = this.name(fn === "count" ? "'*', a variable or property" : "a variable or property");
        if (this.acceptP(".")) {
          const key = this.name("a property name");
          arg = { kind: "prop", variable: v, key };
          argText = `${v}.${key}`;
        } else {
          arg = { kind: "var", name: v };
          argText = v;
        }
        const n = this.peek();
        if (n.kind === "punct" && n.text !== ")") throw unsupported(`expression operator '${n.text}' in ${fn}()`, n);
      }
      this.expectP(")");
      return { kind: "agg", fn, arg, distinct, pos, text: `${fn}(${distinct ? "DISTINCT " : ""}${argText})` };
    }
    this.i++;
    if (this.acceptP(".")) {
      const key = this.name("a property name");
      return { kind: "prop", variable: t.text, key, pos, text: `${t.text}.${key}` };
    }
    const n = this.peek();
    if (n.kind === "punct" && ["+", "-", "*", "/", "%", "=", "<", ">", "<>", "[", "{"].includes(n.text)) {
      throw unsupported(`expression operator '${n.text}' in RETURN`, n);
    }
    return { kind: "var", name: t.text, pos, text: t.text };
  }
}

function toValue(v: unknown, pos: Pos): Value {
  if (v === null || typeof v === "string" || typeof v === "boolean") return v;
  if (typeof v === "number" && Number.isFinite(v)) return v;
  if (Array.isArray(v)) return v.map((x) => toValue(x, pos));
  throw unsupported(`parameter value ${JSON.stringify(v) ?? String(v)}`, pos);
}

export function parseCypherSyntax(text: string, params: Record<string, unknown>): CypherQuery {
  return new Parser(tokenize(text), params).query();
}
