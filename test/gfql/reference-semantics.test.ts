// Where our GFQL follows pygraphistry's engine on edge cases (issue 13): empty chains, filters on absent columns
// with its strictness levels, hops: 0, and one name on a Node and an Edge step. Expected answers are derived from
// pygraphistry's source, cited per case; helpers.ts has the graph:
//   e0 a->b x, e1 b->c y, e2 c->d x, e3 a->c y, e4 e->a x; types a,b,d,f person, c company, e bot.

import pl from "nodejs-polars";
import { describe, expect, it } from "vitest";
import { parseCypher } from "../../src/gfql/cypher/index.ts";
import { parseGfql } from "../../src/gfql/parse.ts";
import { executeBoth } from "./engines.ts";
import { errorOf, sampleGraph } from "./helpers.ts";

const A = { type: "Node", filter_dict: { id: "a" } };
const ids = (frame: { getColumn(c: string): { toArray(): unknown[] } }, col: string) => (frame.getColumn(col).toArray() as string[]).sort();

describe("an empty chain", () => {
  it("answers the whole graph unchanged (chain.py _chain_impl: `if len(ops) == 0: return self`)", () => {
    const g = sampleGraph();
    // chain_let.py: `if not dag.bindings: return g` -- a Let without bindings is the graph too
    for (const query of [[], { type: "Chain", chain: [] }, { type: "Let", bindings: { all: [] } }, { type: "Let", bindings: {} }]) {
      const out = executeBoth(g, parseGfql(query));
      expect(out.nodes.toRecords()).toEqual(g.nodes.toRecords());
      expect(out.edges.toRecords()).toEqual(g.edges.toRecords());
      expect(out.warnings).toEqual([]);
    }
  });
});

describe("filters on absent columns (gfql/strictness.py, filter_by_dict.filter_mask_by_dict)", () => {
  const g = sampleGraph();
  const runWith = (query: unknown, strictness?: "strict" | "warn" | "quiet") =>
    executeBoth(g, parseGfql(query), strictness === undefined ? {} : { strictness });

  it("under warn (the default) match nothing and warn once per absent name, naming the table", () => {
    const out = runWith([{ type: "Node", filter_dict: { color: "red" } }]);
    expect(out.nodes.height).toBe(0);
    expect(out.warnings).toEqual([
      'GFQL: column "color" is absent in node dataframe; it resolves to null. Send strictness "strict" to make this an error, or "quiet" to silence this warning. (at chain[0].filter_dict.color)',
    ]);
    // the same name in two steps warns once (scope.warned keys on `column:<name>`)
    const twice = runWith([
      { type: "Node", filter_dict: { color: "red" } },
      { type: "Edge", direction: "forward" },
      { type: "Node", filter_dict: { color: 1 } },
    ]);
    expect(twice.warnings).toHaveLength(1);
    expect(twice.nodes.height + twice.edges.height).toBe(0);
  });

  it("an absent column sinks the whole filter dict, except an IsNA test, which every (null) row passes", () => {
    // absent_never_matches: one absent key (not IsNA) makes the mask all False, whatever the other keys say
    expect(runWith([{ type: "Node", filter_dict: { type: "person", color: "red" } }]).nodes.height).toBe(0);
    // absent_column_matches(IsNA()) is True: the key is skipped and the others decide
    const na = runWith([{ type: "Node", filter_dict: { type: "person", color: { type: "IsNA" } } }]);
    expect(ids(na.nodes, "id")).toEqual(["a", "b", "d", "f"]);
    expect(na.warnings).toHaveLength(1);
    // NotNA, and IsNull (a separate class in predicates/str.py, not IsNA), match nothing
    expect(runWith([{ type: "Node", filter_dict: { color: { type: "NotNA" } } }]).nodes.height).toBe(0);
    expect(runWith([{ type: "Node", filter_dict: { color: { type: "IsNull" } } }]).nodes.height).toBe(0);
  });

  it("edge, source and destination matches name their table; a hop over an absent edge column takes no edge", () => {
    const out = runWith([A, { type: "Edge", direction: "forward", edge_match: { weight: 3 } }, { type: "Node" }]);
    expect(out.edges.height).toBe(0);
    expect(out.nodes.height).toBe(0);
    expect(out.warnings[0]).toMatch(/^GFQL: column "weight" is absent in edge dataframe;/);
    const src = runWith([{ type: "Edge", direction: "forward", source_node_match: { tier: 1 } }]);
    expect(src.warnings[0]).toMatch(/absent in source node dataframe/);
    const dst = runWith([{ type: "Edge", direction: "forward", destination_node_match: { tier: 1 } }]);
    expect(dst.warnings[0]).toMatch(/absent in destination node dataframe/);
  });

  it("quiet matches nothing without a warning; strict refuses with E301 at the entry", () => {
    const quiet = runWith([{ type: "Node", filter_dict: { color: "red" } }], "quiet");
    expect(quiet.nodes.height).toBe(0);
    expect(quiet.warnings).toEqual([]);
    const strict = errorOf(() => runWith([{ type: "Node", filter_dict: { color: "red" } }], "strict"));
    expect(strict).toMatchObject({ code: "INVALID_INPUT", path: "chain[0].filter_dict.color" });
    expect(strict.message).toMatch(/^\[E301\] column 'color' not found/);
  });

  it("present columns are still type-checked (E302) when another key is absent", () => {
    const err = errorOf(() => runWith([{ type: "Node", filter_dict: { color: "red", age: "old" } }]));
    expect(err.message).toMatch(/^\[E302\]/);
  });

  it("Calls filter the same way: filter_edges_by_dict names the edge table", () => {
    const out = runWith([{ type: "Call", function: "filter_edges_by_dict", params: { filter_dict: { weight: 1 } } }]);
    expect(out.edges.height).toBe(0);
    expect(out.nodes.height).toBe(g.nodes.height);
    expect(out.warnings[0]).toMatch(/absent in edge dataframe/);
  });
});

