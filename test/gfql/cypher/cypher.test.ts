// Cypher subset: each query gives the same result tables as its hand-written GFQL twin (wire JSON via parseGfql).
// Sample graph (../helpers.ts): nodes a..f (type person/company/bot, age, nick); edges e0 a->b x, e1 b->c y,
// e2 c->d x, e3 a->c y, e4 e->a x (column `rel`). typedGraph() copies it with the edge relation in a `type` column.

import pl from "nodejs-polars";
import { describe, expect, it } from "vitest";
import { parseCypher } from "../../../src/gfql/cypher/index.ts";
import type { GfqlGraph } from "../../../src/gfql/execute.ts";
import { parseGfql } from "../../../src/gfql/parse.ts";
import { executeBoth } from "../engines.ts";
import { sampleGraph } from "../helpers.ts";

function typedGraph(): GfqlGraph {
  const g = sampleGraph();
  return { ...g, edges: g.edges.withColumns(pl.col("rel").str.toUpperCase().alias("type")) };
}

const call = (fn: string, params: Record<string, unknown> = {}) => ({ type: "Call", function: fn, params });
const node = (filter_dict: Record<string, unknown> = {}, name?: string) => ({ type: "Node", filter_dict, ...(name ? { name } : {}) });
const edge = (extra: Record<string, unknown> = {}) => ({ type: "Edge", direction: "forward", edge_match: {}, hops: 1, ...extra });

function tables(g: GfqlGraph, q: ReturnType<typeof parseGfql>) {
  const out = executeBoth(g, q);
  return { nodes: out.nodes.toRecords(), edges: out.edges.toRecords(), rows: out.rows };
}

/** Asserts the Cypher query and its GFQL twin parse alike and give the same tables; returns the row records. */
function twin(cypher: string, wire: unknown, params: Record<string, unknown> = {}, g: GfqlGraph = typedGraph()) {
  const fromCypher = parseCypher(cypher, params);
  const fromWire = parseGfql(wire);
  expect(fromCypher).toEqual(fromWire);
  const a = tables(g, fromCypher);
  expect(a).toEqual(tables(g, fromWire));
  return a.nodes;
}

const col = (rows: Array<Record<string, unknown>>, c: string) => rows.map((r) => r[c]);

describe("MATCH patterns", () => {
  it("single node with label and property map, RETURN the variable", () => {
    const rows = twin("MATCH (n:person {age: 30}) RETURN n", [
      node({ type: { type: "EQ", val: "person" }, age: { type: "EQ", val: 30 } }, "n"),
      call("rows", { table: "nodes", source: "n" }),
    ]);
    expect(col(rows, "id")).toEqual(["a"]);
  });

  it("one hop forward, reverse and undirected with a relationship type", () => {
    const ops = (direction: string) => [
      node({ id: { type: "EQ", val: "a" } }, "a"),
      edge({ direction, edge_match: { type: { type: "EQ", val: "X" } }, name: "r" }),
      node({}, "b"),
      call("rows", { table: "nodes", source: "b" }),
      call("order_by", { keys: [["id", "asc"]] }),
      call("select", { items: [["b.id", "id"]] }),
      call("distinct"),
    ];
    // DISTINCT: without it a property over a path pattern takes one row per path (the per-path plan, rows.test.ts)
    const q = (pattern: string) => `MATCH ${pattern} RETURN DISTINCT b.id ORDER BY b.id`;
    expect(col(twin(q("(a {id: 'a'})-[r:X]->(b)"), ops("forward")), "b.id")).toEqual(["b"]);
    expect(col(twin(q("(a {id: 'a'})<-[r:X]-(b)"), ops("reverse")), "b.id")).toEqual(["e"]);
    expect(col(twin(q("(a {id: 'a'})-[r:X]-(b)"), ops("undirected")), "b.id")).toEqual(["b", "e"]);
  });

  it("type alternatives lower to membership; RETURN an edge variable reads the edge table", () => {
    const rows = twin("MATCH (a)-[r:X|Y]->(b:company) RETURN DISTINCT r.eid AS eid ORDER BY eid", [
      node({}, "a"),
      edge({ edge_match: { type: { type: "IsIn", options: ["X", "Y"] } }, name: "r" }),
      node({ type: { type: "EQ", val: "company" } }, "b"),
      call("rows", { table: "edges", source: "r" }),
      call("order_by", { keys: [["eid", "asc"]] }),
      call("select", { items: [["eid", "eid"]] }),
      call("distinct"),
    ]);
    expect(col(rows, "eid")).toEqual(["e1", "e3"]);
  });

  it("variable length: [*2], [*1..2], [*2..], [*]", () => {
    const q = (range: string) => `MATCH (s {id: 'e'})-[${range}]->(t) RETURN DISTINCT t.id AS id ORDER BY id`;
    const w = (hops: Record<string, unknown>) => [
      node({ id: { type: "EQ", val: "e" } }, "s"),
      { type: "Edge", direction: "forward", edge_match: {}, ...hops },
      node({}, "t"),
      call("rows", { table: "nodes", source: "t" }),
      call("order_by", { keys: [["id", "asc"]] }),
      call("select", { items: [["id", "id"]] }),
      call("distinct"),
    ];
    expect(col(twin(q("*2"), w({ min_hops: 2, max_hops: 2 })), "id")).toEqual(["b", "c"]);
    expect(col(twin(q("*1..2"), w({ min_hops: 1, max_hops: 2 })), "id")).toEqual(["a", "b", "c"]);
    expect(col(twin(q("*3.."), w({ min_hops: 3, to_fixed_point: true })), "id")).toEqual(["c", "d"]);
    expect(col(twin(q("*"), w({ min_hops: 1, to_fixed_point: true })), "id")).toEqual(["a", "b", "c", "d"]);
  });

  it("$params in property maps and WHERE", () => {
    const rows = twin(
      "MATCH (n {type: $t}) WHERE n.age >= $min RETURN n.id AS id ORDER BY id",
      [
        node({ type: { type: "EQ", val: "person" }, age: { type: "GE", val: 30 } }, "n"),
        call("rows", { table: "nodes", source: "n" }),
        call("order_by", { keys: [["id", "asc"]] }),
        call("select", { items: [["id", "id"]] }),
      ],
      { t: "person", min: 30 },
    );
    expect(col(rows, "id")).toEqual(["a", "d", "f"]);
  });
});

