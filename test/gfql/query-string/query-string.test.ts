// pandas DataFrame.query strings in GFQL steps: Node `query`, Edge `edge_query`, `source_node_query` and
// `destination_node_query`. pygraphistry applies them after the step's filter dict (ASTNode.execute:
// filter_nodes_by_dict(...).query(q); hop.py: query_if_not_none(edge_query, filter_edges_by_dict(edge_match)) and
// _build_allowed_ids(nodes, match, query)), so expected answers here are the filter dict's rows that the expression
// keeps, evaluated as pandas does (checked against pandas itself in pandas-differential.test.ts). Graph (helpers.ts):
//   e0 a->b x w1, e1 b->c y w2, e2 c->d x w3, e3 a->c y w4, e4 e->a x w5
//   ids a..f; type person,person,company,person,bot,person; age 30,20,null,50,10,40; nick Al,bob,null,Dee,e-1,Fay

import pl from "nodejs-polars";
import { describe, expect, it } from "vitest";
import { parseGfql } from "../../../src/gfql/parse.ts";
import { errorOf, run } from "../helpers.ts";

const node = (query: string, extra: Record<string, unknown> = {}) => run([{ type: "Node", query, ...extra }]).nodes;
const failRun = (query: string) => errorOf(() => run([{ type: "Node", query }]));

describe("query string grammar", () => {
  it("comparisons, chained comparisons, and/or/not with Python's precedence", () => {
    expect(node("age > 25")).toEqual(["a", "d", "f"]);
    expect(node("20 <= age < 45")).toEqual(["a", "b", "f"]); // a < b < c is a < b and b < c
    expect(node("age > 25 and type == 'person'")).toEqual(["a", "d", "f"]);
    expect(node("age < 15 or type == 'company'")).toEqual(["c", "e"]);
    expect(node("not age > 25")).toEqual(["b", "c", "e"]); // NaN > 25 is False, so not-it is True
    // `and` binds tighter than `or`
    expect(node("age < 15 or age > 45 and type == 'person'")).toEqual(["d", "e"]);
  });

  it("& and | bind like and / or (pandas rewrites them), ~ negates a condition", () => {
    expect(node("age > 25 & type == 'person'")).toEqual(["a", "d", "f"]);
    expect(node("age < 15 | age > 45 & type == 'person'")).toEqual(["d", "e"]);
    expect(node("~(age > 25)")).toEqual(["b", "c", "e"]);
  });

  it("in / not in, and == / != with a list, test membership", () => {
    expect(node("id in ['a', 'c', 'zz']")).toEqual(["a", "c"]);
    expect(node("id not in ('a', 'c')")).toEqual(["b", "d", "e", "f"]);
    expect(node("age == [10, 20]")).toEqual(["b", "e"]);
    expect(node("[10, 20] != age")).toEqual(["a", "c", "d", "f"]);
    // None in a list matches missing strings (pandas isin on an object column)
    expect(node("nick in [None, 'Al']")).toEqual(["a", "c"]);
  });

  it("arithmetic, backtick-quoted names, string/number/bool/None literals", () => {
    expect(node("age * 2 - 10 >= 70")).toEqual(["d", "f"]);
    expect(node("age / 4 == 2.5")).toEqual(["e"]); // true division
    expect(node("age % 20 == 10")).toEqual(["a", "d", "e"]);
    expect(node("-age < -35")).toEqual(["d", "f"]);
    expect(node("age ** 2 > 1000")).toEqual(["d", "f"]);
    expect(node("`age` > 45")).toEqual(["d"]);
    expect(node('nick == "Dee"')).toEqual(["d"]);
    expect(node("nick == 'D' 'ee'")).toEqual(["d"]); // adjacent literals concatenate
    expect(node("age > 1e1 + 5")).toEqual(["a", "b", "d", "f"]);
  });

  it("missing values: == and ordering are False, != is True (pandas NaN / None)", () => {
    expect(node("age != 30")).toEqual(["b", "c", "d", "e", "f"]);
    expect(node("nick != 'Al'")).toEqual(["b", "c", "d", "e", "f"]);
    expect(node("nick == None")).toEqual([]);
    expect(node("nick != None")).toEqual(["a", "b", "c", "d", "e", "f"]);
    expect(node("age == age")).toEqual(["a", "b", "d", "e", "f"]);
  });

  it("values of unrelated types are unequal (== False, != True) and unordered (refused)", () => {
    expect(node("age == 'x'")).toEqual([]);
    expect(node("type != 3")).toEqual(["a", "b", "c", "d", "e", "f"]);
    const order = failRun("type > 3");
    expect(order.message).toMatch(
      /^\[E302\] '>' is not supported between string and number at column 6 of the query string \(at chain\[0\]\.query\)/,
    );
  });
});

