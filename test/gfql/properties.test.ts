// Property tests over random small graphs (seeded, so every run sees the same cases; raise the loop counts to
// search further, as was done once with 500 chains and 100 Cypher twins):
// - a chain's result is a subgraph of the input (ids from the input, every edge's endpoints among the nodes);
// - after the backward pass there are no dead ends: the result is exactly the union of the walks that match the
//   whole chain, found here by brute-force enumeration (bounded hops) or by reachability (to_fixed_point);
// - random queries of the Cypher subset give the same nodes/edges as their hand-written GFQL twins;
// - randomly broken queries are refused with "[code] message" and a path that names a place in the query.

import pl from "nodejs-polars";
import { describe, expect, it } from "vitest";
import { bindPerPath, parseCypher } from "../../src/gfql/cypher/index.ts";
import type { GfqlGraph } from "../../src/gfql/execute.ts";
import { parseGfql } from "../../src/gfql/parse.ts";
import { seeded } from "../helpers/seeded.ts";
import { executeBoth } from "./engines.ts";

const prng = seeded;
type Rng = ReturnType<typeof prng>;

type Edge = { id: string; s: string; d: string; t: string };
type Graph = { ids: string[]; c: Map<string, number>; label: Map<string, string>; edges: Edge[] };

/** Up to 7 nodes and 11 edges; self-loops and parallel edges allowed. Nodes carry c (0..2) and a label, edges a type. */
function randomGraph(r: Rng): Graph {
  const n = r.int(2, 7);
  const ids = Array.from({ length: n }, (_, i) => `v${i}`);
  const c = new Map(ids.map((id) => [id, r.int(0, 2)]));
  const label = new Map(ids.map((id) => [id, r.pick(["A", "B"])]));
  const edges = Array.from({ length: r.int(0, 11) }, (_, i) => ({ id: `e${i}`, s: r.pick(ids), d: r.pick(ids), t: r.pick(["X", "Y"]) }));
  return { ids, c, label, edges };
}

function frames(g: Graph): GfqlGraph {
  return {
    nodes: pl.DataFrame({ id: g.ids, c: g.ids.map((id) => g.c.get(id)), type: g.ids.map((id) => g.label.get(id)) }),
    edges: pl.DataFrame({
      eid: pl.Series(
        "eid",
        g.edges.map((e) => e.id),
        pl.Utf8,
      ),
      s: pl.Series(
        "s",
        g.edges.map((e) => e.s),
        pl.Utf8,
      ),
      d: pl.Series(
        "d",
        g.edges.map((e) => e.d),
        pl.Utf8,
      ),
      t: pl.Series(
        "t",
        g.edges.map((e) => e.t),
        pl.Utf8,
      ),
    }),
    nodeId: "id",
    source: "s",
    destination: "d",
  };
}

// ---- random chains and their brute-force meaning

type NodeFilter = { kind: "any" } | { kind: "eq"; v: number } | { kind: "gt"; v: number } | { kind: "in"; vs: number[] };
type Dir = "forward" | "reverse" | "undirected";
type EdgeSpec = { dir: Dir; min: number; max: number | null; type?: string };
type ChainSpec = { nodes: NodeFilter[]; edges: EdgeSpec[]; trailingImplicit: boolean };

function randomFilter(r: Rng): NodeFilter {
  const k = r.int(0, 5);
  if (k <= 1) return { kind: "any" };
  if (k === 2) return { kind: "eq", v: r.int(0, 2) };
  if (k === 3) return { kind: "gt", v: r.int(0, 1) };
  return { kind: "in", vs: [r.int(0, 2), r.int(0, 2)] };
}

function randomEdge(r: Rng, fixedPoint: boolean): EdgeSpec {
  const dir = r.pick(["forward", "reverse", "undirected"] as const);
  const type = r.next() < 0.3 ? r.pick(["X", "Y"]) : undefined;
  if (fixedPoint) return { dir, min: 1, max: null, ...(type ? { type } : {}) };
  const max = r.int(0, 3);
  const min = max === 0 ? 0 : r.int(0, max);
  return { dir, min, max, ...(type ? { type } : {}) };
}

