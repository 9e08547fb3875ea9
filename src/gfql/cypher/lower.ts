// Lowers a parsed Cypher query onto a GFQL Chain in JSON wire form (then validated by parseGfql).
//
// Label lowering: the reference lowers `(n:Person)` to {"label__Person": true}; this engine has no `label__` keys
// yet, so a node label becomes equality on the node `type` column ({"type": "Person"}), and relationship types
// `[r:A|B]` become edge_match membership on the edge `type` column.
//
// Result rows: RETURN reads the rows of one pattern variable (its step is named after the variable, and the
// `rows` Call keeps what that step matched), so there is one row per matched node or edge, not one per path.
// Only queries of that shape lower to a Chain: one MATCH of one path, WHERE that splits per variable, RETURN of
// one variable. Anything else throws an `unsupported` error and index.ts hands the query to the per-path row
// plan (rows.ts).

import { cypherError, type Pos, unsupported } from "./errors.ts";
import { addFilter, lowerWhere, type VarFilters, type WirePredicate } from "./lower-where.ts";
import type { CypherQuery, RelPattern, ReturnExpr, Value } from "./syntax.ts";

type VarInfo = { kind: "node" | "edge"; step: number; varLength: boolean };

const call = (fn: string, params: Record<string, unknown> = {}) => ({ type: "Call", function: fn, params });

function filterDict(cols: Map<string, WirePredicate[]> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [col, preds] of cols ?? []) {
    out[col] = preds.length === 1 ? preds[0] : { type: "AllOf", predicates: preds };
  }
  return out;
}

function eqPred(v: Value, pos: Pos): WirePredicate {
  if (v === null) throw unsupported("null in a property map (use IS NULL)", pos);
  if (Array.isArray(v)) return { type: "IsIn", options: v };
  return { type: "EQ", val: v };
}

function hopFields(r: RelPattern): Record<string, unknown> {
  if (r.range === undefined) return { hops: 1 };
  const { min, max } = r.range;
  if (max !== undefined && min !== undefined && min > max) throw cypherError(`hop range *${min}..${max} is empty`, r.pos);
  const out: Record<string, unknown> = { min_hops: min ?? 1 };
  if (max === undefined) out.to_fixed_point = true;
  else out.max_hops = max;
  return out;
}

export function lowerCypher(q: CypherQuery): Record<string, unknown> {
  const [clause, ...more] = q.matches;
  if (clause === undefined || more.length > 0 || clause.optional || clause.patterns.length !== 1) {
    throw unsupported("several MATCH patterns as a Chain", q.returnPos);
  }
  const { nodes, rels } = clause.patterns[0] as (typeof clause.patterns)[number];
  const vars = new Map<string, VarInfo>();
  const declare = (name: string | undefined, info: VarInfo, pos: Pos) => {
    if (name === undefined) return;
    if (vars.has(name)) throw unsupported(`reusing variable '${name}' within a pattern (cycles / joins)`, pos);
    vars.set(name, info);
  };
  nodes.forEach((n, i) => {
    declare(n.variable, { kind: "node", step: 2 * i, varLength: false }, n.pos);
  });
  rels.forEach((r, i) => {
    declare(r.variable, { kind: "edge", step: 2 * i + 1, varLength: r.range !== undefined }, r.pos);
  });
  const lookup = (name: string, pos: Pos): VarInfo => {
    const v = vars.get(name);
    if (v === undefined) throw cypherError(`unknown variable '${name}'`, pos);
    return v;
  };

  // filters per step (keyed by step index, so anonymous elements work too)
  const filters: VarFilters = new Map();
  const key = (step: number) => String(step);
  nodes.forEach((n, i) => {
    if (n.labels.length > 1) throw unsupported(`multiple labels (:${n.labels.join(":")})`, n.pos);
    if (n.labels[0] !== undefined) addFilter(filters, key(2 * i), "type", { type: "EQ", val: n.labels[0] });
    for (const [k, v] of n.props) addFilter(filters, key(2 * i), k, eqPred(v, n.pos));
  });
  rels.forEach((r, i) => {
    if (r.types.length === 1) addFilter(filters, key(2 * i + 1), "type", { type: "EQ", val: r.types[0] });
    if (r.types.length > 1) addFilter(filters, key(2 * i + 1), "type", { type: "IsIn", options: r.types });
    for (const [k, v] of r.props) addFilter(filters, key(2 * i + 1), k, eqPred(v, r.pos));
  });
  if (clause.where !== undefined) {
    const byVar: VarFilters = new Map();
    lowerWhere(clause.where, byVar, (name, pos) => {
      const v = lookup(name, pos);
      if (v.varLength) throw unsupported(`WHERE on the variable-length relationship '${name}'`, pos);
    });
    for (const [name, cols] of byVar) {
      const step = (vars.get(name) as VarInfo).step;
      for (const [col, preds] of cols) for (const p of preds) addFilter(filters, key(step), col, p);
    }
  }

  const chain: Array<Record<string, unknown>> = [];
  nodes.forEach((n, i) => {
    if (i > 0) {
      const r = rels[i - 1] as RelPattern;
      const edge: Record<string, unknown> = {
        type: "Edge",
        direction: r.direction,
        edge_match: filterDict(filters.get(key(2 * i - 1))),
        ...hopFields(r),
      };
      if (r.variable !== undefined) edge.name = r.variable;
      chain.push(edge);
    }
    const node: Record<string, unknown> = { type: "Node", filter_dict: filterDict(filters.get(key(2 * i))) };
    if (n.variable !== undefined) node.name = n.variable;
    chain.push(node);
  });
  chain.push(...lowerReturn(q, nodes.length === 1, lookup));
  return { type: "Chain", chain };
}