describe("method calls and functions (methods.ts), with pandas' results", () => {
  it("isna/isnull/notna/notnull, isin, between, abs", () => {
    expect(node("age.isna()")).toEqual(["c"]);
    expect(node("nick.isnull() or age < 15")).toEqual(["c", "e"]);
    expect(node("age.notna() & age > 35")).toEqual(["d", "f"]);
    expect(node("age.isin([10, 50])")).toEqual(["d", "e"]);
    expect(node("age.between(20, 40)")).toEqual(["a", "b", "f"]);
    expect(node("age.between(20, 40, inclusive='neither')")).toEqual(["a"]);
    expect(node("abs(age - 35) <= 5")).toEqual(["a", "f"]);
    expect(node("(age - 35).abs() <= 5")).toEqual(["a", "f"]);
  });

  it(".str.contains/startswith/endswith need na= on a column with missing values (pandas cannot filter on NaN)", () => {
    expect(node("nick.str.contains('e', na=False)")).toEqual(["d", "e"]);
    expect(node("nick.str.contains('^[a-z]', na=False)")).toEqual(["b", "e"]);
    expect(node("nick.str.contains('AL', case=False, na=False)")).toEqual(["a"]);
    expect(node("nick.str.contains('e-', regex=False, na=False)")).toEqual(["e"]);
    expect(node("nick.str.startswith('D', na=True)")).toEqual(["c", "d"]);
    expect(node("nick.str.endswith('y', na=False)")).toEqual(["f"]);
    expect(node("type.str.startswith('p')")).toEqual(["a", "b", "d", "f"]); // type has no missing value
    expect(node("nick.str.len() == 3")).toEqual(["b", "d", "e", "f"]);
    const na = failRun("nick.str.contains('e')");
    expect(na.message).toMatch(/^\[E302\] \.str\.contains\(\) meets missing values, which pandas cannot filter on: pass na=False/);
  });

  it("other methods, functions and arguments are refused by name", () => {
    expect(failRun("sin(age) > 0").message).toMatch(/^\[E205\] function 'sin\(\)' is not supported; supported: abs\(\) at column 1/);
    expect(failRun("age.round() > 1").message).toMatch(/^\[E205\] method '\.round\(\)' is not supported; supported: isna,/);
    expect(failRun("nick.str.upper() == 'AL'").message).toMatch(/method '\.str\.upper\(\)' is not supported/);
    expect(failRun("age.between(1, x=2)").message).toMatch(/\.between\(\) has no argument 'x'/);
    expect(failRun("nick.str.contains('(?=a)', na=False)").message).toMatch(/lookarounds and backreferences are not supported/);
    expect(failRun("nick.str.contains(1, na=False)").message).toMatch(/^\[E302\] \.str\.contains\(\) needs a string pattern/);
    expect(failRun("age.str.len() > 1").message).toMatch(/^\[E302\] \.str\.len\(\) needs a string column/);
  });
});

describe("dates", () => {
  it("a string compared with a date column is read as a date, as pandas does", () => {
    const nodes = pl
      .DataFrame({ id: ["a", "b", "c", "d"], ts: ["2020-01-01", "2021-06-01", null, "2019-05-05"] })
      .withColumns(pl.col("ts").str.strptime(pl.Datetime("ms"), "%Y-%m-%d").alias("t"));
    const g = { nodes, edges: pl.DataFrame({ s: ["a"], d: ["b"] }), nodeId: "id", source: "s", destination: "d" };
    const ids = (query: string) => run([{ type: "Node", query }], g).nodes;
    expect(ids("t > '2020-03-01'")).toEqual(["b"]);
    expect(ids("t == '2019-05-05'")).toEqual(["d"]);
    expect(ids("t != '2020-01-01'")).toEqual(["b", "c", "d"]);
    expect(errorOf(() => ids("t > 3")).message).toMatch(/^\[E302\] '>' is not supported between date and number/);
  });
});

