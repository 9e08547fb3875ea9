// Per-path row plan: Cypher queries the Chain lowering (lower.ts) cannot express run as one binding table with a
// row per match (one per path), the way Cypher defines MATCH, then RETURN projects, groups and orders those rows.
//
// What it covers: several MATCH / OPTIONAL MATCH clauses and comma-separated patterns joined on shared
// variables, a variable repeated in a pattern (cycles), WHERE as a whole boolean expression over any variables
// (OR, XOR, NOT, comparisons between properties of different variables, label tests), RETURN of several
// variables (a whole node or relationship becomes one column per attribute, named `<name>.<column>`; a RETURN
// of just one whole variable keeps the bare column names, as the Chain lowering's does),
// aggregates count/collect/sum/min/max/avg with implicit grouping by the other items, DISTINCT, ORDER BY,
// SKIP and LIMIT.
//
// Semantics: labels and relationship types read the `type` column (as in lower.ts); relationships are distinct
// within one MATCH clause (relationship isomorphism) and a variable-length segment walks trails (no edge twice);
// a missing property reads as null; comparisons follow Cypher's three-valued logic (null never passes WHERE) and
// comparing values of different kinds is false for = (true for <>) and null otherwise; groups come out sorted by
// their keys; ORDER BY puts nulls last in both directions (like the row pipeline's order_by).

import pl from "nodejs-polars";
import { gfqlError } from "../gfql-error.ts";
import type { GfqlGraph } from "../graph-frames.ts";
import { cypherError, type Pos, unsupported } from "./errors.ts";
import type { AggArg, CypherQuery, Expr, MatchClause, NodePattern, Operand, PathPattern, RelPattern, ReturnExpr, Value } from "./syntax.ts";
import { trailPairs } from "./trail-pairs.ts";

/** A validated query for runRowPlan: anonymous pattern elements named, patterns in join order. */
export type CypherRowPlan = { query: CypherQuery; kinds: Record<string, VarKind> };

type VarKind = "node" | "edge" | "path";

/** Most rows a variable-length segment may produce before the query is refused. */
const MAX_WALKS = 1_000_000;
/** Most rows a binding table may reach (checked after each join) before the query is refused. */
const MAX_ROWS = 5_000_000;

function capped(t: pl.DataFrame): pl.DataFrame {
  if (t.height > MAX_ROWS) {
    throw gfqlError("E101", `the MATCH clauses bind more than ${MAX_ROWS} rows; narrow the patterns or add WHERE conditions`, "cypher");
  }
  return t;
}

const key = (v: string) => `__cy_k:${v}`;
const prop = (v: string, c: string) => `__cy_p:${v}.${c}`;
const FROM = "__cy_from";
const TO = "__cy_to";
const ROW = "__cy_row";
const EIDX = "__cy_eidx";

// ---------------------------------------------------------------------------------------------------------------
// planning (parse time): names, scopes and the refusals

