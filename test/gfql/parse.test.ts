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
    expect(edge({ hops: 0 })).toEqual([0, 0, false]);
    expect(edge({ min_hops: 0, max_hops: 2 })).toEqual([0, 2, false]);
    expect(edge({ hops: null, to_fixed_point: true })).toEqual([1, null, true]);
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

  it("query strings, unimplemented Calls, RemoteGraph and unknown where aliases", () => {
    expect(fail([{ type: "Node", query: "age > 3" }])).toMatchObject({ path: "chain[0].query" });
    expect(fail([{ type: "Edge", direction: "forward", edge_query: "w > 1" }]).message).toMatch(/edge_query.*not supported yet/);
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
    expect(fail([]).message).toMatch(/^\[E106\]/);
    expect(
      fail([
        { type: "Node", name: "x" },
        { type: "Edge", direction: "forward", name: "x" },
      ]),
    ).toMatchObject({
      path: "chain[1].name",
    });
    expect(fail({ type: "Let", bindings: { a: { type: "Ref", ref: "nope" } } }).message).toMatch(/^\[E151\]/);
    expect(fail({ type: "Let", bindings: { a: { type: "Ref", ref: "b" }, b: { type: "Ref", ref: "a" } } }).message).toMatch(/^\[E153\]/);
    expect(fail({ type: "Let", bindings: { a: [{ type: "Node" }] }, output: "zz" }).message).toMatch(/^\[E151\]/);
  });
});