function randomChain(r: Rng, fixedPoint: boolean): ChainSpec {
  const k = fixedPoint ? 1 : r.int(0, 3);
  const edges = Array.from({ length: k }, () => randomEdge(r, fixedPoint));
  const nodes = Array.from({ length: k + 1 }, () => randomFilter(r));
  const trailingImplicit = k > 0 && nodes[k]?.kind === "any" && r.next() < 0.5;
  return { nodes, edges, trailingImplicit };
}

const nodeFilterJson = (f: NodeFilter): Record<string, unknown> =>
  f.kind === "any" ? {} : f.kind === "eq" ? { c: f.v } : f.kind === "gt" ? { c: { type: "GT", val: f.v } } : { c: f.vs };

function chainJson(spec: ChainSpec): unknown[] {
  const ops: unknown[] = [];
  spec.nodes.forEach((f, i) => {
    if (i > 0) {
      const e = spec.edges[i - 1] as EdgeSpec;
      const bounds = e.max === null ? { to_fixed_point: true } : { min_hops: e.min, max_hops: e.max };
      ops.push({ type: "Edge", direction: e.dir, ...bounds, ...(e.type ? { edge_match: { t: e.type } } : {}), name: `e${i}` });
    }
    if (!(spec.trailingImplicit && i === spec.nodes.length - 1)) ops.push({ type: "Node", filter_dict: nodeFilterJson(f), name: `n${i}` });
  });
  return ops;
}

function nodeOk(g: Graph, f: NodeFilter, id: string): boolean {
  const c = g.c.get(id) as number;
  return f.kind === "any" || (f.kind === "eq" ? c === f.v : f.kind === "gt" ? c > f.v : f.vs.includes(c));
}

/** Oriented steps (edge id, from, to) an Edge spec may take. */
function oriented(g: Graph, e: EdgeSpec): Array<[string, string, string]> {
  const out: Array<[string, string, string]> = [];
  for (const x of g.edges) {
    if (e.type !== undefined && x.t !== e.type) continue;
    if (e.dir !== "reverse") out.push([x.id, x.s, x.d]);
    if (e.dir === "reverse" || (e.dir === "undirected" && x.s !== x.d)) out.push([x.id, x.d, x.s]);
  }
  return out;
}

type Expected = { nodes: Set<string>; edges: Set<string>; marks: Map<string, Set<string>> };

/** Every match of a bounded chain by enumeration: node x_i at each Node step, a walk of allowed length between. */
function bruteForce(g: Graph, spec: ChainSpec): Expected {
  const out: Expected = { nodes: new Set(), edges: new Set(), marks: new Map() };
  const mark = (name: string, id: string) => {
    const set = out.marks.get(name) ?? new Set<string>();
    set.add(id);
    out.marks.set(name, set);
  };
  const steps = spec.edges.map((e) => oriented(g, e));
  const xs: string[] = [];
  const walks: Array<Array<[string, string, string]>> = [];
  const record = () => {
    xs.forEach((x, i) => {
      out.nodes.add(x);
      mark(`n${i}`, x);
    });
    walks.forEach((w, i) => {
      for (const [id, a, b] of w) {
        out.edges.add(id);
        out.nodes.add(a);
        out.nodes.add(b);
        mark(`e${i + 1}`, id);
      }
    });
  };
  const fromStep = (i: number, x: string): void => {
    xs.push(x);
    if (i === spec.edges.length) record();
    else {
      const e = spec.edges[i] as EdgeSpec;
      const walk: Array<[string, string, string]> = [];
      const dfs = (at: string) => {
        if (walk.length >= e.min && nodeOk(g, spec.nodes[i + 1] as NodeFilter, at)) {
          walks.push([...walk]);
          fromStep(i + 1, at);
          walks.pop();
        }
        if (walk.length === e.max) return;
        for (const step of steps[i] ?? []) {
          if (step[1] !== at) continue;
          walk.push(step);
          dfs(step[2]);
          walk.pop();
        }
      };
      dfs(x);
    }
    xs.pop();
  };
  for (const id of g.ids) if (nodeOk(g, spec.nodes[0] as NodeFilter, id)) fromStep(0, id);
  markEdgeSides(g, spec, out);
  return out;
}

