// parseGfql: accepted shapes, hop-bound resolution, and refusals with codes and query paths.

import { describe, expect, it } from "vitest";
import { parseGfql } from "../../src/gfql/parse.ts";
import { errorOf } from "./helpers.ts";

const fail = (q: unknown) => errorOf(() => parseGfql(q));

describe("parseGfql accepts", () => {
  it("a chain array, a Chain object, a single op and a JSON string", () => {
    const ops = [
      { type: "Node", filter_dict: { a: 1 } },
      { type: "Edge", direction: "forward", hops: 1 },
    ];
    const fromArray = parseGfql(ops);
    expect(fromArray).toEqual(parseGfql({ type: "Chain", chain: ops }));
    expect(fromArray).toEqual(parseGfql(JSON.stringify(ops)));
    expect(parseGfql({ type: "Node" })).toEqual({ type: "Chain", chain: [{ type: "Node", filter: {} }] });
  });

  it("resolves hop bounds: absent hops is 1, hops is max_hops, to_fixed_point is unbounded", () => {
    const edge = (extra: object) => {
      const q = parseGfql([{ type: "Edge", direction: "forward", ...extra }]);
      const op = q.type === "Chain" ? q.chain[0] : undefined;
      return op?.type === "Edge" ? [op.minHops, op.maxHops, op.toFixedPoint] : undefined;
    };
    expect(edge({})).toEqual([1, 1, false]);
    expect(edge({ hops: null })).toEqual([1, 1, false]);
    expect(edge({ hops: 3 })).toEqual([1, 3, false]);
    expect(edge({ min_hops: 2, max_hops: 4 })).toEqual([2, 4, false]);
    // min_hops defaults to 0 when max_hops is 0
    expect(edge({ max_hops: 0 })).toEqual([0, 0, false]);
    expect(edge({ min_hops: 0, max_hops: 2 })).toEqual([0, 2, false]);
    expect(edge({ hops: null, to_fixed_point: true })).toEqual([1, null, true]);
    // resolve_hop_bounds: to_fixed_point drops the upper bound, a given max_hops too
    expect(edge({ max_hops: 2, to_fixed_point: true })).toEqual([1, null, true]);
    expect(edge({ label_seeds: false, output_min_hops: null })).toEqual([1, 1, false]);
  });

  it("predicates and temporal operands", () => {
    const q = parseGfql([
      { type: "Node", filter_dict: { t: { type: "GT", val: { type: "datetime", value: "2024-01-02T03:04:05" } }, k: [1, "x", null] } },
    ]);
    expect(q).toEqual({
      type: "Chain",
      chain: [
        {
          type: "Node",
          filter: {
            t: { kind: "predicate", predicate: { type: "GT", val: new Date("2024-01-02T03:04:05Z") } },
            k: { kind: "in", values: [1, "x", null] },
          },
        },
      ],
    });
  });

  it("a Let with Refs", () => {
    const q = parseGfql({
      type: "Let",
      bindings: { b: { type: "Ref", ref: "a", chain: [] }, a: [{ type: "Node" }] },
      output: "b",
    });
    expect(q.type).toBe("Let");
  });
});

