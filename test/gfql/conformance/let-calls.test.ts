// Conformance: Let with Refs, nested Lets and Calls; graph Calls; the row pipeline; same-path where.
// Let: bindings run in Ref-dependency order (ties by declaration order); Node/Edge/Chain bindings run on the root
// graph, a Ref runs its chain on the referenced result; the result is `output`, else the last binding run.

import { describe, it } from "vitest";
import { type Case, CYCLE, call, checkCase, checkRowCase, DIAMOND, E, id, LINE, N, P, type RowCase, STAR } from "./graphs.ts";

const ref = (name: string, chain: unknown[] = []) => ({ type: "Ref", ref: name, chain });
const letq = (bindings: Record<string, unknown>, output?: string) => ({ type: "Let", bindings, ...(output ? { output } : {}) });

const lets: Case[] = [
  {
    name: "a Ref filters the referenced result (a node-only chain keeps no edge)",
    graph: LINE,
    query: letq({ a: [id("n0"), E("forward", { hops: 2 })], b: ref("a", [N({ v: P("GE", { val: 1 }) })]) }, "b"),
    nodes: ["n1", "n2"],
    edges: [],
  },
  { name: "without output, the last binding run", graph: LINE, query: letq({ a: [id("n0")], b: [id("n1")] }), nodes: ["n1"], edges: [] },
  {
    name: "a Ref declared first runs after its dependency",
    graph: LINE,
    query: letq({ b: ref("a", [id("n3"), E("forward")]), a: [id("n1"), E("forward", { hops: 3 })] }),
    nodes: ["n3", "n4"],
    edges: ["c34"],
  },
  {
    name: "a Call binding, then a Ref on its degrees",
    graph: STAR,
    query: letq({ a: call("get_degrees"), b: ref("a", [N({ degree: P("GE", { val: 2 }) })]) }),
    nodes: ["h"],
    edges: [],
  },
  {
    name: "output names an earlier binding",
    graph: STAR,
    query: letq({ a: [id("h"), E("forward")], b: [id("l4")] }, "a"),
    nodes: ["h", "l1", "l2", "l3"],
    edges: ["h1", "h2", "h3"],
  },
  {
    name: "a nested Let's result is its last binding",
    graph: CYCLE,
    query: letq({ outer: letq({ inner: [id("p"), E("forward", { hops: 2 })] }), r: ref("outer", [id("r")]) }),
    nodes: ["r"],
    edges: [],
  },
  {
    name: "a nested Let sees the enclosing bindings",
    graph: CYCLE,
    query: letq({ x: [id("p"), E("forward")], inner: letq({ y: ref("x", [id("q")]) }) }),
    nodes: ["q"],
    edges: [],
  },
  {
    name: "an Edge binding runs on the root graph, not on the previous binding",
    graph: CYCLE,
    query: letq({ a: [id("p")], b: E("forward") }, "b"),
    nodes: ["p", "q", "r", "s"],
    edges: ["pq", "qr", "rp", "rs"],
  },
  {
    name: "a Ref on a node-only result has no edge to walk",
    graph: LINE,
    query: letq({ a: [N({ tag: "odd" })], b: ref("a", [E("forward")]) }),
    nodes: [],
    edges: [],
  },
];

const graphCalls: Case[] = [
  {
    name: "filter_edges_by_dict before the traversal",
    graph: STAR,
    query: [call("filter_edges_by_dict", { filter_dict: { kind: "out" } }), id("h"), E("undirected")],
    nodes: ["h", "l1", "l2", "l3"],
    edges: ["h1", "h2", "h3"],
  },
  {
    name: "drop_nodes after the traversal drops the node's edges",
    graph: STAR,
    query: [id("h"), E("undirected"), call("drop_nodes", { nodes: ["l4"] })],
    nodes: ["h", "l1", "l2", "l3"],
    edges: ["h1", "h2", "h3"],
  },
  {
    name: "keep_nodes then hop",
    graph: LINE,
    query: [call("keep_nodes", { nodes: ["n0", "n1", "n2"] }), call("hop", { direction: "forward", hops: 5 })],
    nodes: ["n0", "n1", "n2"],
    edges: ["c01", "c12"],
  },
  {
    name: "get_indegrees: sources and isolated nodes have 0",
    graph: DIAMOND,
    query: [call("get_indegrees"), N({ degree_in: 0 })],
    nodes: ["a", "z"],
    edges: [],
  },
  {
    name: "get_outdegrees feeding a traversal",
    graph: DIAMOND,
    query: [call("get_outdegrees"), N({ degree_out: P("GE", { val: 1 }) }), E("forward"), N()],
    nodes: ["a", "b", "c", "d"],
    edges: ["ab", "ac", "bd", "cd"],
  },
  {
    name: "filter_nodes_by_dict filters the node table only",
    graph: CYCLE,
    query: [call("filter_nodes_by_dict", { filter_dict: { grp: "x" } })],
    nodes: ["p", "r"],
    edges: ["pq", "qr", "rp", "rs"],
  },
];

