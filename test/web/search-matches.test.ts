// The search's matching and the inspector's neighbour list, in Node: ranking, field filters by row, distinct neighbours.
import { describe, expect, it } from "vitest";
import { buildTopology } from "../../web/src/graph-topology.ts";
import { neighboursOf } from "../../web/src/inspector-neighbour-ids.ts";
import type { SearchField } from "../../web/src/search-columns.ts";
import { findMatches } from "../../web/src/search-matches.ts";

const field = (name: string, text: string[], shown?: number[]): SearchField => ({
  name,
  text,
  lower: text.map((value) => value.toLowerCase()),
  shown: shown ? Uint8Array.from(shown) : undefined,
});

describe("findMatches", () => {
  it("counts each row once, exact then prefix then substring, each by its best field", () => {
    const fields = [field("name", ["Alphabet", "bet", "Beta", "alpha", "zed"]), field("note", ["", "", "", "BET", "a bet"])];
    const found = findMatches(fields, "bet", 5);
    expect([...found.rows]).toEqual([1, 3, 2, 0, 4]);
    // Row 3 matched exactly in the note, row 4 only inside it.
    expect([...found.fields]).toEqual([0, 1, 0, 0, 1]);
    expect(findMatches(fields, "nothing", 5).rows).toHaveLength(0);
  });

  it("skips a field where the filters hide it", () => {
    const fields = [field("name", ["a", "b", "c"]), field("secret", ["key", "key", "key"], [0, 1, 0])];
    expect([...findMatches(fields, "key", 3).rows]).toEqual([1]);
  });
});

describe("neighboursOf", () => {
  it("lists distinct neighbours in link order, without self-loops", () => {
    const ids = Float64Array.from([0, 1, 2, 3]);
    const topology = buildTopology(ids, Float64Array.from([0, 1, 0, 2, 0]), Float64Array.from([1, 0, 0, 0, 3]));
    expect(neighboursOf(topology, 0)).toEqual([1, 2, 3]);
    expect(topology.degree[0]).toBe(6);
    expect(neighboursOf(topology, 3)).toEqual([0]);
  });
});