describe("missing values in filter dicts (filter_by_dict.filter_mask_by_dict)", () => {
  const g = sampleGraph(); // age: c is null; nick: c is null
  const nodes = (filter: unknown) => ids(executeBoth(g, parseGfql([{ type: "Node", filter_dict: filter }])).nodes, "id");

  it("a plain None matches nothing: `df[col] == None` is False everywhere", () => {
    expect(nodes({ age: null })).toEqual([]);
    expect(nodes({ nick: null })).toEqual([]);
  });

  it("a list never matches a missing cell (`isin(list) & notna()`), even with None in it", () => {
    expect(nodes({ nick: ["Al", null] })).toEqual(["a"]);
    expect(nodes({ age: [20, null] })).toEqual(["b"]);
  });

  it("the IsIn predicate is pandas' isin: a None option matches a missing string (IsIn.__call__)", () => {
    expect(nodes({ nick: { type: "IsIn", options: ["Al", null] } })).toEqual(["a", "c"]);
    // IsNA / IsNull are the way to ask for missing values
    expect(nodes({ age: { type: "IsNA" } })).toEqual(["c"]);
  });
});

describe("Call placement", () => {
  it("a Call between traversal steps is E201, as chain.py's boundary check raises it", () => {
    const err = errorOf(() =>
      parseGfql([A, { type: "Call", function: "get_degrees", params: {} }, { type: "Edge", direction: "forward" }]),
    );
    expect(err).toMatchObject({ path: "chain[1]" });
    expect(err.message).toMatch(/^\[E201\] Call steps may only come before or after the Node\/Edge steps/);
  });
});

describe("hops and names", () => {
  it("hops: 0 is refused as an invalid hops value (ASTEdge._validate_fields, E103); max_hops: 0 is the zero-length walk", () => {
    const err = errorOf(() => parseGfql([A, { type: "Edge", direction: "forward", hops: 0 }]));
    expect(err).toMatchObject({ path: "chain[1].hops" });
    expect(err.message).toMatch(/^\[E103\]/);
    const zero = executeBoth(sampleGraph(), parseGfql([A, { type: "Edge", direction: "forward", max_hops: 0 }]));
    expect(ids(zero.nodes, "id")).toEqual(["a"]);
  });

  it("one name on a Node step and an Edge step marks each table with its own boolean column (combine_steps per kind)", () => {
    const out = executeBoth(
      sampleGraph(),
      parseGfql([
        { type: "Node", filter_dict: { id: "a" }, name: "hit" },
        { type: "Edge", direction: "forward", edge_match: { rel: "x" }, name: "hit" },
        { type: "Node" },
      ]),
    );
    expect(out.nodes.toRecords().map((r) => [r.id, r.hit])).toEqual([
      ["a", true],
      ["b", false],
    ]);
    expect(out.edges.toRecords().map((r) => [r.eid, r.hit])).toEqual([["e0", true]]);
  });

  it("the same name on two Node steps is refused (E201 duplicate alias); a where clause must not read an ambiguous one", () => {
    const dup = errorOf(() =>
      parseGfql([
        { type: "Node", name: "n" },
        { type: "Edge", direction: "forward" },
        { type: "Node", name: "n" },
      ]),
    );
    expect(dup.message).toMatch(/^\[E201\] duplicate alias name 'n' in chain \(steps 0 and 2\)/);
    const where = errorOf(() =>
      parseGfql({
        type: "Chain",
        chain: [
          { type: "Node", name: "x" },
          { type: "Edge", direction: "forward", name: "x" },
          { type: "Node", name: "y" },
        ],
        where: [{ eq: { left: "x.id", right: "y.id" } }],
      }),
    );
    expect(where).toMatchObject({ path: "where[0].eq.left" });
    expect(where.message).toMatch(/^\[E204\] 'x' names both a Node and an Edge step/);
  });
});