describe("WHERE", () => {
  const only = (cypherWhere: string, filter: Record<string, unknown>) =>
    col(
      twin(`MATCH (n) WHERE ${cypherWhere} RETURN n.id AS id ORDER BY id`, [
        node(filter, "n"),
        call("rows", { table: "nodes", source: "n" }),
        call("order_by", { keys: [["id", "asc"]] }),
        call("select", { items: [["id", "id"]] }),
      ]),
      "id",
    );

  it("comparisons, flipped literals and AND on one column", () => {
    expect(only("n.age <> 30", { age: { type: "NE", val: 30 } })).toEqual(["b", "d", "e", "f"]);
    expect(only("n.age < 20", { age: { type: "LT", val: 20 } })).toEqual(["e"]);
    expect(only("20 >= n.age", { age: { type: "LE", val: 20 } })).toEqual(["b", "e"]);
    expect(
      only("n.age > 10 AND n.age <= 40", {
        age: {
          type: "AllOf",
          predicates: [
            { type: "GT", val: 10 },
            { type: "LE", val: 40 },
          ],
        },
      }),
    ).toEqual(["a", "b", "f"]);
    expect(only("n.type = 'person' AND n.age > 35", { type: { type: "EQ", val: "person" }, age: { type: "GT", val: 35 } })).toEqual([
      "d",
      "f",
    ]);
  });

  it("null tests, string predicates, regex, IN and NOT on one variable", () => {
    expect(only("n.age IS NULL", { age: { type: "IsNull" } })).toEqual(["c"]);
    expect(only("n.nick IS NOT NULL", { nick: { type: "NotNull" } })).toEqual(["a", "b", "d", "e", "f"]);
    expect(
      only("NOT n.age IS NULL AND n.age < 25", { age: { type: "AllOf", predicates: [{ type: "NotNull" }, { type: "LT", val: 25 }] } }),
    ).toEqual(["b", "e"]);
    expect(only("n.nick STARTS WITH 'D'", { nick: { type: "Startswith", pat: "D" } })).toEqual(["d"]);
    expect(only("n.nick ENDS WITH 'y'", { nick: { type: "Endswith", pat: "y" } })).toEqual(["f"]);
    expect(only("n.nick CONTAINS '-'", { nick: { type: "Contains", pat: "-", regex: false } })).toEqual(["e"]);
    expect(only("n.nick =~ '[A-Z].'", { nick: { type: "Fullmatch", pat: "[A-Z]." } })).toEqual(["a"]);
    expect(only("n.id IN ['a', 'f', 'zz']", { id: { type: "IsIn", options: ["a", "f", "zz"] } })).toEqual(["a", "f"]);
    expect(only("NOT n.age >= 30", { age: { type: "LT", val: 30 } })).toEqual(["b", "e"]);
    expect(only("n:company", { type: { type: "EQ", val: "company" } })).toEqual(["c"]);
  });

  it("conditions on several variables go to their own steps", () => {
    const rows = twin("MATCH (a)-[r]->(b) WHERE a.age > 25 AND r.w < 4 AND b.type = 'person' RETURN DISTINCT b.type AS t", [
      node({ age: { type: "GT", val: 25 } }, "a"),
      edge({ edge_match: { w: { type: "LT", val: 4 } }, name: "r" }),
      node({ type: { type: "EQ", val: "person" } }, "b"),
      call("rows", { table: "nodes", source: "b" }),
      call("select", { items: [["t", "type"]] }),
      call("distinct"),
    ]);
    expect(rows).toEqual([{ t: "person" }]);
  });
});