export function planRows(q0: CypherQuery): CypherRowPlan {
  const q = structuredClone(q0);
  const kinds: Record<string, VarKind> = {};
  let anon = 0;
  const bound = new Set<string>();
  const declare = (name: string, kind: VarKind, pos: Pos) => {
    const had = kinds[name];
    if (had !== undefined && had !== kind) throw cypherError(`variable '${name}' is used both as a ${had} and as a ${kind}`, pos);
    if (had !== undefined && kind !== "node") throw unsupported(`reusing the relationship variable '${name}'`, pos);
    kinds[name] = kind;
  };
  const lookup = (name: string, pos: Pos, scope: Set<string>): VarKind => {
    const k = kinds[name];
    if (k === undefined || !scope.has(name)) throw cypherError(`unknown variable '${name}'`, pos);
    return k;
  };

  for (const clause of q.matches) {
    for (const p of clause.patterns) {
      for (const n of p.nodes) {
        n.variable ??= `__anon${anon++}`;
        if (n.labels.length > 1) throw unsupported(`multiple labels (:${n.labels.join(":")})`, n.pos);
        for (const [, v] of n.props) checkMapValue(v, n.pos);
        declare(n.variable, "node", n.pos);
      }
      for (const r of p.rels) {
        r.variable ??= `__anon${anon++}`;
        if (r.range?.min !== undefined && r.range.max !== undefined && r.range.min > r.range.max) {
          throw cypherError(`hop range *${r.range.min}..${r.range.max} is empty`, r.pos);
        }
        for (const [, v] of r.props) checkMapValue(v, r.pos);
        declare(r.variable, r.range === undefined ? "edge" : "path", r.pos);
      }
    }
    // join order: each pattern after the first must share a variable with what is bound before it
    const pending = [...clause.patterns];
    const ordered: PathPattern[] = [];
    while (pending.length > 0) {
      const i = bound.size === 0 ? 0 : pending.findIndex((p) => varsOfPattern(p).some((v) => bound.has(v)));
      if (i < 0) throw unsupported("disconnected patterns (no shared variable: a Cartesian product)", (pending[0] as PathPattern).pos);
      const [p] = pending.splice(i, 1) as [PathPattern];
      ordered.push(p);
      for (const v of varsOfPattern(p)) bound.add(v);
    }
    clause.patterns = ordered;
    if (clause.where !== undefined) checkExpr(clause.where, (name, pos) => lookup(name, pos, bound));
  }

  const ret = (name: string, pos: Pos): VarKind => {
    const k = lookup(name, pos, bound);
    if (k === "path") throw unsupported(`returning the variable-length relationship '${name}' (a list of relationships)`, pos);
    return k;
  };
  const isAgg = q.items.some((it) => it.expr.kind === "agg");
  const names = q.items.map((it) => it.alias ?? it.expr.text);
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup !== undefined) throw cypherError(`duplicate RETURN column '${dup}'`, q.returnPos);
  for (const it of q.items) checkReturnExpr(it.expr, ret);
  for (const o of q.orderBy) {
    const item = itemFor(q, o.expr);
    if (item === undefined) {
      if (isAgg || q.distinct)
        throw unsupported(`ORDER BY ${o.expr.text} (not a returned column) with DISTINCT or aggregation`, o.expr.pos);
      checkReturnExpr(o.expr, ret);
    }
    const e = item?.expr ?? o.expr;
    if (e.kind === "var") throw unsupported(`ORDER BY a whole variable (${o.expr.text})`, o.expr.pos);
    if (item === undefined && e.kind === "agg")
      throw unsupported(`ORDER BY an aggregate that is not returned (${o.expr.text})`, o.expr.pos);
  }
  return { query: q, kinds };
}

function checkMapValue(v: Value, pos: Pos): void {
  if (v === null) throw unsupported("null in a property map (use IS NULL)", pos);
}

function varsOfPattern(p: PathPattern): string[] {
  return [...p.nodes, ...p.rels].map((x) => x.variable as string);
}

/** The RETURN item an ORDER BY expression names: by alias, or by the same expression (aliased or not). */
function itemFor(q: CypherQuery, e: ReturnExpr) {
  if (e.kind === "var") {
    const byAlias = q.items.find((it) => it.alias === e.name);
    if (byAlias !== undefined) return byAlias;
  }
  return q.items.find((it) => it.expr.text === e.text);
}

function checkReturnExpr(e: ReturnExpr, ret: (name: string, pos: Pos) => VarKind): void {
  if (e.kind === "var") ret(e.name, e.pos);
  if (e.kind === "prop") ret(e.variable, e.pos);
  if (e.kind === "agg") {
    if (e.arg.kind === "var") {
      ret(e.arg.name, e.pos);
      if (e.fn !== "count" && e.fn !== "collect") throw unsupported(`${e.fn}() of a whole variable`, e.pos);
    }
    if (e.arg.kind === "prop") ret(e.arg.variable, e.pos);
  }
}