/**
 * pygraphistry's combine_steps: a named Node step followed by an Edge step also marks the nodes of its step (those a
 * walk of the chain so far reaches, passing its filter) that are a source (forward), destination (reverse) or either
 * endpoint (undirected) of the next step's matched edges: an undirected hop's far ends and a longer walk's
 * intermediate nodes among them.
 */
function markEdgeSides(g: Graph, spec: ChainSpec, out: Expected): void {
  const byId = new Map(g.edges.map((e) => [e.id, e]));
  let reach = new Set(g.ids.filter((id) => nodeOk(g, spec.nodes[0] as NodeFilter, id)));
  spec.edges.forEach((e, i) => {
    const sides = new Set<string>();
    for (const id of out.marks.get(`e${i + 1}`) ?? []) {
      const edge = byId.get(id);
      if (!edge) continue;
      if (e.dir !== "reverse") sides.add(edge.s);
      if (e.dir !== "forward") sides.add(edge.d);
    }
    const marks = out.marks.get(`n${i}`) ?? new Set<string>();
    for (const x of reach) if (sides.has(x)) marks.add(x);
    if (marks.size > 0) out.marks.set(`n${i}`, marks);
    // the nodes walks of the chain so far reach at the next Node step
    const next = new Set<string>();
    const walk = (at: string, taken: number) => {
      if (taken >= e.min && nodeOk(g, spec.nodes[i + 1] as NodeFilter, at)) next.add(at);
      if (taken === e.max) return;
      for (const [, a, b] of oriented(g, e)) if (a === at) walk(b, taken + 1);
    };
    for (const x of reach) walk(x, 0);
    reach = next;
  });
}

/** One to_fixed_point step by reachability: an edge u->v lies on a walk iff u is reachable from the seeds and a target from v. */
function fixedPoint(g: Graph, spec: ChainSpec): Expected {
  const e = spec.edges[0] as EdgeSpec;
  const steps = oriented(g, e);
  const closure = (start: string[], forward: boolean) => {
    const seen = new Set(start);
    const todo = [...start];
    while (todo.length > 0) {
      const at = todo.pop() as string;
      for (const [, a, b] of steps) {
        const [from, to] = forward ? [a, b] : [b, a];
        if (from === at && !seen.has(to)) {
          seen.add(to);
          todo.push(to);
        }
      }
    }
    return seen;
  };
  const seeds = g.ids.filter((id) => nodeOk(g, spec.nodes[0] as NodeFilter, id));
  const targets = g.ids.filter((id) => nodeOk(g, spec.nodes[1] as NodeFilter, id));
  const fromSeeds = closure(seeds, true);
  const toTargets = closure(targets, false);
  const [starts, ends, taken] = [new Set<string>(), new Set<string>(), new Set<string>()];
  const out: Expected = {
    nodes: new Set(),
    edges: new Set(),
    marks: new Map([
      ["n0", starts],
      ["e1", taken],
      ["n1", ends],
    ]),
  };
  for (const [id, a, b] of steps) {
    if (!fromSeeds.has(a) || !toTargets.has(b)) continue;
    out.edges.add(id);
    taken.add(id);
    out.nodes.add(a);
    out.nodes.add(b);
    if (seeds.includes(a)) starts.add(a); // the walk's first edge
    if (targets.includes(b)) ends.add(b); // the walk's last edge
  }
  return out;
}

const sorted = (xs: Iterable<string>) => [...xs].sort();

