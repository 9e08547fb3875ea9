// Conformance: node filters and every predicate family over MIXED (nulls, strings, dates) and STAR.
// Comparisons with null are false (NE excludes nulls too); string matchers leave nulls out unless `na` says
// otherwise; membership with a null option matches missing values (pandas isin). Worked out from graphs.ts.

import { describe, it } from "vitest";
import { type Case, checkCase, E, MIXED, N, P, STAR } from "./graphs.ts";

const node = (name: string, filter: Record<string, unknown>, nodes: string[], graph = MIXED): Case => ({
  name,
  graph,
  query: [N(filter)],
  nodes,
  edges: [],
});
const dt = (value: string) => ({ type: "datetime", value });
const date = (value: string) => ({ type: "date", value });

const comparisons: Case[] = [
  node("IsNull", { score: P("IsNull") }, ["m2", "m5"]),
  node("NotNull", { score: P("NotNull") }, ["m1", "m3", "m4", "m6"]),
  node("IsNA", { name: P("IsNA") }, ["m4"]),
  node("NotNA", { name: P("NotNA") }, ["m1", "m2", "m3", "m5", "m6"]),
  node("GT leaves nulls out", { score: P("GT", { val: 1 }) }, ["m1", "m3", "m4"]),
  node("GE", { score: P("GE", { val: 3 }) }, ["m3", "m4"]),
  node("LT", { score: P("LT", { val: 1.5 }) }, ["m6"]),
  node("LE", { score: P("LE", { val: 1.5 }) }, ["m1", "m6"]),
  node("EQ", { score: P("EQ", { val: 3 }) }, ["m3"]),
  node("NE excludes nulls", { score: P("NE", { val: 3 }) }, ["m1", "m4", "m6"]),
  node("scalar equality on strings", { name: "bob" }, ["m2"]),
  node("list membership", { code: ["abc", "ABC", "zzz"] }, ["m2", "m3"]),
  node("IsIn with a null option", { name: P("IsIn", { options: ["bob", null] }) }, ["m2", "m4"]),
  node("Between inclusive", { size: P("Between", { lower: 2, upper: 4 }) }, ["l2", "l3", "l4"], STAR),
  node("Between exclusive", { size: P("Between", { lower: 2, upper: 4, inclusive: false }) }, ["l3"], STAR),
  node("AllOf", { size: P("AllOf", { predicates: [P("GT", { val: 1 }), P("LT", { val: 4 })] }) }, ["l2", "l3"], STAR),
  node("two entries are ANDed", { color: "red", size: P("GT", { val: 5 }) }, ["h"], STAR),
  node("Duplicated keep first (row order h l1 l2 l3 l4)", { color: P("Duplicated", { keep: "first" }) }, ["l2", "l4"], STAR),
  node("Duplicated keep last", { color: P("Duplicated", { keep: "last" }) }, ["h", "l1"], STAR),
  node("Duplicated keep false", { color: P("Duplicated", { keep: false }) }, ["h", "l1", "l2", "l4"], STAR),
];

const strings: Case[] = [
  node("Contains", { name: P("Contains", { pat: "o" }) }, ["m2", "m3"]),
  node("Contains case-insensitive", { name: P("Contains", { pat: "A", case: false }) }, ["m1", "m3", "m5"]),
  node("Contains regex", { name: P("Contains", { pat: "[0-9]{2}$" }) }, ["m5"]),
  node("Contains literal (regex false)", { name: P("Contains", { pat: "e9", regex: false }) }, ["m5"]),
  node("Contains with na true keeps the null name", { name: P("Contains", { pat: "z", na: true }) }, ["m4"]),
  node("Contains IGNORECASE flag", { name: P("Contains", { pat: "^c", flags: 2 }) }, ["m3"]),
  node("Startswith any of a list", { name: P("Startswith", { pat: ["A", "b"] }) }, ["m1", "m2"]),
  node("Endswith", { name: P("Endswith", { pat: "99" }) }, ["m5"]),
  node("Match anchors at the start", { name: P("Match", { pat: "[A-Z]" }) }, ["m1", "m3"]),
  node("Fullmatch", { name: P("Fullmatch", { pat: "[a-z]+" }) }, ["m2"]),
  node("IsNumeric", { code: P("IsNumeric") }, ["m1"]),
  node("IsDigit", { code: P("IsDigit") }, ["m1"]),
  node("IsDecimal", { code: P("IsDecimal") }, ["m1"]),
  node("IsAlpha", { code: P("IsAlpha") }, ["m2", "m3", "m6"]),
  node("IsAlnum", { code: P("IsAlnum") }, ["m1", "m2", "m3", "m4", "m6"]),
  node("IsUpper", { code: P("IsUpper") }, ["m3"]),
  node("IsLower", { code: P("IsLower") }, ["m2", "m4", "m6"]),
  node("IsTitle", { code: P("IsTitle") }, ["m5"]),
  node("IsSpace", { name: P("IsSpace") }, ["m6"]),
];

const temporal: Case[] = [
  node("GT datetime", { born: P("GT", { val: dt("2020-03-01T00:00:00") }) }, ["m3", "m6"]),
  node("LE date", { born: P("LE", { val: date("2020-01-01") }) }, ["m1", "m5"]),
  node("Between dates", { born: P("Between", { lower: date("2020-01-01"), upper: date("2020-12-31") }) }, ["m1", "m2", "m6"]),
  node("IsLeapYear", { born: P("IsLeapYear") }, ["m1", "m2", "m6"]),
  node("IsMonthStart", { born: P("IsMonthStart") }, ["m1"]),
  node("IsMonthEnd (Feb 29 in a leap year)", { born: P("IsMonthEnd") }, ["m2", "m3", "m5"]),
  node("IsQuarterStart", { born: P("IsQuarterStart") }, ["m1"]),
  node("IsQuarterEnd", { born: P("IsQuarterEnd") }, ["m3", "m5"]),
  node("IsYearStart", { born: P("IsYearStart") }, ["m1"]),
  node("IsYearEnd", { born: P("IsYearEnd") }, ["m5"]),
  {
    name: "edge_match on a date column with nulls",
    graph: MIXED,
    query: [E("forward", { edge_match: { since: P("GE", { val: date("2021-01-01") }) } })],
    nodes: ["m3", "m4", "m6"],
    edges: ["x3", "x5"],
  },
  {
    name: "a predicate in a destination match over nulls",
    graph: MIXED,
    // x1 arrives at m2 (score null) and is left out; x2 (m2 -> m3) leaves from m2, so m2 stays
    query: [E("forward", { destination_node_match: { score: P("NotNull") } })],
    nodes: ["m1", "m2", "m3", "m4", "m5", "m6"],
    edges: ["x2", "x3", "x4", "x5"],
  },
];

describe.each([
  ["comparisons and membership", comparisons],
  ["string matchers and classes", strings],
  ["temporal", temporal],
])("conformance: %s", (_, cases) => {
  it.each((cases as Case[]).map((c) => [c.name, c]))("%s", (_name, c) => checkCase(c as Case));
});
