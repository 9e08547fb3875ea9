// Predicates across column kinds, as pygraphistry answers them on pandas: every expected value below is the answer
// pygraphistry's own engine gave on the same table (its snapshot f6edc14, Debian's pandas 1.5.3; the table and the
// queries are scripts/gfql-differential's, which compares thousands of random ones the same way).

import pl from "nodejs-polars";
import { describe, expect, it } from "vitest";
import { errorOf, nodesWhere } from "./helpers.ts";

const instants = (texts: (string | null)[]) => texts.map((t) => (t === null ? null : Date.parse(`${t}Z`)));

const graph = () => ({
  nodes: pl
    .DataFrame({
      id: ["a", "b", "c", "d"],
      name: ["x", null, "3", "y"],
      score: [1.0, null, 3.0, Number.NaN],
      k: [1, 2, 3, 4],
      flag: [true, false, true, false],
    })
    .withColumns(
      // pandas' datetime64[ns] and datetime64[ns, UTC]
      pl
        .Series("ts", instants(["2024-01-01T00:00:00", null, "2024-03-01T10:00:00", "2023-01-01T00:00:00"]), pl.Int64)
        .cast(pl.Datetime("ms"))
        .cast(pl.Datetime("ns")),
      pl
        .Series("tsu", instants(["2024-01-01T00:00:00", "2024-02-01T00:00:00", "2024-03-01T10:00:00", "2023-01-01T00:00:00"]), pl.Int64)
        .cast(pl.Datetime("ms"))
        .cast(pl.Datetime("ns", "UTC")),
    ),
  edges: pl.DataFrame({ eid: ["ab"], s: ["a"], d: ["b"] }),
  nodeId: "id",
  source: "s",
  destination: "d",
});

const where = (column: string, predicate: unknown) => nodesWhere({ [column]: predicate }, graph());
const dt = (value: string, timezone?: string) => ({ type: "datetime", value, ...(timezone ? { timezone } : {}) });
const date = (value: string) => ({ type: "date", value });
const time = (value: string) => ({ type: "time", value });

describe("comparisons across kinds (pygraphistry's _safe_scalar_compare)", () => {
  it("never satisfies == or an ordering against another kind; != holds on the present cells", () => {
    expect(where("name", { type: "NE", val: 0.8 })).toEqual(["a", "c", "d"]);
    expect(where("name", { type: "EQ", val: 3 })).toEqual([]);
    expect(where("name", { type: "GT", val: 3 })).toEqual([]);
    expect(where("score", { type: "NE", val: "x" })).toEqual(["a", "c"]);
    expect(where("k", { type: "NE", val: "x" })).toEqual(["a", "b", "c", "d"]);
    expect(where("k", { type: "GT", val: "x" })).toEqual([]);
    expect(where("ts", { type: "NE", val: 1 })).toEqual(["a", "c", "d"]);
    expect(where("tsu", { type: "NE", val: 1 })).toEqual(["a", "b", "c", "d"]);
    expect(where("ts", { type: "GT", val: 3 })).toEqual([]);
    expect(where("flag", { type: "NE", val: "x" })).toEqual(["a", "b", "c", "d"]);
    expect(where("name", { type: "GT", val: "a" })).toEqual(["a", "d"]);
  });

  it("a boolean column against a number satisfies nothing, against a boolean orders false before true", () => {
    expect(where("flag", { type: "GT", val: 0 })).toEqual([]);
    expect(where("flag", { type: "EQ", val: 1 })).toEqual([]);
    expect(where("flag", { type: "NE", val: 1 })).toEqual([]);
    expect(where("flag", { type: "GE", val: true })).toEqual(["a", "c"]);
    expect(where("flag", { type: "LT", val: true })).toEqual(["b", "d"]);
    expect(where("k", { type: "GT", val: false })).toEqual(["a", "b", "c", "d"]);
    expect(where("k", { type: "LE", val: true })).toEqual(["a"]);
  });

  it("a NaN cell satisfies no comparison, != included", () => {
    expect(where("score", { type: "GT", val: 2 })).toEqual(["c"]);
    expect(where("score", { type: "NE", val: 1 })).toEqual(["c"]);
  });

  it("reads ISO text against a datetime column as pandas reads it (a Timestamp)", () => {
    expect(where("ts", { type: "GT", val: "2024-01-15" })).toEqual(["c"]);
    expect(where("tsu", { type: "GT", val: "2024-01-15" })).toEqual(["b", "c"]);
    expect(where("ts", { type: "EQ", val: "2024-01-01" })).toEqual(["a"]);
    expect(where("ts", { type: "NE", val: "2024-01-01" })).toEqual(["c", "d"]);
    expect(where("ts", { type: "GT", val: "abc" })).toEqual([]);
    expect(where("ts", { type: "EQ", val: "abc" })).toEqual([]);
  });

  it("a date operand against another kind: == nowhere, != on present cells, an ordering is refused as pandas refuses it", () => {
    expect(where("score", { type: "EQ", val: dt("2024-01-01T00:00:00") })).toEqual([]);
    expect(where("name", { type: "NE", val: dt("2024-01-01T00:00:00") })).toEqual(["a", "c", "d"]);
    expect(errorOf(() => where("score", { type: "GT", val: dt("2024-01-01T00:00:00") })).message).toMatch(/^\[E302\]/);
    expect(errorOf(() => where("ts", { type: "Between", lower: 1, upper: 5 })).message).toMatch(/^\[E302\]/);
    expect(errorOf(() => where("name", { type: "Between", lower: 1, upper: 5 })).message).toMatch(/^\[E302\]/);
  });
});

