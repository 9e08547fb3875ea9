// Differential test of our DataFrame.query evaluator against real pandas (pygraphistry runs Node `query` and Edge
// `*_query` strings through pandas' DataFrame.query): random frames (ints, floats with missing values and NaN,
// strings with None, booleans) and random expressions from the grammar we support; pandas must keep the same rows,
// or both must refuse. Runs when a python3 with pandas is installed (Debian's python3-pandas); skipped otherwise.

import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pl from "nodejs-polars";
import { describe, expect, it } from "vitest";
import type { GfqlGraph } from "../../../src/gfql/execute.ts";
import { parseGfql } from "../../../src/gfql/parse.ts";
import { seeded } from "../../helpers/seeded.ts";
import { executeBoth } from "../engines.ts";

const SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), "pandas_query.py");

/** A python3 that imports pandas, or undefined. */
function pandasPython(): string | undefined {
  for (const bin of ["/usr/bin/python3", "python3"]) {
    const probe = spawnSync(bin, ["-c", "import pandas"], { encoding: "utf8" });
    if (probe.status === 0) return bin;
  }
  return undefined;
}
const PYTHON = pandasPython();

const rng = seeded;
type R = ReturnType<typeof rng>;

type Columns = { i: number[]; j: number[]; f: Array<number | null>; s: Array<string | null>; b: boolean[] };

function randomColumns(r: R, n: number): Columns {
  return {
    i: Array.from({ length: n }, () => r.int(-3, 6)),
    j: Array.from({ length: n }, () => r.int(0, 4)),
    f: Array.from({ length: n }, () => (r.next() < 0.2 ? null : r.next() < 0.1 ? Number.NaN : r.int(-8, 8) / 2)),
    s: Array.from({ length: n }, () => (r.next() < 0.2 ? null : r.pick(["a", "b", "c", "ab", "B"]))),
    b: Array.from({ length: n }, () => r.next() < 0.5),
  };
}

const STRINGS = ["'a'", "'b'", '"ab"', "'B'", "'zz'"];
const num = (r: R) => r.pick(["0", "1", "2", "3", "-1", "2.5", "0.5", "-1.5", "10"]);

/** A numeric-valued expression. */
function numeric(r: R, depth: number): string {
  const roll = r.next();
  if (depth <= 0 || roll < 0.45) return r.pick(["i", "j", "f", "`f`", num(r)]);
  if (roll < 0.55) return `-${numeric(r, depth - 1)}`;
  if (roll < 0.62) return `(${numeric(r, depth - 1)}) ** 2`;
  if (roll < 0.72) return `${r.pick(["i", "f", "j"])} % ${r.pick(["3", "2", "j", "2.5"])}`;
  if (roll < 0.8) return `${r.pick(["i", "f", "j"])} / ${r.pick(["2", "j", "f", "4"])}`;
  return `(${numeric(r, depth - 1)} ${r.pick(["+", "-", "*"])} ${numeric(r, depth - 1)})`;
}

const CMP = ["==", "!=", "<", "<=", ">", ">="];

/** A condition. */
function condition(r: R, depth: number): string {
  const roll = r.next();
  if (depth <= 0 || roll < 0.4) return comparison(r);
  if (roll < 0.5) return `${r.pick(["not ", "~"])}(${condition(r, depth - 1)})`;
  if (roll < 0.55) return r.pick(["b", "~b", "not b", "b == True", "b != False"]);
  const op = r.pick(["and", "or", "&", "|"]);
  const left = condition(r, depth - 1);
  const right = condition(r, depth - 1);
  // pandas reads & and | as and / or: parentheses are optional around comparisons, so test both
  return r.next() < 0.5 ? `${left} ${op} ${right}` : `(${left}) ${op} (${right})`;
}

/** A numeric expression that reads a column (we refuse comparisons of constants, which pandas takes only sometimes). */
function numericColumn(r: R, depth: number): string {
  const e = numeric(r, depth);
  return /[ijf]/.test(e) ? e : r.pick(["i", "j", "f"]);
}

/** A method call (pandas takes only plain constants as their arguments: no negative numbers). */
function methodCall(r: R): string {
  const pat = r.pick(["'a'", "'b'", "'B'", "'a.'", "'^a'"]);
  const na = r.pick(["", ", na=False", ", na=True"]);
  switch (r.int(0, 7)) {
    case 0:
      return `s.str.contains(${pat}${r.pick(["", ", case=False", ", regex=False"])}${na})`;
    case 1:
      return `s.str.${r.pick(["startswith", "endswith"])}(${r.pick(["'a'", "'b'", "'B'"])}${na})`;
    case 2:
      return `s.str.len() ${r.pick(CMP)} ${r.pick(["1", "2"])}`;
    case 3:
      return `${r.pick(["f", "s", "i"])}.${r.pick(["isna", "isnull", "notna", "notnull"])}()`;
    case 4:
      return `${r.pick(["i", "j", "f"])}.isin([${r.pick(["1, 2", "0", "2.5, 3"])}])`;
    case 5:
      return `${r.pick(["i", "f"])}.between(${r.pick(["0, 2", "1, 3.5", "0.5, 1"])}${r.pick(["", ", inclusive='neither'", ", inclusive='left'", ", inclusive='right'"])})`;
    case 6:
      return `abs(${r.pick(["i", "f"])}) ${r.pick(CMP)} ${r.pick(["1", "2", "1.5"])}`;
    default:
      return `${r.pick(["i", "f"])}.abs() ${r.pick(CMP)} ${r.pick(["1", "2"])}`;
  }
}

