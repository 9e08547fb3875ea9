// Generated CSV inputs x read_csv options, read by pandas and by the service (files route and direct route):
// column names and order, pandas dtypes and every value must agree; where pandas refuses, the service refuses.
// The inputs come from a fixed seed, so a failure names a case that reproduces.
import { describe, expect, it } from "vitest";
import { PANDAS_PYTHON, PANDAS_SKIP_REASON, type Reading, readAllWays, withPandasReadings } from "../helpers/pandas-reference.ts";
import { seeded } from "../helpers/seeded.ts";

function random(seed: number) {
  const r = seeded(seed);
  return { ...r, int: (n: number) => r.int(0, n - 1) };
}

const VALUES: Record<string, string[]> = {
  int: ["0", "1", "-17", "007", " 42 ", "+3", "9223372036854775807", "18446744073709551615", "123456789012"],
  float: ["1.5", "-0.25", "1e-3", ".5", "5.", "1E+05", "inf", "-Infinity", " 2.5", "1,5", "0.1234567890123456789", "1e400"],
  bool: ["True", "false", "TRUE", "False", "true"],
  missing: ["", "NA", "null", "nan", "N/A", "None", "#N/A", "NULL"],
  text: [
    "x",
    "hello world",
    "a,b",
    'say "hi"',
    "two\nlines",
    "café",
    "名前",
    " padded ",
    "yes",
    "no",
    "-",
    "1-2",
    "a#b",
    "x;y",
    "tab\there",
    '"',
    "'q'",
  ],
  date: ["2024-01-02", "2023-12-31 23:59:59", "2000-02-29T12:00:00", "2024-01-02T03:04:05.25", "1999-01-01"],
};
const HEADERS = ["a", "b", "a", "", "名前", "x y", "0", "Unnamed: 1", "c.1", "c"];

function field(value: string, sep: string): string {
  const quote = value.includes(sep) || value.includes('"') || value.includes("\n") || value.includes("\r");
  return quote ? `"${value.replaceAll('"', '""')}"` : value;
}

type Generated = { title: string; text: string; options: Record<string, unknown> };

function generate(seed: number): Generated {
  const r = random(seed);
  const width = 1 + r.int(4);
  const height = r.int(6);
  const kinds = Array.from({ length: width }, () => r.pick(Object.keys(VALUES)));
  const sep = r.pick([",", ",", ",", ";", "\t", "|"]);
  const names = Array.from({ length: width }, () => r.pick(HEADERS));
  const lines = [names.map((n) => field(n, sep)).join(sep)];
  for (let i = 0; i < height; i += 1) {
    const row = kinds.map((kind) => {
      // Columns are mostly of their kind, sometimes missing, now and then something else.
      const roll = r.next();
      const from = roll < 0.15 ? "missing" : roll < 0.2 ? r.pick(Object.keys(VALUES)) : kind;
      return field(r.pick(VALUES[from] ?? []), sep);
    });
    lines.push(row.join(sep));
    if (r.next() < 0.1) lines.push("");
  }
  const options: Record<string, unknown> = sep === "," ? {} : { sep };
  const variant = r.int(6);
  const extra = r.pick([
    {},
    {},
    { keep_default_na: false },
    { na_filter: false },
    { na_values: ["x", "-"] },
    { dtype: "str" },
    { dtype: { [names[0] ?? "a"]: "string" } },
    { header: null },
    { nrows: 2 },
    { skiprows: 1, header: null },
    { usecols: [0] },
    { skipinitialspace: true },
    { skip_blank_lines: false },
    { true_values: ["yes"], false_values: ["no"] },
    { parse_dates: [0] },
    { comment: "#" },
    { names: Array.from({ length: width }, (_, i) => `n${i}`) },
    { header: 1 },
    { quoting: 3 },
    { doublequote: false },
    { dtype: { [names[0] ?? "a"]: "Int64" } },
    { dtype: { [names[0] ?? "a"]: "boolean" } },
    { dtype: { [names[0] ?? "a"]: "float32" } },
    { dtype: { [names[0] ?? "a"]: "category" } },
    { dtype: { [names[0] ?? "a"]: "int64" } },
    { na_values: { [names[0] ?? "a"]: ["1", "x"] } },
    { usecols: [names[width - 1] ?? "a"] },
    { thousands: "," },
    { prefix: "c", header: null },
    { parse_dates: [names[0] ?? "a"] },
  ]);
  Object.assign(options, extra);
  // The same rows with CRLF line ends, a byte-order mark, a comment line, a decimal comma, no final line end.
  let text = `${lines.join("\n")}\n`;
  if (variant === 0) text = text.replaceAll("\n", "\r\n");
  if (variant === 1) text = `\ufeff${text}`;
  if (variant === 2) text = text.replace(/\n(?=.)/, "\n# a comment line\n");
  if (variant === 3 && sep === ";") Object.assign(options, { decimal: "," });
  if (variant === 4) text = text.trimEnd();
  return { title: `seed ${seed}: ${width}x${height} ${kinds.join("/")} v${variant} ${JSON.stringify(options)}`, text, options };
}

// skipfooter is left to pandas-csv.test.ts: pandas reads it with its python engine, whose typing of some
// columns (and of files ending in blank lines) differs from its C parser's in ways not reproduced here.
const CASES = Array.from({ length: 150 }, (_, i) => generate(1000 + i));

describe.skipIf(!PANDAS_PYTHON)(`generated CSV x options against pandas${PANDAS_SKIP_REASON}`, () => {
  const suite = withPandasReadings(CASES.map((c) => ({ format: "csv", bytes: c.text, options: c.options })));

  it.each(CASES.map((c, i) => [c.title, i] as const))("%s", async (_title, i) => {
    const c = CASES[i] as Generated;
    const pandas = suite.expected[i] as Reading;
    const { file, direct } = await readAllWays(suite.gw, suite.token, { format: "csv", bytes: c.text, options: c.options }, pandas);
    for (const service of [file, direct]) {
      if (pandas.ok) expect(service, `input:\n${c.text}`).toEqual(pandas);
      else expect(service.ok, `pandas refused (${pandas.error}: ${pandas.message}); input:\n${c.text}`).toBe(false);
    }
  });
});
