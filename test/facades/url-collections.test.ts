// Reading graph.html's collections parameter: sets with a GFQL chain apply, the rest is skipped with a reason.
import { describe, expect, it } from "vitest";
import { readUrlCollections } from "../../facades/web/url-collections.ts";

describe("the collections URL parameter", () => {
  it("turns sets into collections, in order, with their colors", () => {
    const raw = JSON.stringify([
      { type: "set", id: "a", node_color: "00BFFF", expr: { type: "gfql_chain", gfql: [{ type: "Node" }] } },
      { type: "set", id: "b", name: "B", node_color: "blue", expr: { type: "gfql_chain", gfql: [] } },
    ]);
    expect(readUrlCollections(raw)).toEqual({
      sets: [
        { name: "a", query: [{ type: "Node" }], nodeColor: "#00BFFF" },
        { name: "B", query: [] },
      ],
      skipped: [],
    });
  });

  it("skips what it cannot apply and says why, never failing", () => {
    expect(readUrlCollections(null)).toEqual({ sets: [], skipped: [] });
    expect(readUrlCollections("{nope").skipped).toEqual(["the collections parameter is not JSON"]);
    expect(readUrlCollections('{"a":1}').skipped).toEqual(["the collections parameter is not a list"]);
    const intersection = readUrlCollections(
      JSON.stringify([{ type: "intersection", id: "x", expr: { type: "intersection", sets: ["a"] } }]),
    );
    expect(intersection.sets).toEqual([]);
    expect(intersection.skipped[0]).toMatch(/^x: only sets with a gfql_chain/);
  });
});
