// Row-pipeline Calls: rows/select/where_rows/order_by/skip/limit/distinct/group_by/count_table and the `rows` result.
// Sample graph (helpers.ts): ages a30 b20 c(null) d50 e10 f40; types a,b,d,f person, c company, e bot.

import { describe, expect, it } from "vitest";
import { parseGfql } from "../../src/gfql/parse.ts";
import { executeBoth } from "./engines.ts";
import { errorOf, sampleGraph } from "./helpers.ts";

const call = (fn: string, params: Record<string, unknown> = {}) => ({ type: "Call", function: fn, params });
const exec = (q: unknown) => executeBoth(sampleGraph(), parseGfql(q));
const records = (q: unknown) => exec(q).nodes.toRecords();
const ids = (q: unknown) => exec(q).nodes.getColumn("id").toArray();

describe("row tables", () => {
  it("rows returns the table as `nodes` with no edges and the rows flag", () => {
    const out = exec([
      { type: "Node", filter_dict: { id: "a" } },
      { type: "Edge", direction: "forward" },
      call("rows", { table: "edges" }),
    ]);
    expect(out.rows).toBe(true);
    expect(out.edges.height).toBe(0);
    expect(out.nodes.getColumn("eid").toArray().sort()).toEqual(["e0", "e3"]);
    // graph results carry no rows flag
    expect(exec([{ type: "Node" }]).rows).toBeUndefined();
  });

  it("rows source keeps what a named step matched", () => {
    // persons hop forward along e0 (a->b), e1 (b->c), e3 (a->c): the step named q matched b and c
    const q = [
      { type: "Node", filter_dict: { type: "person" }, name: "p" },
      { type: "Edge", direction: "forward" },
      { type: "Node", name: "q" },
    ];
    expect(
      exec([...q, call("rows", { source: "q" })])
        .nodes.getColumn("id")
        .toArray()
        .sort(),
    ).toEqual(["b", "c"]);
    expect(errorOf(() => exec([...q, call("rows", { source: "zz" })])).message).toMatch(/^\[E301\] no step named 'zz'/);
  });

  it("count_table takes pygraphistry's table, source and alias (default column name count(*))", () => {
    // a forward hop from the persons: e0 a->b, e1 b->c, e3 a->c; the step named q matched b and c. The counts are
    // pygraphistry's (f6edc14, run on Debian's pandas): 3, 3 and 2, as int64
    const hop = [
      { type: "Node", filter_dict: { type: "person" }, name: "p" },
      { type: "Edge", direction: "forward" },
      { type: "Node", name: "q" },
    ];
    expect(records([...hop, call("count_table")])).toEqual([{ "count(*)": 3 }]);
    expect(records([...hop, call("count_table", { table: "edges", alias: "n" })])).toEqual([{ n: 3 }]);
    expect(records([...hop, call("count_table", { source: "q", alias: "reached" })])).toEqual([{ reached: 2 }]);
    expect(exec([...hop, call("count_table")]).nodes.dtypes.map(String)).toEqual(["DataType(Int64)"]);
    expect(errorOf(() => exec([call("count_table", { table: "rows" })])).message).toMatch(/table/);
    expect(errorOf(() => exec([call("count_table", { source: "zz" })])).message).toMatch(/^\[E301\] column 'zz'/);
  });

  it("select, where_rows and count_table work on the node table when rows was not called", () => {
    expect(records([{ type: "Node", filter_dict: { type: "bot" } }, call("select", { items: [["who", "id"], "age"] })])).toEqual([
      { who: "e", age: 10 },
    ]);
    expect(ids([call("where_rows", { filter_dict: { age: { type: "GT", val: 25 } } })])).toEqual(["a", "d", "f"]);
    expect(records([{ type: "Node", filter_dict: { type: "person" } }, call("count_table")])).toEqual([{ "count(*)": 4 }]);
    expect(errorOf(() => exec([call("select", { items: [["x", "salary"]] })])).message).toMatch(/^\[E301\] column 'salary'/);
    expect(errorOf(() => exec([call("select", { items: [["x", "age + 1"]] })])).message).toMatch(/^\[unsupported-call\]/);
  });

  it("order_by puts nulls last both ways; skip and limit slice", () => {
    expect(ids([call("order_by", { keys: [["age", "desc"]] })])).toEqual(["d", "f", "a", "b", "e", "c"]);
    expect(ids([call("order_by", { keys: [["age", "asc"]] })])).toEqual(["e", "b", "a", "f", "d", "c"]);
    // ties on type keep table order (a, b, d, f among persons)
    expect(ids([call("order_by", { keys: [["type", "desc"]] })])).toEqual(["a", "b", "d", "f", "c", "e"]);
    expect(ids([call("order_by", { keys: [["age", "asc"]] }), call("skip", { value: 1 }), call("limit", { value: 2 })])).toEqual([
      "b",
      "a",
    ]);
    expect(ids([call("skip", { value: 10 })])).toEqual([]);
  });

  it("distinct keeps the first of each duplicate row", () => {
    expect(records([call("select", { items: ["type"] }), call("distinct")])).toEqual([
      { type: "person" },
      { type: "company" },
      { type: "bot" },
    ]);
  });

  it("group_by aggregates per key, groups sorted by key", () => {
    const q = [
      call("group_by", {
        keys: ["type"],
        aggregations: [
          ["n", "count"],
          ["total", "sum", "age"],
          ["oldest", "max", "age"],
          ["avg", "mean", "age"],
          ["known", "count", "age"],
        ],
      }),
    ];
    // person ages 30, 20, 50, 40; company c has only a null age (sum of nothing is 0, max/mean null, count of values 0)
    expect(records(q)).toEqual([
      { type: "bot", n: 1, total: 10, oldest: 10, avg: 10, known: 1 },
      { type: "company", n: 1, total: 0, oldest: null, avg: null, known: 0 },
      { type: "person", n: 4, total: 140, oldest: 50, avg: 35, known: 4 },
    ]);
    expect(errorOf(() => exec([call("group_by", { keys: ["type"], aggregations: [["x", "median", "age"]] })])).message).toMatch(
      /^\[unsupported-call\] aggregation 'median'/,
    );
  });

  it("a Ref can run a row pipeline on a binding's result", () => {
    const q = {
      type: "Let",
      bindings: {
        people: { type: "Node", filter_dict: { type: "person" } },
        n: { type: "Ref", ref: "people", chain: [call("count_table")] },
      },
    };
    const out = exec(q);
    expect(out.rows).toBe(true);
    expect(out.nodes.toRecords()).toEqual([{ "count(*)": 4 }]);
  });
});