function runChain(frame: GfqlGraph, query: unknown) {
  const out = executeBoth(frame, parseGfql(query));
  return { nodes: out.nodes, edges: out.edges };
}

function checkSubgraph(g: Graph, nodes: pl.DataFrame, edges: pl.DataFrame): void {
  const ids = nodes.getColumn("id").toArray() as string[];
  expect(new Set(ids).size, "node ids are distinct").toBe(ids.length);
  expect(
    ids.every((id) => g.ids.includes(id)),
    "node ids come from the input",
  ).toBe(true);
  const byId = new Map(g.edges.map((e) => [e.id, e]));
  for (const row of edges.toRecords()) {
    const input = byId.get(row.eid as string);
    expect(input, `edge ${String(row.eid)} comes from the input`).toBeDefined();
    expect([row.s, row.d], "edge attributes are the input's").toEqual([input?.s, input?.d]);
    expect(ids.includes(row.s as string) && ids.includes(row.d as string), "edge endpoints are result nodes").toBe(true);
  }
}

function checkAgainst(g: Graph, spec: ChainSpec, expected: Expected): void {
  const { nodes, edges } = runChain(frames(g), chainJson(spec));
  checkSubgraph(g, nodes, edges);
  expect(sorted(nodes.getColumn("id").toArray() as string[]), "nodes").toEqual(sorted(expected.nodes));
  expect(sorted(edges.getColumn("eid").toArray() as string[]), "edges").toEqual(sorted(expected.edges));
  // named steps: each marks exactly what it contributes to some full match
  for (const col of [...nodes.columns, ...edges.columns].filter((c) => /^[ne]\d$/.test(c))) {
    const table = col.startsWith("n") ? nodes : edges;
    const key = col.startsWith("n") ? "id" : "eid";
    const marked = table.filter(pl.col(col)).getColumn(key).toArray() as string[];
    expect(sorted(marked), `mark ${col}`).toEqual(sorted(expected.marks.get(col) ?? []));
  }
}

const describeSpec = (g: Graph, spec: ChainSpec) =>
  JSON.stringify({ edges: g.edges.map((e) => `${e.id}:${e.s}>${e.d}:${e.t}`), c: [...g.c], chain: chainJson(spec) });

describe("random chains over random graphs", () => {
  it("bounded hops: a subgraph, exactly the union of the full matches (no dead ends)", { timeout: 120_000 }, () => {
    const r = prng(20261122);
    for (let i = 0; i < 40; i++) {
      const g = randomGraph(r);
      const spec = randomChain(r, false);
      try {
        checkAgainst(g, spec, bruteForce(g, spec));
      } catch (err) {
        throw new Error(`case ${i}: ${describeSpec(g, spec)}\n${(err as Error).message}`);
      }
    }
  });

  it("to_fixed_point: a subgraph, exactly the edges between seed-reachable and target-reaching nodes", { timeout: 120_000 }, () => {
    const r = prng(7);
    for (let i = 0; i < 24; i++) {
      const g = randomGraph(r);
      const spec = randomChain(r, true);
      try {
        checkAgainst(g, spec, fixedPoint(g, spec));
      } catch (err) {
        throw new Error(`case ${i}: ${describeSpec(g, spec)}\n${(err as Error).message}`);
      }
    }
  });
});

// ---- Cypher and its GFQL twin

type Twin = { cypher: string; gfql: unknown[]; vars: Array<{ name: string; kind: "node" | "edge" }> };

