// Chain `where` same-path comparisons between named steps; clauses are ANDed, nulls never compare true.
// Sample graph (helpers.ts): ages a30 b20 c(null) d50 e10 f40; e0 a->b w1, e1 b->c w2, e2 c->d w3, e3 a->c w4, e4 e->a w5.

import { describe, expect, it } from "vitest";
import { errorOf, run } from "./helpers.ts";

const hop = (extra: Record<string, unknown> = {}) => [
  { type: "Node", name: "x" },
  { type: "Edge", direction: "forward", name: "r", ...extra },
  { type: "Node", name: "y" },
];
const chain = (where: unknown[], ops: unknown[] = hop()) => ({ type: "Chain", chain: ops, where });

describe("same-path where", () => {
  it("compares the two ends of each edge", () => {
    // only e0 goes from an older to a younger person (30 -> 20); edges touching c (null age) never match
    expect(run(chain([{ gt: { left: "x.age", right: "y.age" } }]))).toEqual({ nodes: ["a", "b"], edges: ["e0"] });
    expect(run(chain([{ lt: { left: "x.age", right: "y.age" } }]))).toEqual({ nodes: ["a", "e"], edges: ["e4"] });
  });

  it("ANDs clauses and can compare edge columns", () => {
    // w < source age: e0 1<30, e1 2<20, e3 4<30, e4 5<10; e2's source c has no age
    expect(run(chain([{ lt: { left: "r.w", right: "x.age" } }]))).toEqual({ nodes: ["a", "b", "c", "e"], edges: ["e0", "e1", "e3", "e4"] });
    expect(run(chain([{ lt: { left: "r.w", right: "x.age" } }, { eq: { left: "x.type", right: "y.type" } }]))).toEqual({
      nodes: ["a", "b"],
      edges: ["e0"],
    });
  });

  it("pairs the ends of multi-hop walks", () => {
    // from a (person) within 2 hops: b (person), c (company), d (person, via c); same type keeps b and d, and the
    // walk a->c->d still passes through c
    const ops = [
      { type: "Node", filter_dict: { id: "a" }, name: "x" },
      { type: "Edge", direction: "forward", hops: 2 },
      { type: "Node", name: "y" },
    ];
    expect(run(chain([{ eq: { left: "x.type", right: "y.type" } }], ops))).toEqual({
      nodes: ["a", "b", "c", "d"],
      edges: ["e0", "e2", "e3"],
    });
  });

  it("refuses missing columns and multi-hop edge aliases", () => {
    expect(errorOf(() => run(chain([{ eq: { left: "x.salary", right: "y.age" } }])))).toMatchObject({ path: "where[0].eq.left" });
    expect(errorOf(() => run(chain([{ eq: { left: "r.w", right: "y.age" } }], hop({ hops: 2 })))).message).toMatch(/^\[E101\]/);
    expect(errorOf(() => run(chain([{ like: { left: "x.age", right: "y.age" } }]))).message).toMatch(/^\[E101\]/);
  });
});
