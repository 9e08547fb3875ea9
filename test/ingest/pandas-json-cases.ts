// Generated read_json inputs: random tables (a fixed seed) of every value kind, written in every orient.

export type JsonCase = [title: string, bytes: string | Uint8Array, options?: Record<string, unknown>];

/** mulberry32: a small seeded generator, so every run reads the same inputs. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** JSON text of values of one kind; null where the column may hold missing values. */
const KINDS: Record<string, { values: string[]; table: string }> = {
  int: { values: ["0", "7", "-3", "1099511627776", "9007199254740993", "-9007199254740995", "9223372036854775807"], table: "integer" },
  float: { values: ["1.5", "-0.25", "1e-3", "123.456", "2.0", "6.02214076e23", "0.1"], table: "number" },
  text: { values: ['"x"', '"é"', '"😀 emoji"', '""', '"with \\"quotes\\""', '"tab\\there"', '"名前"'], table: "string" },
  numeric_text: { values: ['"007"', '"1.5"', '"-2"', '"1e3"', '"10"'], table: "string" },
  bool: { values: ["true", "false"], table: "boolean" },
  epoch: { values: ["1600000000", "1700000000", "1234567890"], table: "integer" },
  iso: { values: ['"2020-01-02"', '"2021-12-31T23:59:59"', '"2000-02-29 12:00:00.5"'], table: "string" },
};
const NAMES = ["a", "名前", "x y", "n1", "value", "B", "_id", "label"];

type Table = { names: string[]; kinds: string[]; rows: string[][]; nullable: boolean[] };

function table(next: () => number, nullsAllowed: boolean): Table {
  const pick = <T>(list: T[]) => list[Math.floor(next() * list.length)] as T;
  const width = 2 + Math.floor(next() * 4);
  const height = 1 + Math.floor(next() * 5);
  const kinds = Array.from({ length: width }, () => pick(Object.keys(KINDS)));
  const names = [...NAMES].sort(() => next() - 0.5).slice(0, width);
  // Date kinds under a date-like name, so read_json's default date conversion applies.
  kinds.forEach((k, i) => {
    if (k === "epoch") names[i] = `${names[i]}_at`;
    if (k === "iso") names[i] = i % 2 ? "date" : `t${i}_time`;
  });
  const nullable = kinds.map(() => nullsAllowed && next() < 0.4);
  const rows = Array.from({ length: height }, () =>
    kinds.map((k, c) => (nullable[c] && next() < 0.3 ? "null" : pick(KINDS[k]?.values ?? ["null"]))),
  );
  return { names: [...new Set(names)].length === width ? names : names.map((n, i) => `${n}${i}`), kinds, rows, nullable };
}

const q = (s: string) => JSON.stringify(s);
const record = (t: Table, row: string[]) => `{${t.names.map((n, c) => `${q(n)}:${row[c]}`).join(",")}}`;

function write(t: Table, orient: string): string {
  const rowIds = t.rows.map((_, r) => q(String(r)));
  switch (orient) {
    case "records":
      return `[${t.rows.map((row) => record(t, row)).join(",")}]`;
    case "lines":
      return `${t.rows.map((row) => record(t, row)).join("\n")}\n`;
    case "columns":
      return `{${t.names.map((n, c) => `${q(n)}:{${t.rows.map((row, r) => `${rowIds[r]}:${row[c]}`).join(",")}}`).join(",")}}`;
    case "index":
      return `{${t.rows.map((row, r) => `${rowIds[r]}:${record(t, row)}`).join(",")}}`;
    case "split":
      return `{"columns":[${t.names.map(q).join(",")}],"index":[${t.rows.map((_, r) => r).join(",")}],"data":[${t.rows.map((row) => `[${row.join(",")}]`).join(",")}]}`;
    case "values":
      return `[${t.rows.map((row) => `[${row.join(",")}]`).join(",")}]`;
    default: {
      const fields = [
        `{"name":"index","type":"integer"}`,
        ...t.names.map((n, c) => `{"name":${q(n)},"type":"${KINDS[t.kinds[c] as string]?.table}"}`),
      ];
      const rows = t.rows.map((row, r) => `{"index":${r},${t.names.map((n, c) => `${q(n)}:${row[c]}`).join(",")}}`);
      return `{"schema":{"fields":[${fields.join(",")}],"primaryKey":["index"],"pandas_version":"1.4.0"},"data":[${rows.join(",")}]}`;
    }
  }
}

/** Tables of mixed kinds, with nulls, in each orient (table orient without nulls: pandas refuses null integers there). */
export function generatedJsonCases(count = 6): JsonCase[] {
  const next = random(20_260_125);
  const cases: JsonCase[] = [];
  for (const orient of ["records", "lines", "columns", "index", "split", "values", "table"]) {
    for (let i = 0; i < count; i += 1) {
      const t = table(next, orient !== "table");
      const options = orient === "lines" ? { lines: true } : { orient };
      cases.push([`generated ${orient} #${i}: ${t.kinds.join(", ")}`, write(t, orient), options]);
    }
  }
  // The same kinds of tables under the options that change how values are typed.
  // Categories of instants are kept as instants (a documented difference): category tables keep dates as read.
  for (const options of [{ dtype: "str" }, { dtype: "float64" }, { convert_dates: false }, { dtype: "category", convert_dates: false }]) {
    for (let i = 0; i < count; i += 1) {
      const t = table(next, true);
      cases.push([`generated records ${JSON.stringify(options)} #${i}: ${t.kinds.join(", ")}`, write(t, "records"), options]);
    }
  }
  return cases;
}