function comparison(r: R): string {
  const roll = r.next();
  if (roll < 0.12) return methodCall(r);
  if (roll < 0.35) return `${numericColumn(r, 2)} ${r.pick(CMP)} ${numeric(r, 1)}`;
  if (roll < 0.45) {
    return `${numeric(r, 0)} ${r.pick(["<", "<="])} ${numericColumn(r, 1)} ${r.pick(["<", "<=", "!="])} ${numeric(r, 0)}`;
  }
  if (roll < 0.6) return `s ${r.pick(CMP)} ${r.pick(STRINGS)}`;
  if (roll < 0.65) return `s ${r.pick(["==", "!="])} None`;
  if (roll < 0.75) {
    const items = Array.from({ length: r.int(0, 3) }, () => r.pick([...STRINGS, "None", "1"]));
    return `s ${r.pick(["in", "not in", "==", "!="])} [${items.join(", ")}]`;
  }
  if (roll < 0.85) {
    const items = Array.from({ length: r.int(1, 3) }, () => num(r));
    const list = r.next() < 0.5 ? `[${items.join(", ")}]` : `(${items.join(", ")},)`;
    return `${r.pick(["i", "f", "j"])} ${r.pick(["in", "not in", "==", "!="])} ${list}`;
  }
  if (roll < 0.9) return `${r.pick(["i", "f"])} ${r.pick(["==", "!="])} ${r.pick(STRINGS)}`;
  if (roll < 0.95) return `s ${r.pick(["<", ">"])} ${num(r)}`; // pandas refuses ordering strings against numbers
  return `${r.pick(["i", "f"])} ${r.pick(["==", "!=", ">"])} ${r.pick(["True", "False"])}`;
}

function graphOf(c: Columns): GfqlGraph {
  const n = c.i.length;
  return {
    nodes: pl.DataFrame([
      pl.Series(
        "id",
        Array.from({ length: n }, (_, k) => `n${k}`),
      ),
      pl.Series("i", c.i, pl.Int64),
      pl.Series("j", c.j, pl.Int64),
      pl.Series("f", c.f, pl.Float64),
      pl.Series("s", c.s, pl.Utf8),
      pl.Series("b", c.b, pl.Bool),
    ]),
    edges: pl.DataFrame({ src: ["n0"], dst: ["n1"] }),
    nodeId: "id",
    source: "src",
    destination: "dst",
  };
}

type PandasAnswer = { rows: number[] } | { error: string; message: string };

function ours(g: GfqlGraph, query: string): { rows: number[] } | { error: string } {
  try {
    const out = executeBoth(g, parseGfql([{ type: "Node", query }]));
    return { rows: (out.nodes.getColumn("id").toArray() as string[]).map((id) => Number(id.slice(1))).sort((a, b) => a - b) };
  } catch (e) {
    const message = (e as Error).message;
    if (!/^\[E(205|301|302)\] .* at column \d+ of the query string/.test(message)) throw e; // not a query refusal: a bug
    return { error: message };
  }
}

describe.skipIf(PYTHON === undefined)("DataFrame.query strings against real pandas", () => {
  it("keeps the rows pandas keeps, and refuses what pandas refuses, over random frames and expressions", { timeout: 240_000 }, () => {
    const r = rng(Number(process.env.GFQL_PANDAS_SEED ?? 20261125));
    const frames = Array.from({ length: 6 }, () => {
      const columns = randomColumns(r, 14);
      const queries = Array.from({ length: 70 }, () => condition(r, 3));
      return { columns, queries };
    });
    const request = {
      frames: frames.map(({ columns, queries }) => ({
        columns: {
          i: { kind: "int", values: columns.i },
          j: { kind: "int", values: columns.j },
          f: { kind: "float", values: columns.f.map((v) => (v === null || Number.isNaN(v) ? null : v)) },
          s: { kind: "object", values: columns.s },
          b: { kind: "bool", values: columns.b },
        },
        queries,
      })),
    };
    const run = spawnSync(PYTHON as string, [SCRIPT], { input: JSON.stringify(request), encoding: "utf8", maxBuffer: 1 << 26 });
    expect(run.status, run.stderr).toBe(0);
    const { answers } = JSON.parse(run.stdout) as { answers: PandasAnswer[][] };
    let agreed = 0;
    let refusedByBoth = 0;
    let callsAgreed = 0; // queries with method calls that both answered
    const mismatches: string[] = [];
    frames.forEach(({ columns, queries }, fi) => {
      const g = graphOf(columns);
      queries.forEach((q, qi) => {
        const want = answers[fi]?.[qi] as PandasAnswer;
        const got = ours(g, q);
        if ("error" in want && "error" in got) refusedByBoth++;
        else if ("rows" in want && "rows" in got && JSON.stringify(want.rows) === JSON.stringify(got.rows)) {
          agreed++;
          if (q.includes("(") && /[a-z]\(/.test(q)) callsAgreed++;
        } else {
          const rows = "rows" in want ? want.rows : [];
          const differ = [...new Set([...rows, ...("rows" in got ? got.rows : [])])].filter(
            (k) => !("rows" in want && "rows" in got) || want.rows.includes(k) !== got.rows.includes(k),
          );
          const values = differ
            .slice(0, 3)
            .map((k) => JSON.stringify(Object.fromEntries(Object.entries(columns).map(([c, v]) => [c, v[k]]))));
          mismatches.push(`${q}\n  pandas: ${JSON.stringify(want)}\n  ours:   ${JSON.stringify(got)}\n  rows:   ${values.join(" ")}`);
        }
      });
    });
    expect(mismatches.slice(0, 8).join("\n")).toBe("");
    // the generator must exercise both outcomes
    expect(agreed).toBeGreaterThan(250);
    expect(refusedByBoth).toBeGreaterThan(5);
    expect(callsAgreed).toBeGreaterThan(30);
  });
});