const where: Case[] = [
  {
    name: "where: score rises along the edge (c's null score never compares)",
    graph: DIAMOND,
    query: {
      type: "Chain",
      chain: [N({}, { name: "x" }), E("forward"), N({}, { name: "y" })],
      where: [{ lt: { left: "x.score", right: "y.score" } }],
    },
    nodes: ["a", "b", "d"],
    edges: ["ab", "bd"],
  },
  {
    name: "where: v never falls along the line",
    graph: LINE,
    query: {
      type: "Chain",
      chain: [N({}, { name: "x" }), E("forward"), N({}, { name: "y" })],
      where: [{ gt: { left: "x.v", right: "y.v" } }],
    },
    nodes: [],
    edges: [],
  },
  {
    name: "where on an undirected step: only walks from the bigger end",
    graph: STAR,
    query: {
      type: "Chain",
      chain: [N({}, { name: "x" }), E("undirected", { name: "e" }), N({}, { name: "y" })],
      where: [{ gt: { left: "x.size", right: "y.size" } }],
    },
    nodes: ["h", "l1", "l2", "l3", "l4"],
    edges: ["h1", "h2", "h3", "h4"],
    marks: { nodes: { x: ["h"], y: ["l1", "l2", "l3", "l4"] }, edges: { e: ["h1", "h2", "h3", "h4"] } },
  },
];

const rows: RowCase[] = [
  {
    name: "rows, where_rows, select, order_by desc",
    graph: STAR,
    query: [
      N(),
      call("rows", { table: "nodes" }),
      call("where_rows", { filter_dict: { color: "blue" } }),
      call("select", { items: ["id", "size"] }),
      call("order_by", { keys: [["size", "desc"]] }),
    ],
    rows: [
      { id: "l2", size: 2 },
      { id: "l1", size: 1 },
    ],
  },
  {
    name: "group_by count over the edge table, groups sorted by key",
    graph: STAR,
    query: [call("rows", { table: "edges" }), call("group_by", { keys: ["kind"], aggregations: [["n", "count"]] })],
    rows: [
      { kind: "in", n: 1 },
      { kind: "out", n: 3 },
    ],
  },
  {
    name: "rows of a named step, renamed, sorted and limited",
    graph: STAR,
    query: [
      N({ id: "h" }, { name: "c" }),
      E("forward"),
      N({}, { name: "leaf" }),
      call("rows", { table: "nodes", source: "leaf" }),
      call("select", { items: [["leaf_id", "id"]] }),
      call("order_by", { keys: [["leaf_id", "asc"]] }),
      call("limit", { value: 2 }),
    ],
    rows: [{ leaf_id: "l1" }, { leaf_id: "l2" }],
  },
  {
    name: "skip",
    graph: STAR,
    query: [call("rows"), call("order_by", { keys: [["size", "asc"]] }), call("skip", { value: 3 }), call("select", { items: ["id"] })],
    rows: [{ id: "l4" }, { id: "h" }],
  },
  { name: "count_table on the matched nodes", graph: STAR, query: [N({ color: "blue" }), call("count_table")], rows: [{ "count(*)": 2 }] },

  {
    name: "distinct",
    graph: STAR,
    query: [call("rows"), call("select", { items: ["color"] }), call("distinct"), call("order_by", { keys: [["color", "asc"]] })],
    rows: [{ color: "blue" }, { color: "green" }, { color: "red" }],
  },
  {
    name: "group_by sum",
    graph: STAR,
    query: [call("rows"), call("group_by", { keys: ["color"], aggregations: [["total", "sum", "size"]] })],
    rows: [
      { color: "blue", total: 3 },
      { color: "green", total: 3 },
      { color: "red", total: 14 },
    ],
  },
  {
    name: "group_by min of a string column",
    graph: STAR,
    query: [call("rows", { table: "edges" }), call("group_by", { keys: ["kind"], aggregations: [["first_dst", "min", "d"]] })],
    rows: [
      { kind: "in", first_dst: "h" },
      { kind: "out", first_dst: "l1" },
    ],
  },
  {
    name: "a Ref running a row pipeline on a binding",
    graph: STAR,
    query: letq({
      a: [id("h"), E("undirected")],
      b: ref("a", [
        call("rows", { table: "edges" }),
        call("select", { items: [["e", "eid"]] }),
        call("order_by", { keys: [["e", "desc"]] }),
      ]),
    }),
    rows: [{ e: "h4" }, { e: "h3" }, { e: "h2" }, { e: "h1" }],
  },
];

describe.each([
  ["Let", lets],
  ["graph Calls", graphCalls],
  ["where", where],
])("conformance: %s", (_, cases) => {
  it.each((cases as Case[]).map((c) => [c.name, c]))("%s", (_name, c) => checkCase(c as Case));
});

describe("conformance: row pipeline", () => {
  it.each(rows.map((c) => [c.name, c]))("%s", (_name, c) => checkRowCase(c as RowCase));
});