/** A random pattern (a)-[r]-(b), sometimes -[s]-(c), with labels, property maps, types, ranges and a WHERE. */
function randomTwin(r: Rng): Twin {
  const hops = r.int(1, 2);
  const names = ["a", "b", "c"];
  const edgeNames = ["r", "s"];
  const filters: Array<Record<string, unknown>> = [];
  const nodeText: string[] = [];
  for (let i = 0; i <= hops; i++) {
    const f: Record<string, unknown> = {};
    let text = names[i] as string;
    if (r.next() < 0.4) {
      const l = r.pick(["A", "B"]);
      text += `:${l}`;
      f.type = { type: "EQ", val: l };
    }
    if (r.next() < 0.3) {
      const v = r.int(0, 2);
      text += ` {c: ${v}}`;
      f.c = { type: "EQ", val: v };
    }
    filters.push(f);
    nodeText.push(`(${text})`);
  }
  let where = "";
  const w = r.int(0, hops);
  if (r.next() < 0.4) {
    const v = r.int(0, 1);
    where = ` WHERE ${names[w]}.c > ${v}`;
    const f = filters[w] as Record<string, unknown>;
    const gt = { type: "GT", val: v };
    f.c = f.c === undefined ? gt : { type: "AllOf", predicates: [f.c, gt] };
  }
  let pattern = nodeText[0] as string;
  const gfql: unknown[] = [{ type: "Node", filter_dict: filters[0], name: "a" }];
  const vars: Twin["vars"] = [{ name: "a", kind: "node" }];
  for (let i = 0; i < hops; i++) {
    const dir = r.pick(["forward", "reverse", "undirected"] as const);
    const name = edgeNames[i] as string;
    let inner = name;
    const edge: Record<string, unknown> = { type: "Edge", direction: dir, edge_match: {}, name };
    if (r.next() < 0.4) {
      const t = r.pick(["X", "Y"]);
      inner += `:${t}`;
      edge.edge_match = { type: { type: "EQ", val: t } };
    }
    const varLength = r.next() < 0.3;
    if (varLength) {
      const max = r.int(1, 3);
      const min = r.int(1, max);
      inner += `*${min}..${max}`;
      Object.assign(edge, { min_hops: min, max_hops: max });
    } else {
      edge.hops = 1;
      vars.push({ name, kind: "edge" });
    }
    const [left, right] = dir === "forward" ? ["-", "->"] : dir === "reverse" ? ["<-", "-"] : ["-", "-"];
    pattern += `${left}[${inner}]${right}${nodeText[i + 1]}`;
    gfql.push(edge, { type: "Node", filter_dict: filters[i + 1], name: names[i + 1] });
    vars.push({ name: names[i + 1] as string, kind: "node" });
  }
  return { cypher: `MATCH ${pattern}${where}`, gfql, vars };
}

function graphFromTwinRng(r: Rng): GfqlGraph {
  const g = randomGraph(r);
  const f = frames(g);
  return { ...f, edges: f.edges.rename({ t: "type" }) };
}

describe("Cypher queries and their GFQL twins", () => {
  it("give the same nodes and edges for each returned variable", { timeout: 120_000 }, () => {
    const r = prng(424242);
    for (let i = 0; i < 10; i++) {
      const g = graphFromTwinRng(r);
      const twin = randomTwin(r);
      // read as the Cypher compiler reads its lowering: each variable's step marks the nodes its paths bind there
      const gfql = executeBoth(g, bindPerPath(parseGfql(twin.gfql)));
      for (const v of twin.vars) {
        const key = v.kind === "node" ? "id" : "eid";
        const text = `${twin.cypher} RETURN DISTINCT ${v.name}.${key} AS k`;
        const context = `case ${i}: ${text}`;
        let rows: string[];
        try {
          rows = executeBoth(g, parseCypher(text)).nodes.getColumn("k").toArray() as string[];
        } catch (err) {
          throw new Error(`${context}\n${(err as Error).message}`);
        }
        const table = v.kind === "node" ? gfql.nodes : gfql.edges;
        const expected = table.filter(pl.col(v.name)).getColumn(key).toArray() as string[];
        expect(sorted(rows), context).toEqual(sorted(expected));
      }
    }
  });
});

// ---- malformed queries: schema and parser refuse them with a code and a path into the query