function checkExpr(e: Expr, lookup: (name: string, pos: Pos) => VarKind): void {
  const operand = (o: Operand) => {
    if (o.kind === "lit") return "lit";
    const name = o.kind === "prop" ? o.variable : o.name;
    const k = lookup(name, o.pos);
    if (k === "path") throw unsupported(`WHERE on the variable-length relationship '${name}'`, o.pos);
    return o.kind;
  };
  switch (e.kind) {
    case "and":
    case "or":
    case "xor":
      checkExpr(e.left, lookup);
      checkExpr(e.right, lookup);
      return;
    case "not":
      checkExpr(e.expr, lookup);
      return;
    case "label":
      if (lookup(e.variable, e.pos) === "path")
        throw unsupported(`a label test on the variable-length relationship '${e.variable}'`, e.pos);
      return;
    case "null":
      operand(e.operand);
      return;
    case "operand": {
      const k = operand(e.operand);
      if (k === "var") throw unsupported("a bare variable as a WHERE condition", e.pos);
      if (k === "lit" && typeof (e.operand as { value: Value }).value !== "boolean" && (e.operand as { value: Value }).value !== null) {
        throw cypherError("a WHERE condition must be boolean", e.pos);
      }
      return;
    }
    case "cmp": {
      const l = operand(e.left);
      const r = operand(e.right);
      for (const o of [e.left, e.right]) {
        if (o.kind === "lit" && o.value === null) {
          throw cypherError(`comparison '${e.op}' with null is never true; use IS NULL / IS NOT NULL`, o.pos);
        }
      }
      if (l === "var" || r === "var") {
        if ((e.op !== "=" && e.op !== "<>") || l !== "var" || r !== "var") {
          throw unsupported(`'${e.op}' on a whole variable (compare properties, or two variables with = / <>)`, e.pos);
        }
        const kl = lookup((e.left as { name: string }).name, e.left.pos);
        const kr = lookup((e.right as { name: string }).name, e.right.pos);
        const word = (k: VarKind) => (k === "node" ? "a node" : "a relationship");
        if (kl !== kr) throw cypherError(`comparing ${word(kl)} with ${word(kr)} is never true`, e.pos);
        return;
      }
      if (e.op === "IN") {
        if (e.right.kind !== "lit" || !Array.isArray(e.right.value) || e.right.value.some((x) => Array.isArray(x))) {
          throw cypherError("IN needs a list of scalar values", e.right.pos);
        }
        return;
      }
      if (e.op === "STARTS WITH" || e.op === "ENDS WITH" || e.op === "CONTAINS" || e.op === "=~") {
        if (e.right.kind !== "lit") throw unsupported(`'${e.op}' with a non-literal pattern`, e.right.pos);
        if (typeof e.right.value !== "string") throw cypherError(`'${e.op}' needs a string operand`, e.right.pos);
        return;
      }
      for (const o of [e.left, e.right]) {
        if (o.kind === "lit" && Array.isArray(o.value)) throw unsupported(`a list operand for '${e.op}'`, o.pos);
      }
      return;
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// execution

/**
 * `pairsOnly`: the answer does not depend on how many rows a (start, end) pair of a variable-length segment has
 * (RETURN DISTINCT without aggregates; such a segment can be neither returned nor tested in WHERE), so an unbounded
 * one may bind each pair once (trail-pairs.ts) instead of once per trail.
 */
type Ctx = { g: GfqlGraph; nodes: pl.DataFrame; edges: pl.DataFrame; kinds: Record<string, VarKind>; pairsOnly: boolean };

/** Runs a planned query over the graph and returns its result rows. */
export function runRowPlan(g: GfqlGraph, plan: CypherRowPlan): pl.DataFrame {
  const pairsOnly = plan.query.distinct && !plan.query.items.some((it) => it.expr.kind === "agg");
  const ctx: Ctx = { g, nodes: allNodes(g), edges: g.edges.withRowIndex(EIDX), kinds: plan.kinds, pairsOnly };
  let table = pl.DataFrame({ [ROW]: [0] });
  for (const clause of plan.query.matches) table = applyClause(ctx, table, clause);
  return project(ctx, table, plan.query);
}

/** The node table plus a row for every edge endpoint it lacks (attributes null), as the Chain engine does. */
function allNodes(g: GfqlGraph): pl.DataFrame {
  if (g.endpointsInNodes === true || g.edges.height === 0) return g.nodes;
  const idType = g.nodes.schema[g.nodeId] as pl.DataType;
  const ends = pl
    .concat([g.edges.select(pl.col(g.source).alias(g.nodeId)), g.edges.select(pl.col(g.destination).alias(g.nodeId))])
    .select(pl.col(g.nodeId).cast(idType))
    .unique();
  const missing = ends.join(g.nodes.select(g.nodeId), { on: g.nodeId, how: "anti" });
  return missing.height === 0 ? g.nodes : pl.concat([g.nodes, missing], { how: "diagonal" });
}

function applyClause(ctx: Ctx, main: pl.DataFrame, clause: MatchClause): pl.DataFrame {
  let part: pl.DataFrame | undefined;
  for (const p0 of clause.patterns) {
    // start the walk from a node bound already (reversing the pattern if that is its last node): only its ids
    const boundIn = (v: string) => [part, main].find((t) => t?.columns.includes(key(v)));
    const last = p0.nodes[p0.nodes.length - 1] as NodePattern;
    const p = boundIn(p0.nodes[0]?.variable as string) === undefined && boundIn(last.variable as string) !== undefined ? reversed(p0) : p0;
    const start = key(p.nodes[0]?.variable as string);
    const seed = boundIn(p.nodes[0]?.variable as string)
      ?.select(start)
      .unique();
    const t = matchPattern(ctx, p, seed);
    part = capped(part === undefined ? t : joinOn(part, t, "inner"));
  }
  let c = distinctRelationships(ctx, part as pl.DataFrame, clause);
  if (!clause.optional) {
    c = attachProps(ctx, capped(joinOn(main, c, "inner")), main);
    return clause.where === undefined ? c : c.filter(compileExpr(c, clause.where));
  }
  const base = main.drop(ROW).withRowIndex(ROW);
  let j = attachProps(ctx, capped(joinOn(base, c, "inner")), base);
  if (clause.where !== undefined) j = j.filter(compileExpr(j, clause.where));
  const added = j.columns.filter((col) => !base.columns.includes(col));
  return base.join(j.select(ROW, ...added), { on: ROW, how: "left" });
}

/** Joins two binding tables on their shared key columns (a cross join when none is shared). */
function joinOn(a: pl.DataFrame, b: pl.DataFrame, how: "inner"): pl.DataFrame {
  const shared = b.columns.filter((c) => c.startsWith("__cy_k:") && a.columns.includes(c));
  if (shared.length === 0) return a.join(b, { how: "cross" });
  return a.join(b, { on: shared, how });
}

/** Relationship isomorphism: the single-hop relationships of one MATCH clause are pairwise distinct. */
function distinctRelationships(ctx: Ctx, t: pl.DataFrame, clause: MatchClause): pl.DataFrame {
  const rels = clause.patterns.flatMap((p) => p.rels).filter((r) => ctx.kinds[r.variable as string] === "edge");
  const conds: pl.Expr[] = [];
  rels.forEach((r, i) => {
    for (const s of rels.slice(i + 1)) conds.push(pl.col(key(r.variable as string)).neq(pl.col(key(s.variable as string))));
  });
  return conds.length === 0 ? t : t.filter(conds.reduce((x, y) => x.and(y)));
}

/** Adds the attribute columns of every variable newly bound in `t` (relative to `before`). */
function attachProps(ctx: Ctx, t: pl.DataFrame, before: pl.DataFrame): pl.DataFrame {
  let out = t;
  for (const col of t.columns) {
    if (!col.startsWith("__cy_k:") || before.columns.includes(col)) continue;
    const v = col.slice("__cy_k:".length);
    const kind = ctx.kinds[v];
    if (kind === "path") continue;
    const src = kind === "node" ? ctx.nodes : ctx.edges;
    const idCol = kind === "node" ? ctx.g.nodeId : EIDX;
    const cols = src.columns.filter((c) => c !== EIDX);
    out = out.join(src.select(pl.col(idCol).alias(col), ...cols.map((c) => pl.col(c).alias(prop(v, c)))), { on: col, how: "left" });
  }
  return out;
}

/** The key table of one path pattern: a column of node ids / edge row numbers per (non-variable-length) element. */
function matchPattern(ctx: Ctx, p: PathPattern, seed?: pl.DataFrame): pl.DataFrame {
  const first = p.nodes[0] as NodePattern;
  let t = nodeCandidates(ctx, first);
  if (seed !== undefined) t = t.join(seed, { on: key(first.variable as string), how: "semi" });
  p.rels.forEach((r, i) => {
    const from = key(p.nodes[i]?.variable as string);
    const n = p.nodes[i + 1] as NodePattern;
    const steps = r.range === undefined ? oriented(ctx, r) : walks(ctx, r, t.getColumn(from).unique());
    t = capped(t.join(steps, { leftOn: from, rightOn: FROM, how: "inner" }));
    const to = key(n.variable as string);
    if (t.columns.includes(to)) t = t.filter(pl.col(TO).eq(pl.col(to))).drop(TO);
    else t = t.rename({ [TO]: to });
    t = t.join(nodeCandidates(ctx, n), { on: to, how: "semi" });
  });
  return t;
}

/** The same pattern written from its other end. */
function reversed(p: PathPattern): PathPattern {
  const flip = { forward: "reverse", reverse: "forward", undirected: "undirected" } as const;
  return { ...p, nodes: [...p.nodes].reverse(), rels: [...p.rels].reverse().map((r) => ({ ...r, direction: flip[r.direction] })) };
}

const idOf = (ctx: Ctx) => ctx.nodes.schema[ctx.g.nodeId] as pl.DataType;

function nodeCandidates(ctx: Ctx, n: NodePattern): pl.DataFrame {
  const conds = [...n.labels.map((l): [string, Value] => ["type", l]), ...n.props].map(([c, v]) => equals(ctx.nodes, c, v));
  const t = conds.length === 0 ? ctx.nodes : ctx.nodes.filter(conds.reduce((x, y) => x.and(y)));
  return t.select(pl.col(ctx.g.nodeId).alias(key(n.variable as string))).unique({ maintainOrder: true });
}

function matchingEdges(ctx: Ctx, r: RelPattern): pl.DataFrame {
  const conds: pl.Expr[] = r.props.map(([c, v]) => equals(ctx.edges, c, v));
  if (r.types.length > 0) {
    conds.push(ctx.edges.columns.includes("type") ? pl.col("type").isIn(r.types) : pl.lit(false));
  }
  return conds.length === 0 ? ctx.edges : ctx.edges.filter(conds.reduce((x, y) => x.and(y)));
}

/** Single-hop steps (from, to, relationship) in the pattern's direction; undirected takes both ways once. */
function oriented(ctx: Ctx, r: RelPattern): pl.DataFrame {
  const e = matchingEdges(ctx, r);
  const { source: s, destination: d } = ctx.g;
  const id = idOf(ctx);
  const k = key(r.variable as string);
  const fwd = e.select(pl.col(s).cast(id).alias(FROM), pl.col(d).cast(id).alias(TO), pl.col(EIDX).alias(k));
  const rev = e.select(pl.col(d).cast(id).alias(FROM), pl.col(s).cast(id).alias(TO), pl.col(EIDX).alias(k));
  if (r.direction === "forward") return fwd;
  if (r.direction === "reverse") return rev;
  return pl.concat([fwd, rev.filter(pl.col(FROM).neq(pl.col(TO)))]);
}

/** Variable-length steps: one (from, to) row per trail (no relationship twice) of an allowed length. */
function walks(ctx: Ctx, r: RelPattern, starts: pl.Series): pl.DataFrame {
  const min = r.range?.min ?? 1;
  const max = r.range?.max ?? Number.POSITIVE_INFINITY;
  const steps = oriented(ctx, { ...r, variable: "__walk", range: undefined });
  if (ctx.pairsOnly && max === Number.POSITIVE_INFINITY && min <= 1)
    return reachablePairs(ctx, steps, starts, min, r.direction === "undirected");
  const from = steps.getColumn(FROM).toArray();
  const to = steps.getColumn(TO).toArray();
  const eidx = steps.getColumn(key("__walk")).toArray() as number[];
  const adj = new Map<unknown, Array<[unknown, number]>>();
  from.forEach((f, i) => {
    const list = adj.get(f) ?? [];
    list.push([to[i], eidx[i] as number]);
    adj.set(f, list);
  });
  const outFrom: unknown[] = [];
  const outTo: unknown[] = [];
  const used = new Set<number>();
  const visit = (start: unknown, at: unknown, depth: number) => {
    if (depth >= min) {
      outFrom.push(start);
      outTo.push(at);
      if (outFrom.length > MAX_WALKS) {
        throw gfqlError("E101", `a variable-length pattern matches more than ${MAX_WALKS} paths; bound it with *m..n`, "cypher");
      }
    }
    if (depth >= max) return;
    for (const [next, e] of adj.get(at) ?? []) {
      if (used.has(e)) continue;
      used.add(e);
      visit(start, next, depth + 1);
      used.delete(e);
    }
  };
  for (const s of starts.toArray()) if (s !== null) visit(s, s, 0);
  const id = idOf(ctx);
  return pl.DataFrame([pl.Series(FROM, outFrom, id), pl.Series(TO, outTo, id)]);
}

/** The (from, to) pairs joined by a trail of `min` (0 or 1) or more steps, once each (trail-pairs.ts). */
function reachablePairs(ctx: Ctx, steps: pl.DataFrame, starts: pl.Series, min: number, undirected: boolean): pl.DataFrame {
  const index = new Map<unknown, number>();
  const ids: unknown[] = [];
  const at = (id: unknown) => {
    let i = index.get(id);
    if (i === undefined) {
      i = ids.length;
      index.set(id, i);
      ids.push(id);
    }
    return i;
  };
  const from = (steps.getColumn(FROM).toArray() as unknown[]).map(at);
  const to = (steps.getColumn(TO).toArray() as unknown[]).map(at);
  const edge = steps.getColumn(key("__walk")).toArray() as number[];
  const seeds = (starts.toArray() as unknown[]).filter((x) => x !== null).map(at);
  const [outFrom, outTo] = trailPairs(ids.length, { from, to, edge }, seeds, min, undirected);
  const id = idOf(ctx);
  return pl.DataFrame([
    pl.Series(
      FROM,
      outFrom.map((i) => ids[i]),
      id,
    ),
    pl.Series(
      TO,
      outTo.map((i) => ids[i]),
      id,
    ),
  ]);
}

// ---------------------------------------------------------------------------------------------------------------
// expressions

type Kind = "string" | "number" | "bool" | "null" | "other";
type Typed = { expr: pl.Expr; kind: Kind };

function kindOfType(t: pl.DataType | undefined): Kind {
  if (t === undefined) return "null";
  const s = t.variant;
  if (/^(Utf8|String|Categorical)/.test(s)) return "string";
  if (/^(U?Int|Float|Decimal)/.test(s)) return "number";
  if (s.startsWith("Bool")) return "bool";
  if (s === "Null") return "null";
  return "other";
}

function kindOfValue(v: Value): Kind {
  if (v === null) return "null";
  if (typeof v === "string") return "string";
  if (typeof v === "number") return "number";
  if (typeof v === "boolean") return "bool";
  return "other";
}

/** Equality of a table column with a value (property maps, labels); a value of another kind never matches. */
function equals(df: pl.DataFrame, column: string, v: Value): pl.Expr {
  if (!df.columns.includes(column)) return pl.lit(false);
  if (Array.isArray(v)) return pl.col(column).isIn(v.filter((x) => x !== null && !Array.isArray(x)));
  const k = kindOfType(df.schema[column]);
  if (k !== "other" && k !== kindOfValue(v)) return pl.lit(false);
  return pl.col(column).eq(pl.lit(v));
}

function operand(t: pl.DataFrame, o: Operand): Typed {
  if (o.kind === "lit") {
    return { expr: o.value === null ? pl.lit(null) : pl.lit(o.value as string | number | boolean), kind: kindOfValue(o.value) };
  }
  if (o.kind === "var") return { expr: pl.col(key(o.name)), kind: "other" };
  const c = prop(o.variable, o.key);
  if (!t.columns.includes(c)) return { expr: pl.lit(null), kind: "null" };
  return { expr: pl.col(c), kind: kindOfType(t.schema[c]) };
}

const ORDERING = { "<": "lt", "<=": "ltEq", ">": "gt", ">=": "gtEq" } as const;

function compileExpr(t: pl.DataFrame, e: Expr): pl.Expr {
  switch (e.kind) {
    case "and":
      return compileExpr(t, e.left).and(compileExpr(t, e.right));
    case "or":
      return compileExpr(t, e.left).or(compileExpr(t, e.right));
    case "xor":
      return compileExpr(t, e.left).neq(compileExpr(t, e.right));
    case "not":
      return compileExpr(t, e.expr).not();
    case "label": {
      const c = prop(e.variable, "type");
      if (!t.columns.includes(c) || kindOfType(t.schema[c]) !== "string") return pl.lit(false);
      const base = pl.col(key(e.variable)).isNull();
      const all = e.labels.map((l) => pl.col(c).eq(pl.lit(l))).reduce((x, y) => x.and(y));
      return pl.when(base).then(pl.lit(null)).otherwise(all.fillNull(false));
    }
    case "null": {
      const o = operand(t, e.operand);
      return e.negated ? o.expr.isNotNull() : o.expr.isNull();
    }
    case "operand": {
      const o = operand(t, e.operand);
      return o.kind === "bool" || o.kind === "null" ? o.expr : pl.lit(null);
    }
    case "cmp":
      return compare(t, e);
  }
}

function compare(t: pl.DataFrame, e: Extract<Expr, { kind: "cmp" }>): pl.Expr {
  const l = operand(t, e.left);
  if (e.op === "IN") {
    const opts = (e.right as { value: Value[] }).value.filter((x) => x !== null && (l.kind === "other" || kindOfValue(x) === l.kind));
    return opts.length === 0 ? pl.when(l.expr.isNull()).then(pl.lit(null)).otherwise(pl.lit(false)) : l.expr.isIn(opts);
  }
  if (e.op === "STARTS WITH" || e.op === "ENDS WITH" || e.op === "CONTAINS" || e.op === "=~") {
    if (l.kind !== "string") return pl.lit(null);
    const pat = (e.right as { value: string }).value;
    if (e.op === "STARTS WITH") return l.expr.str.startsWith(pat);
    if (e.op === "ENDS WITH") return l.expr.str.endsWith(pat);
    if (e.op === "CONTAINS") return l.expr.str.contains(pat, true);
    return l.expr.str.contains(`^(?:${pat})$`);
  }
  const r = operand(t, e.right);
  if (l.kind === "null" || r.kind === "null") return pl.lit(null);
  // values of different kinds (a literal against a date column, say) never compare equal and have no order
  const literal = (o: Operand, k: Kind) => o.kind === "lit" && k !== "other";
  const mixed = l.kind !== r.kind && ((l.kind !== "other" && r.kind !== "other") || literal(e.left, l.kind) || literal(e.right, r.kind));
  if (mixed) {
    return e.op === "=" ? pl.lit(false) : e.op === "<>" ? pl.lit(true) : pl.lit(null);
  }
  if (e.op === "=") return l.expr.eq(r.expr);
  if (e.op === "<>") return l.expr.neq(r.expr);
  return l.expr[ORDERING[e.op]](r.expr);
}

// ---------------------------------------------------------------------------------------------------------------
// RETURN

/** The output columns of one non-aggregate item: one for a property, one per attribute for a whole variable. */
function columnsOf(ctx: Ctx, t: pl.DataFrame, e: ReturnExpr, name: string, bare = false): pl.Expr[] {
  if (e.kind === "prop") {
    const c = prop(e.variable, e.key);
    return [(t.columns.includes(c) ? pl.col(c) : pl.lit(null)).alias(name)];
  }
  if (e.kind === "var") {
    const src = ctx.kinds[e.name] === "node" ? ctx.nodes : ctx.edges;
    return src.columns.filter((c) => c !== EIDX).map((c) => pl.col(prop(e.name, c)).alias(bare ? c : `${name}.${c}`));
  }
  throw new Error("aggregate where a column was expected");
}

function argColumn(t: pl.DataFrame, a: AggArg): pl.Expr {
  if (a.kind === "var") return pl.col(key(a.name));
  if (a.kind === "prop") {
    const c = prop(a.variable, a.key);
    return t.columns.includes(c) ? pl.col(c) : pl.lit(null);
  }
  throw new Error("count(*) has no argument column");
}

function aggExpr(t: pl.DataFrame, e: Extract<ReturnExpr, { kind: "agg" }>, grouped: boolean): pl.Expr {
  if (e.arg.kind === "star") return pl.len();
  const c = argColumn(t, e.arg);
  switch (e.fn) {
    case "count":
      return e.distinct ? c.dropNulls().nUnique() : c.count();
    case "collect": {
      const values = e.distinct ? c.dropNulls().unique(true) : c.dropNulls();
      return grouped ? values : values.implode();
    }
    case "sum":
      return e.distinct ? c.unique().sum() : c.sum();
    case "min":
      return c.min();
    case "max":
      return c.max();
    case "avg":
      return e.distinct ? c.unique().mean() : c.mean();
  }
}

function project(ctx: Ctx, t: pl.DataFrame, q: CypherQuery): pl.DataFrame {
  const names = q.items.map((it) => it.alias ?? it.expr.text);
  const isAgg = q.items.some((it) => it.expr.kind === "agg");
  // `RETURN v` alone keeps the table's own column names, as the Chain lowering's `RETURN v` does
  const bare = q.items.length === 1 && q.items[0]?.expr.kind === "var" && q.items[0].alias === undefined;
  const sortBy = (df: pl.DataFrame, by: string[]) =>
    by.length === 0 ? df : df.sort({ by, descending: q.orderBy.map((o) => o.descending), nullsLast: true, maintainOrder: true });
  let out: pl.DataFrame;
  if (isAgg) {
    const keys = q.items.flatMap((it, i) => (it.expr.kind === "agg" ? [] : columnsOf(ctx, t, it.expr, names[i] as string)));
    const aggs = q.items.flatMap((it, i) =>
      it.expr.kind === "agg" ? [aggExpr(t, it.expr, keys.length > 0).alias(names[i] as string)] : [],
    );
    const keyNames = q.items.flatMap((it, i) => (it.expr.kind === "agg" ? [] : namesOf(ctx, it.expr, names[i] as string)));
    if (keys.length === 0) out = t.select(...aggs);
    else {
      // groups come out sorted by their keys (like the row pipeline's group_by), then columns in RETURN order
      const keyed = t.withColumns(...keys);
      out = keyed
        .groupBy(...keyNames)
        .agg(...aggs)
        .sort({ by: keyNames, nullsLast: true, maintainOrder: true });
      out = out.select(
        ...q.items.flatMap((it, i) => (it.expr.kind === "agg" ? [names[i] as string] : namesOf(ctx, it.expr, names[i] as string))),
      );
    }
    out = sortBy(
      out,
      q.orderBy.map((o) => outputFor(q, o.expr, names)),
    );
  } else if (q.distinct) {
    out = t.select(...q.items.flatMap((it, i) => columnsOf(ctx, t, it.expr, names[i] as string, bare))).unique({ maintainOrder: true });
    out = sortBy(
      out,
      q.orderBy.map((o) => outputFor(q, o.expr, names)),
    );
  } else {
    const cols = q.items.flatMap((it, i) => columnsOf(ctx, t, it.expr, names[i] as string, bare));
    const extra = q.orderBy.map((o, i) => {
      const item = itemFor(q, o.expr);
      const e = item?.expr ?? o.expr;
      return (columnsOf(ctx, t, e, `__cy_o${i}`)[0] as pl.Expr).alias(`__cy_o${i}`);
    });
    const width = cols.length;
    out = sortBy(
      t.select(...cols, ...extra),
      extra.map((_, i) => `__cy_o${i}`),
    );
    out = out.select(...out.columns.slice(0, width));
  }
  if (q.skip !== undefined) out = out.slice(Math.min(q.skip, out.height), Math.max(0, out.height - q.skip));
  if (q.limit !== undefined) out = out.head(q.limit);
  return out;
}

/** The output column names columnsOf gives an item. */
function namesOf(ctx: Ctx, e: ReturnExpr, name: string): string[] {
  if (e.kind !== "var") return [name];
  const src = ctx.kinds[e.name] === "node" ? ctx.nodes : ctx.edges;
  return src.columns.filter((c) => c !== EIDX).map((c) => `${name}.${c}`);
}

function outputFor(q: CypherQuery, e: ReturnExpr, names: string[]): string {
  const item = itemFor(q, e);
  return names[q.items.indexOf(item as (typeof q.items)[number])] as string;
}