describe("parseGfql refuses", () => {
  it("unknown keys, op types and predicate types, by name and path", () => {
    expect(fail([{ type: "Node", filter: {} }])).toMatchObject({ code: "INVALID_INPUT", path: "chain[0]" });
    expect(fail([{ type: "Node", filter: {} }]).message).toMatch(/^\[E102\] unknown key 'filter'/);
    expect(fail([{ type: "Node" }, { type: "Hop" }])).toMatchObject({ path: "chain[1].type" });
    expect(fail([{ type: "Node" }, { type: "Hop" }]).message).toMatch(/\[E101\] unknown operation type "Hop"/);
    const p = fail([{ type: "Node" }, { type: "Node", filter_dict: { age: { type: "gt", val: 1 } } }]);
    expect(p.path).toBe("chain[1].filter_dict.age.type");
    expect(p.message).toMatch(/predicate type 'gt'/);
    expect(fail([{ type: "Node", filter_dict: { age: { type: "GT", val: 1, x: 2 } } }]).path).toBe("chain[0].filter_dict.age");
  });

  it("bad edges", () => {
    expect(fail([{ type: "Edge" }]).message).toMatch(/^\[E105\] missing required field 'direction'/);
    expect(fail([{ type: "Edge", direction: "sideways" }]).message).toMatch(/^\[E104\]/);
    expect(fail([{ type: "Edge", direction: "forward", hops: -1 }])).toMatchObject({ path: "chain[0].hops" });
    expect(fail([{ type: "Edge", direction: "forward", min_hops: 3, max_hops: 2 }]).message).toMatch(/^\[E103\]/);
    expect(fail([{ type: "Edge", direction: "forward", include_zero_hop_seed: true }]).message).toMatch(/not supported yet/);
  });

  it("bad query strings, unimplemented Calls, RemoteGraph and unknown where aliases", () => {
    expect(fail([{ type: "Node", query: "age >" }])).toMatchObject({ path: "chain[0].query" });
    expect(fail([{ type: "Edge", direction: "forward", edge_query: "w[0] > 1" }]).message).toMatch(
      /^\[E205\] indexing is not supported at column 2 of the query string \(at chain\[0\]\.edge_query\)/,
    );
    expect(fail([{ type: "Call", function: "umap", params: {} }]).message).toMatch(/^\[unsupported-call\] 'umap' is not supported yet/);
    expect(fail({ type: "Let", bindings: { r: { type: "RemoteGraph", dataset_id: "x" } } })).toMatchObject({
      path: "bindings.r.type",
    });
    // where aliases must name steps of the chain
    expect(fail({ type: "Chain", chain: [{ type: "Node" }], where: [{ eq: { left: "a.x", right: "b.x" } }] })).toMatchObject({
      path: "where[0].eq.left",
    });
  });

  it("empty chains, duplicate names, bad Let references", () => {
    // chain.py _chain_impl: `if len(ops) == 0: return self` -- an empty chain is the whole graph
    expect(parseGfql([])).toEqual({ type: "Chain", chain: [] });
    expect(parseGfql({ type: "Chain", chain: [] })).toEqual({ type: "Chain", chain: [] });
    // combine_steps rejects a duplicate alias among steps of one kind (E201); a Node and an Edge may share one
    expect(
      fail([
        { type: "Node", name: "x" },
        { type: "Edge", direction: "forward" },
        { type: "Node", name: "x" },
      ]),
    ).toMatchObject({
      path: "chain[2].name",
      message: expect.stringMatching(/^\[E201\] duplicate alias name 'x' in chain \(steps 0 and 2\)/),
    });
    expect(() =>
      parseGfql([
        { type: "Node", name: "x" },
        { type: "Edge", direction: "forward", name: "x" },
      ]),
    ).not.toThrow();
    // ASTEdge._validate_fields: "hops must be a positive integer or None"
    expect(fail([{ type: "Edge", direction: "forward", hops: 0 }])).toMatchObject({
      path: "chain[0].hops",
      message: expect.stringMatching(/^\[E103\] 'hops' must be a positive integer/),
    });
    // ... and the output slice against the traversal bounds as given
    expect(fail([{ type: "Edge", direction: "forward", max_hops: 2, output_min_hops: 3 }])).toMatchObject({
      path: "chain[0].output_min_hops",
      message: expect.stringMatching(/^\[E103\]/),
    });
    // against the resolved bound: hops is max_hops, and an absent one is 1
    expect(fail([{ type: "Edge", direction: "forward", hops: 2, output_min_hops: 3 }])).toMatchObject({ path: "chain[0].output_min_hops" });
    expect(fail([{ type: "Edge", direction: "forward", output_min_hops: 2 }])).toMatchObject({ path: "chain[0].output_min_hops" });
    expect(fail([{ type: "Edge", direction: "forward", min_hops: 2, max_hops: 3, output_max_hops: 1 }])).toMatchObject({
      path: "chain[0].output_max_hops",
    });
    expect(fail([{ type: "Edge", direction: "forward", min_hops: 2, max_hops: 3, output_max_hops: 1 }])).toMatchObject({
      path: "chain[0].output_max_hops",
      message: expect.stringMatching(/^\[E103\]/),
    });
    expect(fail({ type: "Let", bindings: { a: { type: "Ref", ref: "nope" } } }).message).toMatch(/^\[E151\]/);
    expect(fail({ type: "Let", bindings: { a: { type: "Ref", ref: "b" }, b: { type: "Ref", ref: "a" } } }).message).toMatch(/^\[E153\]/);
    expect(fail({ type: "Let", bindings: { a: [{ type: "Node" }] }, output: "zz" }).message).toMatch(/^\[E151\]/);
  });
});