describe("query strings in steps", () => {
  it("a Node query filters after its filter_dict", () => {
    expect(run([{ type: "Node", filter_dict: { type: "person" }, query: "age < 35" }]).nodes).toEqual(["a", "b"]);
  });

  it("edge_query filters the edges a hop takes, after edge_match", () => {
    const out = run([
      { type: "Node", filter_dict: { id: "a" } },
      { type: "Edge", direction: "forward", edge_query: "w > 1", hops: 2 },
      { type: "Node" },
    ]);
    // from a: e0 (w1) is not taken; e3 a->c (w4), then c->d (e2, w3)
    expect(out).toEqual({ nodes: ["a", "c", "d"], edges: ["e2", "e3"] });
    const both = run([{ type: "Edge", direction: "forward", edge_match: { rel: "x" }, edge_query: "w >= 3" }]);
    expect(both.edges).toEqual(["e2", "e4"]);
  });

  it("source_node_query and destination_node_query restrict the hop's ends", () => {
    expect(run([{ type: "Edge", direction: "forward", source_node_query: "age >= 30" }]).edges).toEqual(["e0", "e3"]);
    expect(run([{ type: "Edge", direction: "forward", destination_node_query: "type == 'company'" }]).edges).toEqual(["e1", "e3"]);
    expect(
      run([{ type: "Edge", direction: "forward", source_node_match: { type: "person" }, source_node_query: "age < 25" }]).edges,
    ).toEqual(["e1"]);
  });

  it("a hop Call takes the Edge query strings too", () => {
    const out = run([{ type: "Call", function: "hop", params: { direction: "forward", edge_query: "w == 4", hops: 1 } }]);
    expect(out.edges).toEqual(["e3"]);
  });
});

describe("refusals by name, with the column", () => {
  const cases: Array<[string, RegExp, number]> = [
    ["age >", /the query string ends too early/, 6],
    ["age > 3)", /unexpected '\)'/, 8],
    ["(age > 3", /expected '\)', found the end of the query/, 9],
    ["nick.str", /'\.str' needs a method/, 6],
    ["age[0] > 3", /indexing is not supported/, 4],
    ["age > @limit", /local variables \(@name\) are not supported/, 7],
    ["age = 3", /assignment is not supported/, 5],
    ["age.isin([1], values=[2]) ", /\.isin\(\) got 'values' twice/, 22],
    ["age is None", /'is' is not supported in query strings/, 5],
    ["lambda x: x", /'lambda' is not supported/, 1],
    ["age ^ 3", /'\^' \(exclusive or\) is not supported/, 5],
    ["nick == 'abc", /unterminated string/, 9],
    ["age > 0x10", /hexadecimal, octal and binary literals are not supported/, 7],
    ["age > 9007199254740993", /integer literals beyond 2\^53/, 7],
    ["age // 2 > 3", /'\/\/' \(floor division\) is not supported by pandas' query/, 5],
    ["", /the query string is empty/, 1],
    ["age > 3 $", /unexpected character "\$"/, 9],
    ["f'x' == nick", /string prefixes/, 1],
  ];
  it.each(cases)("%s", (query, message, column) => {
    const err = failRun(query);
    expect(err.code).toBe("INVALID_INPUT");
    expect(err.message).toMatch(/^\[E205\] /);
    expect(err.message).toMatch(message);
    expect(err.message).toContain(`at column ${column} of the query string (at chain[0].query)`);
  });

  it("unknown names are E301, type errors E302, non-conditions and constants refused", () => {
    expect(failRun("salary > 3").message).toMatch(/^\[E301\] name 'salary' is not defined: no such column at column 1/);
    expect(failRun("nick + 'x' == 'Alx'").message).toMatch(/^\[E302\] cannot apply '\+' to string and string at column 6/);
    expect(failRun("age + 1").message).toMatch(/^\[E302\] expected a condition \(true or false per row\), found a number column value/);
    expect(failRun("age > 3 and 1 < 2").message).toMatch(/^\[E205\] this comparison reads no column at column 15/);
    expect(failRun("age / 0 > 1").message).toMatch(/^\[E302\] division by zero/);
    expect(failRun("age in 3").message).toMatch(/'in' needs a list or tuple of literals on its right/);
    expect(failRun("age in [nick]").message).toMatch(/list items must be literals/);
    // an edge query names its own path
    const edge = errorOf(() => run([{ type: "Edge", direction: "forward", edge_query: "nope == 1" }]));
    expect(edge).toMatchObject({ path: "chain[0].edge_query" });
    expect(edge.message).toMatch(/^\[E301\]/);
    const typed = errorOf(() => parseGfql([{ type: "Node", query: 3 }]));
    expect(typed.message).toMatch(/^\[E205\]/);
  });
});
