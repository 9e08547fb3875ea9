// A recursive-descent parser of pandas' DataFrame.query grammar into an expression tree, with Python's precedence
// as pandas (parser="pandas") applies it: `&` and `|` are rewritten to `and` / `or` before parsing
// (expr._replace_booleans), so they bind like them, below comparisons; `not` below comparisons; `~` and unary
// minus above `*`; `**` binds right and above unary minus on its left. Comparisons chain (`a < b < c` is
// `a < b and b < c`).

import { queryError, type Token, tokenize } from "./tokenize.ts";

export type CmpOp = "==" | "!=" | "<" | "<=" | ">" | ">=" | "in" | "not in";
export type ArithOp = "+" | "-" | "*" | "/" | "//" | "%" | "**";

export type QNode =
  | { k: "num"; value: number; pos: number }
  | { k: "str"; value: string; pos: number }
  | { k: "bool"; value: boolean; pos: number }
  | { k: "none"; pos: number }
  | { k: "name"; name: string; pos: number }
  | { k: "list"; items: QNode[]; pos: number }
  | { k: "unary"; op: "-" | "+" | "~" | "not"; arg: QNode; pos: number }
  | { k: "arith"; op: ArithOp; left: QNode; right: QNode; pos: number }
  | { k: "cmp"; ops: CmpOp[]; opPos: number[]; operands: QNode[]; pos: number }
  | { k: "logic"; op: "and" | "or"; args: QNode[]; pos: number }
  /** `target.name` (only as the callee of a method call, or `.str`) */
  | { k: "attr"; target: QNode; name: string; pos: number }
  | { k: "call"; callee: QNode; args: QNode[]; kwargs: Record<string, QNode>; pos: number };

/** A parsed query string: its text (for messages) and tree. */
export type QueryExpr = { source: string; tree: QNode };

class Parser {
  private i = 0;
  private readonly tokens: Token[];
  private readonly path: string;
  constructor(tokens: Token[], path: string) {
    this.tokens = tokens;
    this.path = path;
  }

  private peek(): Token {
    return this.tokens[this.i] as Token;
  }
  private next(): Token {
    const t = this.peek();
    if (t.t !== "eof") this.i++;
    return t;
  }
  private isOp(v: string): boolean {
    const t = this.peek();
    return t.t === "op" && t.v === v;
  }
  private isKw(v: string): boolean {
    const t = this.peek();
    return t.t === "kw" && t.v === v;
  }
  private fail(message: string, t: Token = this.peek()): never {
    if (t.t === "op" && t.v === "=") throw queryError("assignment is not supported", t.pos, this.path);
    throw queryError(message, t.pos, this.path);
  }
  private describe(t: Token): string {
    if (t.t === "eof") return "the end of the query";
    if (t.t === "str") return "a string";
    if (t.t === "num") return `number ${t.v}`;
    return `'${t.v}'`;
  }
  private expect(v: string): void {
    if (!this.isOp(v)) this.fail(`expected '${v}', found ${this.describe(this.peek())}`);
    this.next();
  }

  parseAll(): QNode {
    if (this.peek().t === "eof") this.fail("the query string is empty");
    const node = this.or();
    if (this.peek().t !== "eof") this.fail(`unexpected ${this.describe(this.peek())}`);
    return node;
  }

  private logic(op: "and" | "or", sym: string, sub: () => QNode): QNode {
    const first = sub();
    const args = [first];
    while (this.isKw(op) || this.isOp(sym)) {
      this.next();
      args.push(sub());
    }
    return args.length === 1 ? first : { k: "logic", op, args, pos: first.pos };
  }
  private or(): QNode {
    return this.logic("or", "|", () => this.and());
  }
  private and(): QNode {
    return this.logic("and", "&", () => this.not());
  }
  private not(): QNode {
    if (this.isKw("not")) {
      const t = this.next();
      return { k: "unary", op: "not", arg: this.not(), pos: t.pos };
    }
    return this.comparison();
  }

  private cmpOp(): CmpOp | null {
    const t = this.peek();
    if (t.t === "op" && ["==", "!=", "<", "<=", ">", ">="].includes(t.v)) {
      this.next();
      return t.v as CmpOp;
    }
    if (t.t === "kw" && t.v === "in") {
      this.next();
      return "in";
    }
    if (
      t.t === "kw" &&
      t.v === "not" &&
      this.tokens[this.i + 1]?.t === "kw" &&
      (this.tokens[this.i + 1] as Token & { v: string }).v === "in"
    ) {
      this.next();
      this.next();
      return "not in";
    }
    return null;
  }
  private comparison(): QNode {
    const first = this.arith();
    const ops: CmpOp[] = [];
    const opPos: number[] = [];
    const operands = [first];
    for (let at = this.peek().pos, op = this.cmpOp(); op !== null; at = this.peek().pos, op = this.cmpOp()) {
      ops.push(op);
      opPos.push(at);
      operands.push(this.arith());
    }
    return ops.length === 0 ? first : { k: "cmp", ops, opPos, operands, pos: first.pos };
  }