/** The value a refusal's path names (`chain[0].filter_dict.age`), or undefined; a bare list's root is `chain`. */
function atPath(query: unknown, path: string): { found: boolean } {
  const parts = path === "" ? [] : path.split(/\.|(?=\[)/);
  let at: unknown = query;
  for (const [i, part] of parts.entries()) {
    const index = /^\[(\d+)\]$/.exec(part);
    if (i === 0 && part === "chain" && Array.isArray(query)) continue;
    if (i === 0 && part === "chain" && !Array.isArray(query) && (query as { type?: string }).type !== "Chain") {
      at = [query]; // a lone Node/Edge/Call is chain[0]
      continue;
    }
    if (index !== null && Array.isArray(at)) at = at[Number(index[1])];
    else if (index === null && typeof at === "object" && at !== null && part in at) at = (at as Record<string, unknown>)[part];
    else return { found: false };
  }
  return { found: true };
}

const VALID: unknown[] = [
  [
    { type: "Node", filter_dict: { c: 1 }, name: "x" },
    { type: "Edge", direction: "forward", hops: 2, edge_match: { t: "X" } },
    { type: "Node" },
  ],
  {
    type: "Chain",
    chain: [
      { type: "Node", name: "a" },
      { type: "Edge", direction: "undirected", name: "r" },
      { type: "Node", name: "b" },
    ],
    where: [{ lt: { left: "a.c", right: "b.c" } }],
  },
  {
    type: "Let",
    bindings: {
      a: [{ type: "Node", filter_dict: { c: { type: "IsIn", options: [1, 2] } } }],
      b: { type: "Ref", ref: "a", chain: [{ type: "Call", function: "get_degrees", params: {} }] },
    },
    output: "b",
  },
  [
    {
      type: "Node",
      filter_dict: {
        t: { type: "Between", lower: 1, upper: 3 },
        u: { type: "AllOf", predicates: [{ type: "Contains", pat: "a" }, { type: "NotNull" }] },
      },
    },
  ],
  { type: "Edge", direction: "reverse", min_hops: 1, max_hops: 3, output_max_hops: 2, label_edge_hops: "h" },
];

const JUNK: unknown[] = [null, -1, 1.5, "x", "", true, [], {}, [1], { type: "Nope" }];

/** Every (container, key) location in a JSON value. */
function locations(v: unknown, out: Array<[Record<string, unknown> | unknown[], string | number]> = []) {
  if (Array.isArray(v))
    v.forEach((x, i) => {
      out.push([v, i]);
      locations(x, out);
    });
  else if (typeof v === "object" && v !== null)
    for (const [k, x] of Object.entries(v)) {
      out.push([v as Record<string, unknown>, k]);
      locations(x, out);
    }
  return out;
}

describe("malformed queries", () => {
  it("are refused with [code] message and a path that names a place in the query", { timeout: 120_000 }, () => {
    const r = prng(31337);
    for (let i = 0; i < 300; i++) {
      const query = structuredClone(r.pick(VALID));
      const spots = locations(query);
      const [container, key] = r.pick(spots);
      const mutation = r.int(0, 2);
      if (mutation === 0) (container as Record<string | number, unknown>)[key] = r.pick(JUNK);
      else if (mutation === 1 && !Array.isArray(container)) delete container[key as string];
      else if (!Array.isArray(container)) container.zz_unknown = 1;
      let error: unknown;
      try {
        parseGfql(query);
        continue; // some mutations leave a valid query
      } catch (err) {
        error = err;
      }
      const e = error as { code?: string; message?: string; details?: { path?: unknown } };
      const context = `case ${i}: ${JSON.stringify(query)} -> ${e.message}`;
      expect(e.code, context).toBe("INVALID_INPUT");
      expect(e.message, context).toMatch(/^\[(E\d{3}|[a-z-]+)\] \S/);
      expect(typeof e.details?.path, context).toBe("string");
      const path = e.details?.path as string;
      // the path names the faulty place, or (for a missing key) the object that lacks it
      expect(atPath(query, path).found || atPath(query, path.replace(/(^|\.)[^.[]+$|\[\d+\]$/, "")).found, context).toBe(true);
    }
  });
});
