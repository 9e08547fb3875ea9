// Cypher queries outside the Chain shape run as per-path rows (src/gfql/cypher/rows.ts). Expected rows are worked
// out by hand from Cypher semantics on the sample graph (../helpers.ts), with the relation upper-cased in `type`:
//   nodes  a person 30 Al | b person 20 bob | c company - - | d person 50 Dee | e bot 10 e-1 | f person 40 Fay
//   edges  e0 a->b X w1 | e1 b->c Y w2 | e2 c->d X w3 | e3 a->c Y w4 | e4 e->a X w5

import pl from "nodejs-polars";
import { describe, expect, it } from "vitest";
import { parseCypher } from "../../../src/gfql/cypher/index.ts";
import type { GfqlGraph } from "../../../src/gfql/execute.ts";
import { executeBoth } from "../engines.ts";
import { sampleGraph } from "../helpers.ts";

function typedGraph(): GfqlGraph {
  const g = sampleGraph();
  return { ...g, edges: g.edges.withColumns(pl.col("rel").str.toUpperCase().alias("type")) };
}

function rows(cypher: string, params: Record<string, unknown> = {}, g: GfqlGraph = typedGraph()) {
  const q = parseCypher(cypher, params);
  const out = executeBoth(g, q);
  expect(out.rows).toBe(true);
  expect(out.edges.height).toBe(0);
  return out.nodes.toRecords() as Array<Record<string, unknown>>;
}

/** Rows as tuples of the given columns. */
const tuples = (rs: Array<Record<string, unknown>>, ...cols: string[]) => rs.map((r) => cols.map((c) => r[c]));
const col = (rs: Array<Record<string, unknown>>, c: string) => rs.map((r) => r[c]);

describe("per-path rows for several variables", () => {
  it("MATCH (a)-[r]->(b) RETURN a.id, b.id, r.w gives one row per relationship", () => {
    const rs = rows("MATCH (a)-[r]->(b) RETURN a.id, b.id, r.w ORDER BY r.w");
    expect(Object.keys(rs[0] ?? {})).toEqual(["a.id", "b.id", "r.w"]);
    expect(tuples(rs, "a.id", "b.id", "r.w")).toEqual([
      ["a", "b", 1],
      ["b", "c", 2],
      ["c", "d", 3],
      ["a", "c", 4],
      ["e", "a", 5],
    ]);
  });

  it("aliases, labels and relationship types", () => {
    expect(rows("MATCH (a:person)-[:X]->(b) RETURN a.nick AS who, b.id AS to")).toEqual([{ who: "Al", to: "b" }]);
  });

  it("undirected and reverse relationships", () => {
    expect(tuples(rows("MATCH (a {id: 'c'})-[r]-(b) RETURN b.id AS id, r.eid AS eid ORDER BY eid"), "id", "eid")).toEqual([
      ["b", "e1"],
      ["d", "e2"],
      ["a", "e3"],
    ]);
    expect(tuples(rows("MATCH (a)<-[:Y]-(b) RETURN a.id AS t, b.id AS s ORDER BY t, s"), "t", "s")).toEqual([
      ["c", "a"],
      ["c", "b"],
    ]);
  });

  it("a two-relationship path binds every variable per path", () => {
    expect(tuples(rows("MATCH (a)-[:X]->(b)-[:Y]->(c) RETURN a.id, b.id, c.id ORDER BY a.id"), "a.id", "b.id", "c.id")).toEqual([
      ["a", "b", "c"],
      ["e", "a", "c"],
    ]);
  });

  it("variable length: one row per trail, so a node reached twice appears twice", () => {
    expect(tuples(rows("MATCH (s {id: 'e'})-[*1..3]->(t) RETURN s.id AS s, t.id AS t ORDER BY t"), "s", "t")).toEqual([
      ["e", "a"],
      ["e", "b"],
      ["e", "c"],
      ["e", "c"],
      ["e", "d"],
    ]);
    expect(rows("MATCH (s {id: 'e'})-[*]->(t) RETURN t.id AS t, count(*) AS paths ORDER BY t")).toEqual([
      { t: "a", paths: 1 },
      { t: "b", paths: 1 },
      { t: "c", paths: 2 },
      { t: "d", paths: 2 },
    ]);
  });

  it("variable length with types, reversed, exact length", () => {
    expect(col(rows("MATCH (t {id: 'd'})<-[:X|Y*2]-(s) RETURN t.id AS t, s.id AS s ORDER BY s"), "s")).toEqual(["a", "b"]);
  });

  it("RETURN of whole variables flattens them into <name>.<column> columns", () => {
    const rs = rows("MATCH (a)-[r:Y]->(b {id: 'c'}) RETURN a, r ORDER BY a.id");
    expect(rs).toHaveLength(2);
    expect(rs[0]).toEqual({
      "a.id": "a",
      "a.type": "person",
      "a.age": 30,
      "a.nick": "Al",
      "r.eid": "e3",
      "r.s": "a",
      "r.d": "c",
      "r.rel": "y",
      "r.w": 4,
      "r.type": "Y",
    });
    expect(rs[1]?.["r.eid"]).toBe("e1");
  });
});