describe("schema/json/gfql refuses malformed wire JSON before parsing", () => {
  const cases: Array<[unknown, string, string]> = [
    [[{ type: "Edge", direction: "forward", hops: "2" }], "E103", "chain[0].hops"],
    [[{ type: "Edge", direction: "forward", to_fixed_point: "yes" }], "E103", "chain[0].to_fixed_point"],
    [[{ type: "Edge", direction: "forward", output_max_hops: 1.5 }], "E103", "chain[0].output_max_hops"],
    [[{ type: "Edge", direction: "forward", label_node_hops: "" }], "E103", "chain[0].label_node_hops"],
    [[{ type: "Edge", direction: "forward", edge_match: [1] }], "E201", "chain[0].edge_match"],
    [[{ type: "Node", name: 3 }], "E204", "chain[0].name"],
    [
      [{ type: "Node", filter_dict: { t: { type: "GT", val: { type: "instant", value: "x" } } } }],
      "E203",
      "chain[0].filter_dict.t.val.type",
    ],
    [[{ type: "Node", filter_dict: { t: { type: "GT", val: [1] } } }], "E203", "chain[0].filter_dict.t.val"],
    [[{ type: "Node", filter_dict: { t: { type: "Between", lower: 1 } } }], "E105", "chain[0].filter_dict.t"],
    [[{ type: "Node", filter_dict: { t: { type: "Contains", pat: "a", flags: -2 } } }], "E203", "chain[0].filter_dict.t.flags"],
    [
      [{ type: "Node", filter_dict: { t: { type: "AllOf", predicates: [{ type: "GT" }] } } }],
      "E105",
      "chain[0].filter_dict.t.predicates[0]",
    ],
    [[{ type: "Node", filter_dict: { t: { val: 1 } } }], "E105", "chain[0].filter_dict.t"],
    [[{ type: "Node" }, { type: "Let", bindings: {} }], "E101", "chain[1].type"],
    [{ type: "Chain", chain: [{ type: "Node" }], where: [{ eq: { left: "a.x", right: "bx" } }] }, "E101", "where[0].eq.right"],
    [
      { type: "Chain", chain: [{ type: "Node" }], where: [{ eq: { left: "a.x", right: "b.x" }, lt: { left: "a.x", right: "b.x" } }] },
      "E101",
      "where[0]",
    ],
    [{ type: "Let", bindings: { a: { type: "Ref", ref: "" } } }, "E105", "bindings.a.ref"],
    [
      { type: "Let", bindings: { a: { type: "Ref", ref: "b", chain: [{ type: "Edge" }] }, b: [{ type: "Node" }] } },
      "E105",
      "bindings.a.chain[0]",
    ],
    [{ type: "Let", bindings: { a: { type: "Let", bindings: { b: { type: "Node", x: 1 } } } } }, "E102", "bindings.a.bindings.b"],
    [{ type: "Call", function: "rows", params: [] }, "E201", "chain[0].params"],
    [{ type: "Chain", chain: {} }, "E101", "chain"],
    [{ type: "Chain" }, "E105", ""],
    [{ type: "Graph" }, "E101", "type"],
  ];
  it.each(cases)("%j -> %s at %s", (query, code, path) => {
    const e = fail(query);
    expect(e.message.startsWith(`[${code}] `)).toBe(true);
    expect(e.path).toBe(path);
  });

  it("keeps the semantic checks: safelist and params after the schema", () => {
    expect(fail([{ type: "Call", function: "umap" }]).message).toMatch(/^\[unsupported-call\] 'umap' is not supported yet; supported: /);
    expect(fail([{ type: "Call", function: "rows", params: { nope: 1 } }]).message).toMatch(/^\[E303\] unknown parameter 'nope'/);
  });
});
