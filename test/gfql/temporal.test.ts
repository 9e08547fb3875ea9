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
  it("compares datetimes; a number satisfies no comparison with them (pygraphistry)", () => {
    const dt = (value: string) => ({ type: "datetime", value });
    expect(nodesWhere({ at: { type: "GT", val: dt("2024-03-01T00:00:00") } }, graph())).toEqual(["q"]);
    expect(nodesWhere({ at: { type: "LE", val: dt("2024-01-01T00:00:00Z") } }, graph())).toEqual(["p"]);
    expect(nodesWhere({ at: { type: "Between", lower: dt("2023-12-31T00:00:00"), upper: dt("2024-07-01T00:00:00") } }, graph())).toEqual([
      "p",
      "q",
    ]);
    expect(nodesWhere({ at: { type: "GT", val: 3 } }, graph())).toEqual([]);
  });
});

describe("time-of-day operands", () => {
  // polars Time columns hold nanoseconds since midnight: 01:00, 02:30:15 and null
  const H = 3_600_000_000_000;
  const timeGraph = () => ({
    nodes: pl.DataFrame({ id: ["one", "half", "none"], t: pl.Series("t", [H, 2.5 * H + 15e9, null]).cast(pl.Time) }),
    edges: pl.DataFrame({ eid: ["x"], s: ["one"], d: ["half"] }),
    nodeId: "id",
    source: "s",
    destination: "d",
  });
  const tm = (value: string) => ({ type: "time", value });

  it("compares time columns with {type: time} operands and refuses other operands", () => {
    expect(nodesWhere({ t: { type: "GT", val: tm("01:30") } }, timeGraph())).toEqual(["half"]);
    expect(nodesWhere({ t: { type: "EQ", val: tm("02:30:15") } }, timeGraph())).toEqual(["half"]);
    expect(nodesWhere({ t: { type: "Between", lower: tm("00:00"), upper: tm("01:00:00.000") } }, timeGraph())).toEqual(["one"]);
    expect(() => nodesWhere({ t: { type: "GT", val: 3 } }, timeGraph())).toThrow(/\[E302\]/);
    expect(() => nodesWhere({ t: { type: "GT", val: tm("25:00") } }, timeGraph())).toThrow(/\[E203\]/);
  });
});