describe("several patterns and MATCH clauses", () => {
  it("a pattern bound at its far end is walked from there (MATCH and OPTIONAL MATCH)", () => {
    expect(tuples(rows("MATCH (b {id: 'c'}) MATCH (a)-[r]->(b) RETURN a.id AS a, r.eid AS r ORDER BY r"), "a", "r")).toEqual([
      ["b", "e1"],
      ["a", "e3"],
    ]);
    expect(tuples(rows("MATCH (n:person) OPTIONAL MATCH (m)-[:X]->(n) RETURN n.id AS n, m.id AS m ORDER BY n"), "n", "m")).toEqual([
      ["a", "e"],
      ["b", "a"],
      ["d", "c"],
      ["f", null],
    ]);
  });

  it("comma-separated patterns joined on a shared variable", () => {
    expect(tuples(rows("MATCH (a)-[:X]->(b), (b)-[:Y]->(c) RETURN a.id AS a, c.id AS c ORDER BY a"), "a", "c")).toEqual([
      ["a", "c"],
      ["e", "c"],
    ]);
  });

  it("a second MATCH continues from the first one's bindings", () => {
    expect(tuples(rows("MATCH (a {id: 'a'})-->(b) MATCH (b)-->(c) RETURN b.id AS b, c.id AS c ORDER BY b, c"), "b", "c")).toEqual([
      ["b", "c"],
      ["c", "d"],
    ]);
  });

  it("a variable used twice closes a cycle (triangle)", () => {
    expect(tuples(rows("MATCH (x)-->(y)-->(z), (x)-->(z) RETURN x.id, y.id, z.id"), "x.id", "y.id", "z.id")).toEqual([["a", "b", "c"]]);
  });

  it("relationships are distinct within a MATCH: an undirected walk does not go back on its edge", () => {
    const rs = rows("MATCH (a {id: 'b'})-[r1]-(m)-[r2]-(z) RETURN m.id AS m, z.id AS z ORDER BY z");
    expect(tuples(rs, "m", "z")).toEqual([
      ["c", "a"],
      ["a", "c"],
      ["c", "d"],
      ["a", "e"],
    ]);
  });

  it("whole-variable equality: zero-length walks end where they start", () => {
    expect(col(rows("MATCH (a)-[*0..1]->(b) WHERE a = b RETURN a.id AS id ORDER BY id"), "id")).toEqual(["a", "b", "c", "d", "e", "f"]);
    expect(tuples(rows("MATCH (a)-[*0..1]->(b) WHERE a <> b RETURN a.id AS a, b.id AS b ORDER BY b, a"), "a", "b")).toEqual([
      ["e", "a"],
      ["a", "b"],
      ["a", "c"],
      ["b", "c"],
      ["c", "d"],
    ]);
  });
});

describe("OPTIONAL MATCH", () => {
  it("keeps rows without a match, with nulls", () => {
    expect(tuples(rows("MATCH (n:person) OPTIONAL MATCH (n)-[r:X]->(m) RETURN n.id AS n, m.id AS m ORDER BY n"), "n", "m")).toEqual([
      ["a", "b"],
      ["b", null],
      ["d", null],
      ["f", null],
    ]);
  });

  it("its WHERE filters the optional part only", () => {
    const rs = rows("MATCH (n:person) OPTIONAL MATCH (n)-->(m) WHERE m.type = 'company' RETURN n.id AS n, m.id AS m ORDER BY n");
    expect(tuples(rs, "n", "m")).toEqual([
      ["a", "c"],
      ["b", "c"],
      ["d", null],
      ["f", null],
    ]);
  });

  it("count(m) counts only the matched ones", () => {
    expect(rows("MATCH (n:person) OPTIONAL MATCH (n)-->(m) RETURN n.id AS n, count(m) AS out ORDER BY n")).toEqual([
      { n: "a", out: 2 },
      { n: "b", out: 1 },
      { n: "d", out: 0 },
      { n: "f", out: 0 },
    ]);
  });

  it("on its own, no match gives one row of nulls", () => {
    expect(rows("OPTIONAL MATCH (n {id: 'zz'}) RETURN n.id AS id")).toEqual([{ id: null }]);
  });
});

