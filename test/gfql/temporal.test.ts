// Temporal operands ({"type":"datetime"|"date","value":ISO}) compared against Datetime columns.

import pl from "nodejs-polars";
import { describe, expect, it } from "vitest";
import { nodesWhere } from "./helpers.ts";

const graph = () => ({
  nodes: pl.DataFrame({
    id: ["p", "q", "r"],
    at: pl.Series("at", [new Date("2024-01-01T00:00:00Z"), new Date("2024-06-01T12:00:00Z"), null]),
  }),
  edges: pl.DataFrame({ eid: ["pq"], s: ["p"], d: ["q"] }),
  nodeId: "id",
  source: "s",
  destination: "d",
});

describe("temporal predicates", () => {
  it("compares datetimes and refuses numbers against them", () => {
    const dt = (value: string) => ({ type: "datetime", value });
    expect(nodesWhere({ at: { type: "GT", val: dt("2024-03-01T00:00:00") } }, graph())).toEqual(["q"]);
    expect(nodesWhere({ at: { type: "LE", val: dt("2024-01-01T00:00:00Z") } }, graph())).toEqual(["p"]);
    expect(nodesWhere({ at: { type: "Between", lower: dt("2023-12-31T00:00:00"), upper: dt("2024-07-01T00:00:00") } }, graph())).toEqual([
      "p",
      "q",
    ]);
    expect(() => nodesWhere({ at: { type: "GT", val: 3 } }, graph())).toThrow(/\[E302\]/);
  });
});