describe("a named Node step before an Edge step (chain.py combine_steps)", () => {
  // pygraphistry ANDs the step's nodes with being a source (forward), a destination (reverse) or either endpoint
  // (undirected) of the next step's kept edges. The expected marks are what pygraphistry f6edc14 answered, run on
  // Debian's pandas: an undirected hop marks its edges' far ends too, a 2-hop walk the nodes it passes through (and,
  // as the last case shows, only among the nodes of the step itself).
  const graph = () => ({
    nodes: pl.DataFrame({ id: ["v0", "v1", "v2", "v3"], s: [9, 8, 5, 1] }),
    edges: pl.DataFrame({ eid: ["e0", "e1", "e2"], src: ["v1", "v2", "v3"], dst: ["v2", "v0", "v2"] }),
    nodeId: "id",
    source: "src",
    destination: "dst",
  });
  const marked = (edge: Record<string, unknown>, last: Record<string, unknown>) => {
    const out = executeBoth(
      graph(),
      parseGfql([
        { type: "Node", filter_dict: {}, name: "a" },
        { type: "Edge", ...edge },
        { type: "Node", filter_dict: last },
      ]),
    );
    const rows = out.nodes.toRecords() as Array<{ id: string; a: boolean }>;
    return {
      nodes: rows.map((r) => r.id).sort(),
      a: rows
        .filter((r) => r.a)
        .map((r) => r.id)
        .sort(),
      edges: ids(out.edges, "eid"),
    };
  };

  it("an undirected hop marks both ends of its edges", () => {
    expect(marked({ direction: "undirected", hops: 1 }, { s: { type: "GE", val: 7 } })).toEqual({
      nodes: ["v0", "v1", "v2"],
      a: ["v0", "v1", "v2"],
      edges: ["e0", "e1"],
    });
  });

  it("a forward 2-hop walk marks the sources of its edges, the node it passes through included", () => {
    expect(marked({ direction: "forward", hops: null, min_hops: 2, max_hops: 2 }, { s: { type: "GE", val: 7 } })).toEqual({
      nodes: ["v0", "v1", "v2", "v3"],
      a: ["v1", "v2", "v3"],
      edges: ["e0", "e1", "e2"],
    });
  });

  it("a reverse 2-hop walk marks the destinations of its edges, the node it passes through included", () => {
    expect(marked({ direction: "reverse", hops: null, min_hops: 2, max_hops: 2 }, { s: { type: "LE", val: 1 } })).toEqual({
      nodes: ["v0", "v2", "v3"],
      a: ["v0", "v2"],
      edges: ["e1", "e2"],
    });
  });

  it("a Cypher variable still binds per path: the same pattern as Cypher returns only the nodes paths start at", () => {
    // pygraphistry answers RETURN a.id with v2 once per path (two rows), as we do, but RETURN a with v0, v1 and v2,
    // through the GFQL marks above: we keep Cypher's meaning there too
    const out = executeBoth(graph(), parseCypher("MATCH (a)-[e]-(b) WHERE b.s >= 7 RETURN a.id AS x ORDER BY x"));
    expect(out.nodes.toRecords()).toEqual([{ x: "v2" }, { x: "v2" }]);
    // one row per path, as pygraphistry answered (v0, v2, v2), and per node with DISTINCT (v0, v2)
    const forward = executeBoth(graph(), parseCypher("MATCH (a)-[e]->(b) RETURN b.id AS x ORDER BY x"));
    expect(forward.nodes.toRecords()).toEqual([{ x: "v0" }, { x: "v2" }, { x: "v2" }]);
    const distinct = executeBoth(graph(), parseCypher("MATCH (a)-[e]->(b) RETURN DISTINCT b.id AS x ORDER BY x"));
    expect(distinct.nodes.toRecords()).toEqual([{ x: "v0" }, { x: "v2" }]);
    const whole = executeBoth(graph(), parseCypher("MATCH (a)-[e]-(b) WHERE b.s >= 7 RETURN a"));
    expect(ids(whole.nodes, "id")).toEqual(["v2"]);
  });

  it("marks only nodes of its own step: a walk's later nodes that fail the step's filter stay unmarked", () => {
    const out = executeBoth(
      graph(),
      parseGfql([
        { type: "Node", filter_dict: { s: { type: "LE", val: 1 } }, name: "a" },
        { type: "Edge", direction: "forward", hops: 2 },
        { type: "Node", filter_dict: {}, name: "b" },
      ]),
    );
    const rows = out.nodes.toRecords() as Array<{ id: string; a: boolean; b: boolean }>;
    expect(rows.filter((r) => r.a).map((r) => r.id)).toEqual(["v3"]);
    expect(
      rows
        .filter((r) => r.b)
        .map((r) => r.id)
        .sort(),
    ).toEqual(["v0", "v2"]);
    expect(ids(out.edges, "eid")).toEqual(["e1", "e2"]);
  });
});