  private binary(ops: readonly ArithOp[], sub: () => QNode): QNode {
    let left = sub();
    for (;;) {
      const t = this.peek();
      if (t.t !== "op" || !(ops as readonly string[]).includes(t.v)) return left;
      this.next();
      left = { k: "arith", op: t.v as ArithOp, left, right: sub(), pos: t.pos };
    }
  }
  private arith(): QNode {
    return this.binary(["+", "-"], () => this.term());
  }
  private term(): QNode {
    return this.binary(["*", "/", "//", "%"], () => this.unary());
  }
  private unary(): QNode {
    const t = this.peek();
    if (t.t === "op" && (t.v === "-" || t.v === "+" || t.v === "~")) {
      this.next();
      return { k: "unary", op: t.v, arg: this.unary(), pos: t.pos };
    }
    return this.power();
  }
  private power(): QNode {
    const base = this.primary();
    if (!this.isOp("**")) return base;
    const t = this.next();
    return { k: "arith", op: "**", left: base, right: this.unary(), pos: t.pos };
  }

  /** An atom and its trailers: `.name` and `(args)`; the compiler says which methods and functions exist. */
  private primary(): QNode {
    let node = this.atom();
    for (;;) {
      const t = this.peek();
      if (t.t === "op" && t.v === ".") {
        this.next();
        const name = this.next();
        if (name.t !== "name") this.fail("expected a method name after '.'", name);
        node = { k: "attr", target: node, name: (name as Token & { v: string }).v, pos: name.pos };
      } else if (t.t === "op" && t.v === "(") {
        this.next();
        node = { k: "call", callee: node, ...this.callArgs(), pos: t.pos };
      } else if (t.t === "op" && t.v === "[") {
        this.fail("indexing is not supported");
      } else {
        return node;
      }
    }
  }

  private callArgs(): { args: QNode[]; kwargs: Record<string, QNode> } {
    const args: QNode[] = [];
    const kwargs: Record<string, QNode> = {};
    while (!this.isOp(")")) {
      const t = this.peek();
      const eq = this.tokens[this.i + 1];
      if (t.t === "name" && eq?.t === "op" && eq.v === "=") {
        this.next();
        this.next();
        if (t.v in kwargs) this.fail(`keyword argument '${t.v}' repeated`, t);
        kwargs[t.v] = this.or();
      } else {
        if (Object.keys(kwargs).length > 0) this.fail("a positional argument cannot follow keyword arguments", t);
        args.push(this.or());
      }
      if (!this.isOp(",")) break;
      this.next();
    }
    this.expect(")");
    return { args, kwargs };
  }

  private items(close: string): QNode[] {
    const items: QNode[] = [];
    while (!this.isOp(close)) {
      items.push(this.or());
      if (!this.isOp(",")) break;
      this.next();
    }
    this.expect(close);
    return items;
  }

  private atom(): QNode {
    const t = this.next();
    switch (t.t) {
      case "num":
        return { k: "num", value: t.v, pos: t.pos };
      case "str": {
        let value = t.v;
        // adjacent string literals concatenate, as in Python
        while (this.peek().t === "str") value += (this.next() as Token & { v: string }).v;
        return { k: "str", value, pos: t.pos };
      }
      case "name":
        return { k: "name", name: t.v, pos: t.pos };
      case "kw":
        if (t.v === "True" || t.v === "False") return { k: "bool", value: t.v === "True", pos: t.pos };
        if (t.v === "None") return { k: "none", pos: t.pos };
        return this.fail(`unexpected '${t.v}'`, t);
      case "op":
        if (t.v === "[") return { k: "list", items: this.items("]"), pos: t.pos };
        if (t.v === "(") {
          if (this.isOp(")")) {
            this.next();
            return { k: "list", items: [], pos: t.pos };
          }
          const first = this.or();
          if (this.isOp(")")) {
            this.next();
            return first;
          }
          // a tuple: (a, b, ...)
          if (!this.isOp(",")) this.expect(")");
          this.next();
          return { k: "list", items: [first, ...this.items(")")], pos: t.pos };
        }
        return this.fail(`unexpected '${t.v}'`, t);
      case "eof":
        return this.fail("the query string ends too early", t);
    }
  }
}

/** Parses a DataFrame.query string; a syntax error or unsupported construct is E205 with its column. */
export function parseQueryString(source: string, path: string): QueryExpr {
  return { source, tree: new Parser(tokenize(source, path), path).parseAll() };
}
