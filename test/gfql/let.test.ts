// Let bindings: dependency order, Refs running chains on earlier results, output selection, nested scopes.

import { describe, expect, it } from "vitest";
import { run, sampleGraph } from "./helpers.ts";

describe("Let", () => {
  it("a Ref runs its chain on the referenced result", () => {
    // people = a, b, d, f with no edges; hopping from them inside that result finds no edges, so the Ref's
    // chain is evaluated on the bound result, not on the root graph
    const q = {
      type: "Let",
      bindings: {
        people: { type: "Node", filter_dict: { type: "person" } },
        hopped: { type: "Ref", ref: "people", chain: [{ type: "Edge", direction: "forward" }] },
      },
    };
    expect(run(q)).toEqual({ nodes: [], edges: [] });
  });

  it("Refs narrow a traversal result; the last executed binding is the result", () => {
    // fromA = a->b (e0), a->c (e3); keeping only edges with rel y inside it leaves e3 (a->c)
    const q = {
      type: "Let",
      bindings: {
        narrowed: { type: "Ref", ref: "fromA", chain: [{ type: "Edge", direction: "forward", edge_match: { rel: "y" } }] },
        fromA: [
          { type: "Node", filter_dict: { id: "a" } },
          { type: "Edge", direction: "forward" },
        ],
      },
    };
    // Kahn order: fromA (no deps) then narrowed, which is last executed although declared first
    expect(run(q)).toEqual({ nodes: ["a", "c"], edges: ["e3"] });
  });

  it("bindings run in pygraphistry's order (a queue: a binding joins its end when its last dependency has run)", () => {
    // Each answer is pygraphistry's own on the sample graph: the Let answers the binding run last, which is not
    // always the last declared. a, d depend on nothing: a, d, then b and c (freed by a) -> c.
    const abc = { type: "Node", filter_dict: { id: { type: "IsIn", options: ["a", "b", "c"] } } };
    const only = (id: string) => [{ type: "Node", filter_dict: { id } }];
    const first = {
      a: abc,
      b: { type: "Ref", ref: "a", chain: only("a") },
      c: { type: "Ref", ref: "a", chain: only("b") },
      d: only("f")[0],
    };
    expect(run({ type: "Let", bindings: first })).toEqual({ nodes: ["b"], edges: [] });
    // a, c; then b (freed by a), d (freed by c); then e (freed by b) -> e
    const second = {
      a: abc,
      b: { type: "Ref", ref: "a", chain: only("a") },
      c: only("e")[0],
      d: { type: "Ref", ref: "c", chain: [] },
      e: { type: "Ref", ref: "b", chain: [{ type: "Node" }] },
    };
    expect(run({ type: "Let", bindings: second })).toEqual({ nodes: ["a"], edges: [] });
  });

  it("output picks a binding; Node, Edge and Chain bindings run on the root graph", () => {
    const q = {
      type: "Let",
      bindings: {
        bots: { type: "Node", filter_dict: { type: "bot" } },
        xs: { type: "Edge", direction: "forward", edge_match: { rel: "x" } },
        all: { type: "Chain", chain: [{ type: "Node", filter_dict: { id: ["c", "d"] } }] },
      },
      output: "xs",
    };
    expect(run(q)).toEqual({ nodes: ["a", "b", "c", "d", "e"], edges: ["e0", "e2", "e4"] });
    expect(run({ ...q, output: "bots" })).toEqual({ nodes: ["e"], edges: [] });
    expect(run({ ...q, output: undefined })).toEqual({ nodes: ["c", "d"], edges: [] });
  });

  it("nested Lets see outer bindings", () => {
    const q = {
      type: "Let",
      bindings: {
        base: [{ type: "Edge", direction: "forward", edge_match: { rel: "x" } }],
        inner: {
          type: "Let",
          bindings: {
            fromE: {
              type: "Ref",
              ref: "base",
              chain: [
                { type: "Node", filter_dict: { id: "e" } },
                { type: "Edge", direction: "forward" },
              ],
            },
          },
        },
      },
    };
    expect(run(q)).toEqual({ nodes: ["a", "e"], edges: ["e4"] });
  });

  it("filter errors inside bindings name the binding", () => {
    const q = { type: "Let", bindings: { bad: { type: "Node", filter_dict: { nope: 1 } } } };
    expect(() => run(q, sampleGraph(), { strictness: "strict" })).toThrow(
      /\[E301\] column 'nope' not found \(at bindings\.bad\.filter_dict\.nope\)/,
    );
    // by default (warn) the absent column matches nothing, and the warning names the binding's path
    expect(run(q)).toEqual({ nodes: [], edges: [] });
  });
});