describe("WHERE as a boolean expression", () => {
  const ids = (where: string, params: Record<string, unknown> = {}) =>
    col(rows(`MATCH (n) WHERE ${where} RETURN n.id AS id ORDER BY id`, params), "id");

  it("OR across variables", () => {
    expect(col(rows("MATCH (a)-[r]->(b) WHERE a.id = 'e' OR b.type = 'company' RETURN r.eid AS eid ORDER BY eid"), "eid")).toEqual([
      "e1",
      "e3",
      "e4",
    ]);
  });

  it("NOT over AND across variables", () => {
    const rs = rows("MATCH (a)-[r]->(b) WHERE NOT (a.type = 'person' AND b.type = 'person') RETURN r.eid AS eid ORDER BY eid");
    expect(col(rs, "eid")).toEqual(["e1", "e2", "e3", "e4"]);
  });

  it("OR and XOR on one variable, with nulls never passing", () => {
    expect(ids("n.age < 15 OR n.nick = 'Dee'")).toEqual(["d", "e"]);
    expect(ids("n.age > 25 XOR n.type = 'person'")).toEqual(["b"]);
    expect(ids("NOT (n.age > 25 OR n.type = 'company')")).toEqual(["b", "e"]);
  });

  it("comparing properties of two variables", () => {
    expect(tuples(rows("MATCH (a)-->(b) WHERE a.age > b.age RETURN a.id AS a, b.id AS b"), "a", "b")).toEqual([["a", "b"]]);
    expect(tuples(rows("MATCH (a)-->(b), (c)-->(b) WHERE a.id < c.id RETURN a.id AS a, b.id AS b, c.id AS c"), "a", "b", "c")).toEqual([
      ["a", "c", "b"],
    ]);
  });

  it("IS NULL, STARTS WITH, ENDS WITH, CONTAINS, =~ and IN under OR", () => {
    const rs = rows("MATCH (a)-->(b) WHERE b.age IS NULL OR a.nick STARTS WITH 'e' RETURN a.id AS a, b.id AS b ORDER BY a, b");
    expect(tuples(rs, "a", "b")).toEqual([
      ["a", "c"],
      ["b", "c"],
      ["e", "a"],
    ]);
    expect(ids("n.nick ENDS WITH 'y' OR n.nick CONTAINS '-' OR n.nick =~ 'b.b' OR n.id IN ['c']")).toEqual(["b", "c", "e", "f"]);
    expect(ids("n.nick IS NOT NULL AND NOT n.nick =~ '[A-Z].*'")).toEqual(["b", "e"]);
  });

  it("label tests, $parameters, a value of another type and a missing property", () => {
    expect(ids("n:company OR n:bot")).toEqual(["c", "e"]);
    expect(ids("n.age >= $min OR n.id IN $ids", { min: 45, ids: ["b"] })).toEqual(["b", "d"]);
    expect(ids("n.age = 'thirty' OR n.id = 'c'")).toEqual(["c"]);
    const g = typedGraph();
    const dated: GfqlGraph = { ...g, nodes: g.nodes.withColumns(pl.lit(new Date(Date.UTC(2020, 0, 1))).alias("born")) };
    expect(col(rows("MATCH (n) WHERE n.born = 'x' OR n.born > 3 OR n.id = 'a' RETURN n.id AS id", {}, dated), "id")).toEqual(["a"]);
    expect(rows("MATCH (a)-->(b) WHERE a.nosuch IS NULL AND b.id = 'd' RETURN a.id AS a, b.nosuch AS x")).toEqual([{ a: "c", x: null }]);
  });
});