describe("temporal operands (pygraphistry's _prepare_temporal_series)", () => {
  it("a datetime by the instant, naive columns read as UTC, on zone-aware columns too", () => {
    expect(where("ts", { type: "GT", val: dt("2024-01-01T00:00:00") })).toEqual(["c"]);
    expect(where("ts", { type: "GT", val: dt("2024-01-01T00:00:00", "UTC") })).toEqual(["c"]);
    expect(where("tsu", { type: "GT", val: dt("2024-01-01T00:00:00") })).toEqual(["b", "c"]);
  });

  it("a date by the cell's day, a time by its time of day", () => {
    expect(where("ts", { type: "GT", val: date("2024-01-01") })).toEqual(["c"]);
    expect(where("ts", { type: "EQ", val: date("2024-03-01") })).toEqual(["c"]);
    expect(where("ts", { type: "GE", val: time("09:00:00") })).toEqual(["c"]);
    expect(where("tsu", { type: "GE", val: time("09:00:00") })).toEqual(["c"]);
    expect(where("ts", { type: "Between", lower: date("2024-01-01"), upper: time("23:00:00") })).toEqual(["a", "c"]);
    // pandas cannot compare a date with a zone-aware column (pygraphistry raises TypeError): here its UTC day counts.
    expect(where("tsu", { type: "GT", val: date("2024-01-01") })).toEqual(["b", "c"]);
  });
});

describe("IsIn (pandas' isin)", () => {
  it("matches numbers by value, 1 and 0 as true and false, and never text against numbers", () => {
    expect(where("k", { type: "IsIn", options: ["1", 2, 3.0] })).toEqual(["b", "c"]);
    expect(where("k", { type: "IsIn", options: [true] })).toEqual(["a"]);
    expect(where("flag", { type: "IsIn", options: [1] })).toEqual(["a", "c"]);
    expect(where("flag", { type: "IsIn", options: [0.0, "x"] })).toEqual(["b", "d"]);
  });

  it("a null option matches missing text, not a missing number", () => {
    expect(where("score", { type: "IsIn", options: [1, null] })).toEqual(["a"]);
    expect(where("name", { type: "IsIn", options: [3, "x", null] })).toEqual(["a", "b"]);
  });

  it("matches datetimes by text, date (its midnight), datetime and time of day", () => {
    expect(where("ts", { type: "IsIn", options: ["2024-01-01"] })).toEqual(["a"]);
    expect(where("ts", { type: "IsIn", options: [date("2024-01-01")] })).toEqual(["a"]);
    expect(where("tsu", { type: "IsIn", options: [date("2024-01-01")] })).toEqual([]);
    expect(where("tsu", { type: "IsIn", options: [dt("2024-01-01T00:00:00")] })).toEqual(["a"]);
    expect(where("ts", { type: "IsIn", options: [time("00:00:00")] })).toEqual(["a", "d"]);
    // pandas reads the options as dates only when every text among them is one; "" is then NaT
    expect(where("ts", { type: "IsIn", options: [time("12:00:00"), ""] })).toEqual(["b"]);
    expect(where("ts", { type: "IsIn", options: ["2024-01-01", "", "junk"] })).toEqual([]);
  });

  it("refuses temporal and numeric options together, as pygraphistry's IsIn does", () => {
    expect(errorOf(() => where("k", { type: "IsIn", options: [1, date("2024-01-01")] })).message).toMatch(/^\[E203\] IsIn cannot mix/);
  });
});
