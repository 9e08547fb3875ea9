// Predicate cases for the GFQL differential (run.ts --focus predicates): a node table with columns of every kind
// pandas users have (integers, floats with NaN, text with nulls, case and digits, booleans, naive and UTC datetimes),
// and one-step chains, each filtering one column with one of pygraphistry's predicates and random parameters, on
// the columns it is meant for and on the others (where both sides must refuse, or agree on what a mismatch means).

import { seeded } from "./seeded.ts";

export type PredicateCase = {
  nodes: Record<string, unknown[]>;
  edges: Record<string, unknown[]>;
  queries: unknown[];
  names: string[];
  /** Columns given as ISO text that both sides read as datetimes: naive, and UTC. */
  datetimes: string[];
  datetimesUtc: string[];
};

export function generatePredicateCase(seed: number): PredicateCase {
  const { rnd, int, pick } = seeded(seed, 8);
  const maybe = <T>(p: number, x: () => T): T | null => (rnd() < p ? null : x());
  const words = ["alpha", "Beta", "gamma", "DELTA", "alp", "x-1", "Zed", "42", "3.5", "  ", "", "Title Case", "ünï", "a.b", "AB12"];
  const stamp = () => {
    const month = int(1, 12);
    const day = pick([1, 1, 15, 28, 29, 30, 31]);
    const last = new Date(Date.UTC(2024, month, 0)).getUTCDate();
    const year = pick([2023, 2024]);
    const dd = Math.min(day, year === 2023 && month === 2 ? 28 : last);
    const hh = pick([0, 0, 9, 23]);
    return `${year}-${String(month).padStart(2, "0")}-${String(dd).padStart(2, "0")}T${String(hh).padStart(2, "0")}:${pick(["00", "30"])}:00`;
  };
  const n = int(6, 14);
  const nodes = {
    id: [] as string[],
    k: [] as number[],
    score: [] as (number | null)[],
    name: [] as (string | null)[],
    flag: [] as boolean[],
    ts: [] as (string | null)[],
    tsu: [] as (string | null)[],
  };
  for (let i = 0; i < n; i++) {
    nodes.id.push(`n${i}`);
    nodes.k.push(int(-3, 9));
    nodes.score.push(maybe(0.2, () => Math.round(rnd() * 100) / 10));
    nodes.name.push(i > 0 ? maybe(0.15, () => pick(words)) : pick(words));
    nodes.flag.push(rnd() < 0.5);
    nodes.ts.push(i > 0 ? maybe(0.15, stamp) : stamp());
    nodes.tsu.push(stamp());
  }
  const edges = { eid: ["e0"], s: ["n0"], d: ["n1"] };

  const number = () => pick([int(-3, 9), Math.round(rnd() * 100) / 10, 0]);
  const temporal = () =>
    pick<unknown>([
      { type: "datetime", value: stamp(), timezone: "UTC" },
      { type: "datetime", value: stamp() },
      { type: "date", value: stamp().slice(0, 10) },
      { type: "time", value: pick(["00:00:00", "09:00:00", "12:00:00", "23:30:00"]) },
    ]);
  // ISO text, which pandas reads as a Timestamp against a datetime column.
  const dateText = () => pick([stamp().slice(0, 10), stamp().replace("T", " "), stamp(), `${stamp()}Z`]);
  const scalar = () => pick<unknown>([number(), number(), pick(words), temporal(), dateText(), pick([true, false])]);
  const pattern = () => pick(["al", "a", "^a", "a.p", "[0-9]", "^[A-Z]", "e$", "\\d+", "x-", "ï", "", "Z|g"]);
  const predicate = (): Record<string, unknown> => {
    const kind = pick([
      "cmp",
      "cmp",
      "Between",
      "IsIn",
      "IsNA",
      "NotNA",
      "Contains",
      "Startswith",
      "Endswith",
      "Match",
      "Fullmatch",
      "callable",
      "IsNull",
      "NotNull",
      "Duplicated",
      "calendar",
    ]);
    if (kind === "cmp") return { type: pick(["GT", "LT", "GE", "LE", "EQ", "NE"]), val: scalar() };
    if (kind === "Between") {
      const [lower, upper] = rnd() < 0.7 ? [int(-3, 4), int(3, 9)] : [temporal(), temporal()];
      return { type: "Between", lower, upper, inclusive: rnd() < 0.5 };
    }
    if (kind === "IsIn") return { type: "IsIn", options: [scalar(), scalar(), ...(rnd() < 0.3 ? [pick(words)] : [])] };
    if (kind === "Contains") {
      const step: Record<string, unknown> = { type: "Contains", pat: pattern(), case: rnd() < 0.7, regex: rnd() < 0.6 };
      if (rnd() < 0.2) step.flags = 2;
      if (rnd() < 0.3) step.na = rnd() < 0.5;
      return step;
    }
    if (kind === "Startswith" || kind === "Endswith") {
      const pat = rnd() < 0.2 ? [pick(["al", "B", "Z"]), pick(["x", "g", "ï"])] : pick(["al", "B", "a", "ta", "1", "e", ""]);
      const step: Record<string, unknown> = { type: kind, pat, case: rnd() < 0.7 };
      if (rnd() < 0.3) step.na = rnd() < 0.5;
      return step;
    }
    if (kind === "Match" || kind === "Fullmatch") {
      const step: Record<string, unknown> = { type: kind, pat: pattern(), case: rnd() < 0.7 };
      if (rnd() < 0.2) step.flags = 2;
      if (rnd() < 0.3) step.na = rnd() < 0.5;
      return step;
    }
    if (kind === "callable")
      return { type: pick(["IsNumeric", "IsAlpha", "IsDigit", "IsLower", "IsUpper", "IsSpace", "IsAlnum", "IsDecimal", "IsTitle"]) };
    if (kind === "Duplicated") return { type: "Duplicated", keep: pick<unknown>(["first", "last", false]) };
    if (kind === "calendar")
      return { type: pick(["IsMonthStart", "IsMonthEnd", "IsQuarterStart", "IsQuarterEnd", "IsYearStart", "IsYearEnd", "IsLeapYear"]) };
    return { type: kind };
  };
  const columns = ["k", "score", "name", "flag", "ts", "tsu"];
  const queries: unknown[] = [];
  for (let q = 0; q < 40; q++) {
    queries.push({ type: "Chain", chain: [{ type: "Node", filter_dict: { [pick(columns)]: predicate() } }] });
  }
  return { nodes, edges, queries, names: [], datetimes: ["ts"], datetimesUtc: ["tsu"] };
}