describe("aggregation, DISTINCT, ORDER BY, SKIP, LIMIT", () => {
  it("count(*) per path, implicit grouping by the other items", () => {
    expect(rows("MATCH (a)-[r]->(b) RETURN count(*) AS n")).toEqual([{ n: 5 }]);
    expect(rows("MATCH (a)-->(b) RETURN a.id AS src, count(*) AS n ORDER BY src")).toEqual([
      { src: "a", n: 2 },
      { src: "b", n: 1 },
      { src: "c", n: 1 },
      { src: "e", n: 1 },
    ]);
  });

  it("count(x) skips nulls, count(DISTINCT x) counts each once", () => {
    expect(rows("MATCH (a)-->(b) RETURN count(b.age) AS withAge, count(DISTINCT b) AS targets, count(*) AS paths")).toEqual([
      { withAge: 3, targets: 4, paths: 5 },
    ]);
  });

  it("collect and collect(DISTINCT), grouped and not; over no rows", () => {
    const rs = rows("MATCH (a)-->(b) RETURN a.id AS a, collect(b.id) AS outs ORDER BY a");
    expect(rs.map((r) => [r.a, [...(r.outs as string[])].sort()])).toEqual([
      ["a", ["b", "c"]],
      ["b", ["c"]],
      ["c", ["d"]],
      ["e", ["a"]],
    ]);
    const types = rows("MATCH (a)-->(b) RETURN collect(DISTINCT b.type) AS types")[0]?.types as string[];
    expect([...types].sort()).toEqual(["company", "person"]);
    expect(rows("MATCH (n {id: 'zz'})-->(m) RETURN collect(m.id) AS ids, count(*) AS n")).toEqual([{ ids: [], n: 0 }]);
  });

  it("sum and max per group, ordered by an aggregate alias", () => {
    expect(rows("MATCH (a)-[r]->(b) RETURN a.type AS t, sum(r.w) AS total, max(r.w) AS top ORDER BY total DESC")).toEqual([
      { t: "person", total: 7, top: 4 },
      { t: "bot", total: 5, top: 5 },
      { t: "company", total: 3, top: 3 },
    ]);
  });

  it("grouping by a whole variable", () => {
    expect(rows("MATCH (a)-[:Y]->(b) RETURN b, count(*) AS n")).toEqual([
      { "b.id": "c", "b.type": "company", "b.age": null, "b.nick": null, n: 2 },
    ]);
  });

  it("ORDER BY the expression of an aliased item, after DISTINCT", () => {
    const q = "MATCH (a)-->(b) WHERE a.id = 'a' OR b.id = 'a' RETURN DISTINCT a.type AS t ORDER BY a.type DESC";
    expect(col(rows(q), "t")).toEqual(["person", "bot"]);
  });

  it("DISTINCT over several columns", () => {
    expect(tuples(rows("MATCH (a)-->(b) RETURN DISTINCT a.type AS at, b.type AS bt ORDER BY at, bt"), "at", "bt")).toEqual([
      ["bot", "person"],
      ["company", "person"],
      ["person", "company"],
      ["person", "person"],
    ]);
  });

  it("ORDER BY an expression that is not returned; SKIP and LIMIT from $parameters", () => {
    expect(col(rows("MATCH (a)-[r]->(b) RETURN a.id AS a ORDER BY r.w DESC"), "a")).toEqual(["e", "a", "c", "b", "a"]);
    const rs = rows("MATCH (a)-[r]->(b) RETURN a.id AS a, b.id AS b ORDER BY r.w SKIP $s LIMIT $l", { s: 1, l: 2 });
    expect(tuples(rs, "a", "b")).toEqual([
      ["b", "c"],
      ["c", "d"],
    ]);
  });
});

describe("engine integration", () => {
  it("RETURN of one whole variable keeps the node table's column names, whichever way WHERE lowers", () => {
    expect(rows("MATCH (n) WHERE n.age > 45 OR n.nick = 'bob' RETURN n ORDER BY n.id")).toEqual([
      { id: "b", type: "person", age: 20, nick: "bob" },
      { id: "d", type: "person", age: 50, nick: "Dee" },
    ]);
  });

  it("these queries lower to one cypher_rows Call; Chain-shaped ones still lower to a Chain", () => {
    const q = parseCypher("MATCH (a)-->(b) RETURN a.id, b.id");
    expect(q.type).toBe("Chain");
    expect(q.type === "Chain" && q.chain.map((op) => (op.type === "Call" ? op.call.fn : op.type))).toEqual(["cypher_rows"]);
    const simple = parseCypher("MATCH (a)-->(b) RETURN DISTINCT b.id");
    expect(simple.type === "Chain" && simple.chain.map((op) => (op.type === "Call" ? op.call.fn : op.type))).toEqual([
      "Node",
      "Edge",
      "Node",
      "rows",
      "select",
      "distinct",
    ]);
    // without DISTINCT, a property over a path pattern is one row per path: the per-path plan
    const perPath = parseCypher("MATCH (a)-->(b) RETURN b.id");
    expect(perPath.type === "Chain" && perPath.chain.map((op) => (op.type === "Call" ? op.call.fn : op.type))).toEqual(["cypher_rows"]);
  });

  it("edge endpoints missing from the node table still match, with null attributes", () => {
    const g = typedGraph();
    const partial: GfqlGraph = { ...g, nodes: g.nodes.filter(pl.col("id").neq(pl.lit("d"))) };
    expect(
      rows("MATCH (a)-[:X]->(b) WHERE a.id = 'c' OR b.id = 'b' RETURN a.id AS a, b.id AS b, b.age AS age ORDER BY a", {}, partial),
    ).toEqual([
      { a: "a", b: "b", age: 20 },
      { a: "c", b: "d", age: null },
    ]);
  });
});
