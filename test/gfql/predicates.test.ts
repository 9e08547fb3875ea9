// Filter dict values and predicates, checked as single Node steps over the sample graph.

import { describe, expect, it } from "vitest";
import { errorOf, nodesWhere, sampleGraph } from "./helpers.ts";

describe("filter_dict values", () => {
  it("plain values mean equality and lists mean membership", () => {
    expect(nodesWhere({ type: "person" })).toEqual(["a", "b", "d", "f"]);
    expect(nodesWhere({ type: "person", age: 20 })).toEqual(["b"]);
    expect(nodesWhere({ id: ["a", "c", "zz"] })).toEqual(["a", "c"]);
    expect(nodesWhere({})).toEqual(["a", "b", "c", "d", "e", "f"]);
  });

  it("comparisons skip nulls (c has a null age)", () => {
    expect(nodesWhere({ age: { type: "GT", val: 25 } })).toEqual(["a", "d", "f"]);
    expect(nodesWhere({ age: { type: "LT", val: 25 } })).toEqual(["b", "e"]);
    expect(nodesWhere({ age: { type: "GE", val: 30 } })).toEqual(["a", "d", "f"]);
    expect(nodesWhere({ age: { type: "LE", val: 20 } })).toEqual(["b", "e"]);
    expect(nodesWhere({ age: { type: "EQ", val: 50 } })).toEqual(["d"]);
    // NE excludes nulls too: c is not returned
    expect(nodesWhere({ age: { type: "NE", val: 50 } })).toEqual(["a", "b", "e", "f"]);
  });

  it("Between and IsIn", () => {
    expect(nodesWhere({ age: { type: "Between", lower: 20, upper: 40 } })).toEqual(["a", "b", "f"]);
    expect(nodesWhere({ age: { type: "Between", lower: 20, upper: 40, inclusive: false } })).toEqual(["a"]);
    expect(nodesWhere({ type: { type: "IsIn", options: ["bot", "company"] } })).toEqual(["c", "e"]);
  });

  it("string predicates", () => {
    expect(nodesWhere({ nick: { type: "Contains", pat: "e" } })).toEqual(["d", "e"]);
    expect(nodesWhere({ nick: { type: "Contains", pat: "A", case: false } })).toEqual(["a", "f"]);
    expect(nodesWhere({ nick: { type: "Contains", pat: "-", regex: false } })).toEqual(["e"]);
    expect(nodesWhere({ nick: { type: "Contains", pat: "zz", na: true } })).toEqual(["c"]);
    expect(nodesWhere({ nick: { type: "Startswith", pat: ["A", "b"] } })).toEqual(["a", "b"]);
    expect(nodesWhere({ nick: { type: "Startswith", pat: "b", case: false } })).toEqual(["b"]);
    expect(nodesWhere({ nick: { type: "Endswith", pat: "y" } })).toEqual(["f"]);
    expect(nodesWhere({ nick: { type: "Match", pat: "[A-Z]" } })).toEqual(["a", "d", "f"]);
    expect(nodesWhere({ nick: { type: "Fullmatch", pat: "[A-Z][a-z]" } })).toEqual(["a"]);
    expect(nodesWhere({ nick: { type: "Fullmatch", pat: "al", flags: 2 } })).toEqual(["a"]);
  });

  it("null predicates", () => {
    expect(nodesWhere({ age: { type: "IsNull" } })).toEqual(["c"]);
    expect(nodesWhere({ nick: { type: "IsNA" } })).toEqual(["c"]);
    expect(nodesWhere({ age: { type: "NotNull" } })).toEqual(["a", "b", "d", "e", "f"]);
    expect(nodesWhere({ nick: { type: "NotNA" } })).toEqual(["a", "b", "d", "e", "f"]);
  });

  it("E301 for a missing column under strictness strict, E302 for a plain value or a text test of the wrong kind", () => {
    const missing = errorOf(() => nodesWhere({ salary: 1 }, sampleGraph(), { strictness: "strict" }));
    expect(missing.code).toBe("INVALID_INPUT");
    expect(missing.message).toMatch(/^\[E301\] column 'salary' not found/);
    expect(missing.path).toBe("chain[0].filter_dict.salary");
    expect(errorOf(() => nodesWhere({ age: "thirty" })).message).toMatch(/^\[E302\]/);
    expect(errorOf(() => nodesWhere({ type: 3 })).message).toMatch(/^\[E302\]/);
    // pygraphistry's comparison predicates do not refuse another kind: it satisfies nothing (predicate-semantics.test.ts)
    expect(nodesWhere({ age: { type: "GT", val: "x" } })).toEqual([]);
    expect(errorOf(() => nodesWhere({ age: { type: "Contains", pat: "1" } })).message).toMatch(/^\[E302\]/);
  });
});
