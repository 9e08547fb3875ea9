// Duplicated, AllOf, the string-class tests (Python str.isX) and the date-part tests (pandas .dt.is_X).

import pl from "nodejs-polars";
import { describe, expect, it } from "vitest";
import { errorOf, nodesWhere } from "./helpers.ts";

const P = (type: string, extra: Record<string, unknown> = {}) => ({ type, ...extra });

describe("Duplicated and AllOf", () => {
  // types in id order: a person, b person, c company, d person, e bot, f person
  it("Duplicated marks repeats: all but the first, all but the last, or all of them", () => {
    expect(nodesWhere({ type: P("Duplicated") })).toEqual(["b", "d", "f"]);
    expect(nodesWhere({ type: P("Duplicated", { keep: "last" }) })).toEqual(["a", "b", "d"]);
    expect(nodesWhere({ type: P("Duplicated", { keep: false }) })).toEqual(["a", "b", "d", "f"]);
    expect(errorOf(() => nodesWhere({ type: P("Duplicated", { keep: "none" }) })).message).toMatch(/^\[E203\]/);
  });

  it("AllOf ANDs its predicates", () => {
    // ages a30 b20 c null d50 e10 f40: 20 <= age < 45
    expect(nodesWhere({ age: P("AllOf", { predicates: [P("GE", { val: 20 }), P("LT", { val: 45 })] }) })).toEqual(["a", "b", "f"]);
    expect(errorOf(() => nodesWhere({ age: P("AllOf", { predicates: [] }) })).message).toMatch(/^\[E203\]/);
  });
});

describe("string-class tests", () => {
  const words = ["abc", "ABC", "Abc Def", "123", "12.5", "  ", "a1", "", null, "²"];
  const graph = () => ({
    nodes: pl.DataFrame({ id: words.map((_, i) => `n${i}`), s: words }),
    edges: pl.DataFrame({ eid: ["x"], s: ["n0"], d: ["n1"] }),
    nodeId: "id",
    source: "s",
    destination: "d",
  });
  /** The matched values rather than ids, in table order. */
  const matching = (type: string) => nodesWhere({ s: P(type) }, graph()).map((id) => words[Number(id.slice(1))]);

  it("follow Python's str methods; empty strings and nulls never match", () => {
    // "²" is a digit and numeric in Python but not decimal
    expect(matching("IsNumeric")).toEqual(["123", "²"]);
    expect(matching("IsDigit")).toEqual(["123", "²"]);
    expect(matching("IsDecimal")).toEqual(["123"]);
    expect(matching("IsAlpha")).toEqual(["abc", "ABC"]);
    expect(matching("IsAlnum")).toEqual(["abc", "ABC", "123", "a1", "²"]);
    expect(matching("IsSpace")).toEqual(["  "]);
    // islower/isupper need a cased character and ignore the uncased ones ("a1")
    expect(matching("IsLower")).toEqual(["abc", "a1"]);
    expect(matching("IsUpper")).toEqual(["ABC"]);
    // "ABC" is not titlecase: B follows a cased character
    expect(matching("IsTitle")).toEqual(["Abc Def"]);
  });

  it("refuse non-string columns", () => {
    expect(errorOf(() => nodesWhere({ age: P("IsAlpha") })).message).toMatch(/^\[E302\]/);
  });
});

describe("date-part tests", () => {
  const days = [
    "2024-01-01T00:00:00Z",
    "2024-02-29T10:00:00Z",
    "2023-03-31T00:00:00Z",
    "2023-12-31T23:00:00Z",
    "2023-07-01T12:00:00Z",
    "2100-02-28T00:00:00Z",
  ];
  const graph = () => ({
    nodes: pl.DataFrame({
      id: ["jan1", "feb29", "mar31", "dec31", "jul1", "y2100", "none"],
      at: pl.Series("at", [...days.map((d) => new Date(d)), null]),
    }),
    edges: pl.DataFrame({ eid: ["x"], s: ["jan1"], d: ["feb29"] }),
    nodeId: "id",
    source: "s",
    destination: "d",
  });
  const where = (type: string) => nodesWhere({ at: P(type) }, graph());

  it("follow pandas .dt.is_*; the time of day is ignored and nulls never match", () => {
    expect(where("IsMonthStart")).toEqual(["jan1", "jul1"]);
    // 2100 is not a leap year, so Feb 28 ends its month
    expect(where("IsMonthEnd")).toEqual(["dec31", "feb29", "mar31", "y2100"]);
    expect(where("IsQuarterStart")).toEqual(["jan1", "jul1"]);
    expect(where("IsQuarterEnd")).toEqual(["dec31", "mar31"]);
    expect(where("IsYearStart")).toEqual(["jan1"]);
    expect(where("IsYearEnd")).toEqual(["dec31"]);
    expect(where("IsLeapYear")).toEqual(["feb29", "jan1"]);
    expect(errorOf(() => nodesWhere({ nick: P("IsLeapYear") })).message).toMatch(/^\[E302\]/);
  });
});