function lowerReturn(q: CypherQuery, single: boolean, lookup: (name: string, pos: Pos) => VarInfo): Array<Record<string, unknown>> {
  for (const it of q.items) {
    const e = it.expr;
    if (e.kind === "agg" && (e.fn !== "count" || e.arg.kind === "prop")) throw unsupported(`${e.text} as a Chain`, e.pos);
  }
  // the one variable whose rows RETURN reads
  let source: string | undefined;
  const use = (name: string, pos: Pos) => {
    lookup(name, pos);
    if (source !== undefined && source !== name) {
      throw unsupported(`returning several variables (${source}, ${name}): rows come from one variable`, pos);
    }
    source = name;
  };
  const aliases = new Set(q.items.flatMap((it) => (it.alias === undefined ? [] : [it.alias])));
  const isAlias = (e: ReturnExpr) => e.kind === "var" && aliases.has(e.name);
  const exprs = [...q.items.map((it) => it.expr), ...q.orderBy.map((o) => o.expr).filter((e) => !isAlias(e))];
  for (const e of exprs) {
    if (e.kind === "var") use(e.name, e.pos);
    if (e.kind === "prop") use(e.variable, e.pos);
    if (e.kind === "agg" && e.arg.kind === "var") use(e.arg.name, e.pos);
  }
  for (const e of exprs) {
    if (e.kind === "agg" && !e.distinct && !single) {
      throw unsupported(`${e.text} over a multi-element pattern (it counts paths); use count(DISTINCT v)`, e.pos);
    }
  }
  // Properties without DISTINCT over a path pattern: one row per matched path (Cypher's rows, and pygraphistry's),
  // which the per-path plan gives and a Chain's one row per node or edge does not.
  if (!single && !q.distinct && q.items.some((it) => it.expr.kind === "prop")) {
    throw unsupported("properties over a multi-element pattern without DISTINCT (one row per path)", q.returnPos);
  }
  const info = source === undefined ? undefined : lookup(source, q.returnPos);
  const rowsParams: Record<string, unknown> = { table: info?.kind === "edge" ? "edges" : "nodes" };
  if (source !== undefined) rowsParams.source = source;
  const ops: Array<Record<string, unknown>> = [call("rows", rowsParams)];

  const whole = q.items.filter((it) => it.expr.kind === "var");
  const aggs = q.items.filter((it) => it.expr.kind === "agg");
  const props = q.items.filter((it) => it.expr.kind === "prop");
  const names = q.items.map((it) => it.alias ?? it.expr.text);
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup !== undefined) throw cypherError(`duplicate RETURN column '${dup}'`, q.returnPos);
  const slice = () => {
    if (q.skip !== undefined) ops.push(call("skip", { value: q.skip }));
    if (q.limit !== undefined) ops.push(call("limit", { value: q.limit }));
  };
  const orderKeys = (resolve: (e: ReturnExpr) => string) =>
    q.orderBy.length === 0 ? [] : [call("order_by", { keys: q.orderBy.map((o) => [resolve(o.expr), o.descending ? "desc" : "asc"]) })];

  if (whole.length > 0) {
    if (q.items.length > 1) throw unsupported("RETURN of a whole variable together with other items", q.returnPos);
    if (whole[0]?.alias !== undefined) throw unsupported("aliasing a whole variable", whole[0].expr.pos);
    ops.push(
      ...orderKeys((e) => {
        if (e.kind !== "prop") throw unsupported(`ORDER BY ${e.text}`, e.pos);
        return e.key;
      }),
    );
    if (q.distinct) ops.push(call("distinct"));
    slice();
    return ops;
  }

  if (aggs.length > 0) {
    // group_by on the raw columns (agg outputs named __c<i>), ordered there, then renamed by select
    const raw = (e: ReturnExpr, i: number) => (e.kind === "prop" ? e.key : `__c${i}`);
    const rawOf = (e: ReturnExpr): string => {
      const i = q.items.findIndex((it) => it.expr.text === e.text || (e.kind === "var" && it.alias === e.name));
      if (i < 0) throw unsupported(`ORDER BY ${e.text} (not a returned column of an aggregation)`, e.pos);
      return raw((q.items[i] as (typeof q.items)[number]).expr, i);
    };
    if (props.length === 0) {
      if (aggs.length > 1) throw unsupported("several counts without grouping keys", q.returnPos);
      ops.push(call("count_table", { alias: names[0] }));
      slice();
      return ops;
    }
    ops.push(
      call("group_by", {
        keys: [...new Set(props.map((it) => (it.expr as { key: string }).key))],
        aggregations: q.items.flatMap((it, i) => (it.expr.kind === "agg" ? [[`__c${i}`, "count"]] : [])),
      }),
      ...orderKeys(rawOf),
      call("select", { items: q.items.map((it, i) => [names[i], raw(it.expr, i)]) }),
    );
    slice();
    return ops;
  }

  // property projections: order on the raw columns first (stable), then select, then DISTINCT keeps that order
  ops.push(
    ...orderKeys((e) => {
      if (e.kind === "prop") {
        if (q.distinct && !props.some((it) => it.expr.text === e.text)) {
          throw unsupported(`ORDER BY ${e.text} with DISTINCT when it is not returned`, e.pos);
        }
        return e.key;
      }
      const it = props.find((p) => p.alias !== undefined && e.kind === "var" && p.alias === e.name);
      if (it === undefined) throw unsupported(`ORDER BY ${e.text}`, e.pos);
      return (it.expr as { key: string }).key;
    }),
    call("select", { items: props.map((it, i) => [names[q.items.indexOf(it)] ?? `_${i}`, (it.expr as { key: string }).key]) }),
  );
  if (q.distinct) ops.push(call("distinct"));
  slice();
  return ops;
}