describe("RETURN", () => {
  it("count(*) and count(n) on a single node pattern, with and without grouping", () => {
    expect(
      twin("MATCH (n:person) RETURN count(*)", [
        node({ type: { type: "EQ", val: "person" } }, "n"),
        call("rows", { table: "nodes" }),
        call("count_table", { alias: "count(*)" }),
      ]),
    ).toEqual([{ "count(*)": 4 }]);
    const rows = twin("MATCH (n) RETURN n.type AS t, count(n) AS c ORDER BY c DESC, t", [
      node({}, "n"),
      call("rows", { table: "nodes", source: "n" }),
      call("group_by", { keys: ["type"], aggregations: [["__c1", "count"]] }),
      call("order_by", {
        keys: [
          ["__c1", "desc"],
          ["type", "asc"],
        ],
      }),
      call("select", {
        items: [
          ["t", "type"],
          ["c", "__c1"],
        ],
      }),
    ]);
    expect(rows).toEqual([
      { t: "person", c: 4 },
      { t: "bot", c: 1 },
      { t: "company", c: 1 },
    ]);
  });

  it("count(DISTINCT v) over a path pattern; DISTINCT, SKIP and LIMIT", () => {
    expect(
      twin("MATCH (a)-->(b) RETURN count(DISTINCT b) AS n", [
        node({}, "a"),
        edge({ direction: "forward" }),
        node({}, "b"),
        call("rows", { table: "nodes", source: "b" }),
        call("count_table", { alias: "n" }),
      ]),
    ).toEqual([{ n: 4 }]);
    const rows = twin("MATCH (n) RETURN n.id AS id, n.age AS age ORDER BY n.age DESC SKIP 1 LIMIT 2", [
      node({}, "n"),
      call("rows", { table: "nodes", source: "n" }),
      call("order_by", { keys: [["age", "desc"]] }),
      call("select", {
        items: [
          ["id", "id"],
          ["age", "age"],
        ],
      }),
      call("skip", { value: 1 }),
      call("limit", { value: 2 }),
    ]);
    expect(rows).toEqual([
      { id: "f", age: 40 },
      { id: "a", age: 30 },
    ]);
  });
});

describe("boolean properties and zero-length walks", () => {
  it("a bare boolean property is `= true`; NOT of it is `<> true` (nulls excluded both ways)", () => {
    const g = typedGraph();
    const withOld: GfqlGraph = { ...g, nodes: g.nodes.withColumns(pl.col("age").gt(25).alias("old")) };
    const ids = (where: string, filter: Record<string, unknown>) =>
      col(
        twin(
          `MATCH (n) WHERE ${where} RETURN n.id AS id`,
          [node(filter, "n"), call("rows", { table: "nodes", source: "n" }), call("select", { items: [["id", "id"]] })],
          {},
          withOld,
        ),
        "id",
      );
    expect(ids("n.old", { old: { type: "EQ", val: true } })).toEqual(["a", "d", "f"]);
    expect(ids("NOT n.old", { old: { type: "NE", val: true } })).toEqual(["b", "e"]);
  });

  it("[*0..1] keeps the start node", () => {
    const rows = twin("MATCH (n {id: 'e'})-[*0..1]->(m) RETURN DISTINCT m.id AS id ORDER BY id", [
      node({ id: { type: "EQ", val: "e" } }, "n"),
      { type: "Edge", direction: "forward", edge_match: {}, min_hops: 0, max_hops: 1 },
      node({}, "m"),
      call("rows", { table: "nodes", source: "m" }),
      call("order_by", { keys: [["id", "asc"]] }),
      call("select", { items: [["id", "id"]] }),
      call("distinct"),
    ]);
    expect(col(rows, "id")).toEqual(["a", "e"]);
  });
});
