// Values read from fixtures, compared with the upstream expected outputs and with what pandas would give.
import { readFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { FIXTURES } from "../helpers/fixtures.ts";
import { columnValues, ingest } from "../helpers/ingest.ts";

const at = (relative: string) => path.join(FIXTURES, relative);

/** A minimal CSV reader for the expected outputs (quoted fields, no embedded newlines). */
function csvRows(text: string): string[][] {
  return text
    .trim()
    .split(/\r?\n/)
    .map((line) =>
      [...line.matchAll(/("([^"]*(?:""[^"]*)*)"|[^,]*)(,|$)/g)]
        .slice(0, -1)
        .map((m) => (m[2] !== undefined ? m[2].replaceAll('""', '"') : (m[1] ?? ""))),
    );
}

describe("values against upstream expected outputs", () => {
  it("parquet delta_encoding_required_column matches its _expect.csv", async () => {
    const { tables } = await ingest(at("parquet/delta_encoding_required_column.parquet"), "parquet");
    const [header, ...rows] = csvRows(readFileSync(at("expected/parquet/delta_encoding_required_column_expect.csv"), "utf8"));
    const table = tables[0];
    if (!table || !header) throw new Error("nothing read");
    expect(table.numRows).toBe(rows.length);
    // The file's column names end in ':'; the expected CSV drops it (and has a stray leading space).
    table.schema.fields.forEach((field, c) => {
      expect(field.name.replace(/:$/, "")).toBe(header[c]?.trim());
      const values = columnValues(table, field.name).map((v) => (v === null ? "" : String(v)));
      expect(values).toEqual(rows.map((r) => r[c] ?? ""));
    });
  });

  it.each(["RkNumber", "merge_cells"])("xls %s matches SheetJS' expected first-sheet CSV", async (name) => {
    const { tables } = await ingest(at(`xls/${name}.xls`), "xls");
    const [header, ...rows] = csvRows(readFileSync(at(`expected/xls/${name}.xls.0.csv`), "utf8")).filter((r) => r.some((c) => c !== ""));
    const table = tables[0];
    if (!table || !header) throw new Error("nothing read");
    expect(table.numRows).toBe(rows.length);
    table.schema.fields.forEach((field, c) => {
      const values = columnValues(table, field.name).map((v) => (v === null ? "" : String(v)));
      const expected = rows.map((r) => r[c] ?? "");
      if (name === "RkNumber") expect(values.map(Number)).toEqual(expected.map(Number));
      // The expected file lost a non-ASCII character ("…") to a replacement character: compare the ASCII.
      else expect(values.map((v) => v.replace(/[^\x20-\x7e]/g, ""))).toEqual(expected.map((v) => v.replace(/[^\x20-\x7e]/g, "")));
    });
  });

  it.each(["cpp21_generated_primitive", "v2_generated_lz4", "v2_generated_zstd"])("arrow %s matches its integration JSON", async (name) => {
    const file = name === "v2_generated_zstd" ? `arrow-stream/${name}.arrows` : `arrow/${name}.arrow`;
    const { tables } = await ingest(at(file), "arrow");
    const expected = JSON.parse(gunzipSync(readFileSync(at(`expected/arrow/${name}.json.gz`))).toString()) as {
      schema: { fields: { name: string }[] };
      batches: { count: number; columns: { name: string; VALIDITY?: number[]; DATA?: unknown[] }[] }[];
    };
    const table = tables[0];
    if (!table) throw new Error("nothing read");
    for (const field of expected.schema.fields) {
      const want = expected.batches.flatMap((b) => {
        const column = b.columns.find((c) => c.name === field.name);
        return (column?.DATA ?? []).map((v, i) => (column?.VALIDITY?.[i] === 0 ? null : v));
      });
      const got = columnValues(table, field.name);
      expect(got.length).toBe(want.length);
      got.forEach((value, i) => {
        const w = want[i];
        if (w === null || value === null) expect(value).toBe(w);
        else if (typeof value === "number") expect(value).toBeCloseTo(Number(w), 3);
        else if (typeof value === "boolean") expect(value).toBe(Boolean(w));
        else expect(String(value)).toBe(String(w));
      });
    }
  });

  it("csv keeps unsigned 64-bit values above int64 exactly, as uint64", async () => {
    const { schemas, tables } = await ingest(at("csv/aggregate_test_100.csv"), "csv");
    expect(schemas[0]?.dtypes.c10).toBe("uint64");
    expect(columnValues(tables[0] as never, "c10")).toContain("11720144131976083864");
  });

  it("csv honours pandas' options: no header, names, na_values, thousands, true_values, skipfooter, latin-1", async () => {
    const dir = await import("node:fs/promises").then((fs) => fs.mkdtemp("/tmp/gw-csv-"));
    const file = path.join(dir, "data");
    await import("node:fs/promises").then((fs) =>
      fs.writeFile(file, Buffer.from("café;1.234;oui;x\nnaïve;2.000;non;MISSING\nfooter;;;\n", "latin1")),
    );
    const { schemas, tables } = await ingest(file, "csv", {
      parserOptions: {
        header: null,
        sep: ";",
        names: ["word", "count", "flag", "note"],
        thousands: ".",
        true_values: ["oui"],
        false_values: ["non"],
        na_values: ["MISSING"],
        skipfooter: 1,
        encoding: "latin-1",
      },
    });
    expect(schemas[0]?.dtypes).toEqual({ word: "object", count: "int64", flag: "bool", note: "object" });
    const table = tables[0] as never;
    expect(columnValues(table, "word")).toEqual(["café", "naïve"]);
    expect(columnValues(table, "count")).toEqual(["1234", "2000"]);
    expect(columnValues(table, "flag")).toEqual([true, false]);
    expect(columnValues(table, "note")).toEqual(["x", null]);
  });

  it("reads UTF-16 with a byte-order mark", async () => {
    const fs = await import("node:fs/promises");
    const file = path.join(await fs.mkdtemp("/tmp/gw-csv-"), "data");
    await fs.writeFile(file, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("a,b\n1,ü\n", "utf16le")]));
    const { tables } = await ingest(file, "csv", { parserOptions: { encoding: "utf-16" } });
    expect(columnValues(tables[0] as never, "b")).toEqual(["ü"]);
  });
});
