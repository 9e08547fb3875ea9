// Limits on a table's shape (columns, column-name length, JSON nesting), each a 413 naming its setting; the
// shapes that used to answer 500 (a million-row sheet, deep JSON) and an ORC file of an unknown version.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import * as XLSX from "@e965/xlsx";
import pl from "nodejs-polars";
import { afterAll, describe, expect, it } from "vitest";
import type { FileType } from "../../src/ingest/formats.ts";
import { parseUpload } from "../../src/ingest/parse.ts";
import { DEFAULT_TABLE_LIMITS, type TableLimits } from "../../src/ingest/table-limits.ts";
import { FIXTURES } from "../helpers/fixtures.ts";

const dir = mkdtempSync(path.join(os.tmpdir(), "table-limits-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SMALL: TableLimits = { maxColumns: 10, maxColumnNameBytes: 16, maxNestingDepth: 8 };

let serial = 0;
async function parse(fileType: FileType, body: Uint8Array | string, limits?: TableLimits, parserOptions: Record<string, unknown> = {}) {
  const base = path.join(dir, String(++serial));
  mkdirSync(path.join(base, "scratch"), { recursive: true });
  writeFileSync(path.join(base, "raw"), body);
  return parseUpload({
    rawPath: path.join(base, "raw"),
    fileType,
    compression: "",
    parserOptions,
    tableName: "t",
    tablesDir: path.join(base, "tables"),
    scratch: path.join(base, "scratch"),
    limits: { maxBytes: 1 << 30, maxRatio: 100, floorBytes: 256 << 20 },
    tableLimits: limits,
  });
}

const names = (n: number) => Array.from({ length: n }, (_, i) => `c${i}`);
const wideCsv = (n: number) =>
  `${names(n).join(",")}\n${names(n)
    .map((_, i) => i)
    .join(",")}\n`;
const wideJson = (n: number) =>
  `[{${names(n)
    .map((name, i) => `"${name}":${i}`)
    .join(",")}}]`;
const nested = (depth: number) => `[{"a":${"[".repeat(depth - 2)}1${"]".repeat(depth - 2)}}]`;

const tooMany = { code: "PAYLOAD_TOO_LARGE", details: { setting: "PARSE_MAX_COLUMNS", limit: 10 } };
const tooLong = { code: "PAYLOAD_TOO_LARGE", details: { setting: "PARSE_MAX_COLUMN_NAME_BYTES", limit: 16 } };

describe("columns", () => {
  it("CSV: a header of more columns than allowed is refused before the reader; the limit itself is accepted", async () => {
    await expect(parse("csv", wideCsv(11), SMALL)).rejects.toMatchObject(tooMany);
    expect((await parse("csv", wideCsv(10), SMALL))[0]?.num_cols).toBe(10);
  });

  it("CSV with parser options is checked once read", async () => {
    await expect(parse("csv", wideCsv(11).replaceAll(",", ";"), SMALL, { sep: ";" })).rejects.toMatchObject(tooMany);
  });

  it("CSV: a comma inside a quoted name does not count as a column", async () => {
    const header = `"a,b",${names(9).join(",")}`;
    expect((await parse("csv", `${header}\n${Array(10).fill(1).join(",")}\n`, SMALL))[0]?.num_cols).toBe(10);
  });

  it("JSON: 200,000 columns in 2.6 MB are refused with the default limits, before any column is converted", async () => {
    const body = wideJson(200_000);
    expect(body.length).toBeGreaterThan(2_500_000);
    await expect(parse("json", body)).rejects.toMatchObject({
      code: "PAYLOAD_TOO_LARGE",
      details: { setting: "PARSE_MAX_COLUMNS", limit: DEFAULT_TABLE_LIMITS.maxColumns, columns: 200_000 },
    });
    await expect(parse("json", wideJson(11), SMALL)).rejects.toMatchObject(tooMany);
  });

  it.each([
    ["parquet", () => readFileSync(writeWide("parquet"))],
    ["arrow", () => readFileSync(writeWide("arrow"))],
  ] as const)("%s: a table wider than allowed is refused", async (fileType, bytes) => {
    await expect(parse(fileType, bytes(), SMALL)).rejects.toMatchObject(tooMany);
  });
});

function writeWide(format: "parquet" | "arrow"): string {
  const frame = pl.DataFrame(Object.fromEntries(names(11).map((name) => [name, [1, 2]])));
  const file = path.join(dir, `wide.${format}`);
  if (format === "parquet") frame.writeParquet(file);
  else frame.writeIPC(file);
  return file;
}

describe("column names", () => {
  it("CSV: a header name longer than allowed is refused, quotes not counted", async () => {
    await expect(parse("csv", `${"n".repeat(17)},b\n1,2\n`, SMALL)).rejects.toMatchObject(tooLong);
    expect((await parse("csv", `"${"n".repeat(16)}",b\n1,2\n`, SMALL))[0]?.dtypes).toHaveProperty("n".repeat(16));
  });

  it("CSV: a 100 MB header line is refused with the default limits", async () => {
    await expect(parse("csv", `${"h".repeat(100 << 20)}\n1\n`)).rejects.toMatchObject({
      code: "PAYLOAD_TOO_LARGE",
      details: { setting: "PARSE_MAX_COLUMN_NAME_BYTES", limit: DEFAULT_TABLE_LIMITS.maxColumnNameBytes },
    });
  });

  it("JSON: a key longer than allowed is refused; names are counted in UTF-8 bytes", async () => {
    await expect(parse("json", `[{"${"é".repeat(9)}":1}]`, SMALL)).rejects.toMatchObject(tooLong);
    expect((await parse("json", `[{"${"é".repeat(8)}":1}]`, SMALL))[0]?.num_cols).toBe(1);
  });

  it("CSV with header=None: a long first row is data, not names", async () => {
    expect((await parse("csv", `${"v".repeat(100)},b\n`, SMALL, { header: null }))[0]?.num_rows).toBe(1);
  });
});

describe("JSON nesting", () => {
  const tooDeep = (limit: number) => ({ code: "PAYLOAD_TOO_LARGE", details: { setting: "PARSE_MAX_NESTING_DEPTH", limit } });

  it("nesting past the limit is refused, naming it; at the limit the value is kept as text", async () => {
    await expect(parse("json", nested(9), SMALL)).rejects.toMatchObject(tooDeep(8));
    expect((await parse("json", nested(8), SMALL))[0]?.dtypes).toEqual({ a: "object" });
  });

  it("lines=true: each line may nest as deep as the limit", async () => {
    const line = `{"a":${"[".repeat(7)}1${"]".repeat(7)}}`;
    const options = { lines: true };
    expect((await parse("json", `${line}\n${line}\n`, SMALL, options))[0]?.num_rows).toBe(2);
    await expect(parse("json", `{"a":${"[".repeat(8)}1${"]".repeat(8)}}\n`, SMALL, options)).rejects.toMatchObject(tooDeep(8));
  });

  it.each([1000, 1024, 5000, 100_000])("with the default limits, %i levels parse or answer 413, never crash", async (depth) => {
    const shapes = [
      nested(depth),
      `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`,
      `[{"a":${'{"b":'.repeat(depth - 2)}1${"}".repeat(depth - 2)}}]`,
    ];
    for (const body of shapes) {
      const outcome = await parse("json", body).then(
        () => "parsed",
        (error: { code?: string }) => error.code,
      );
      expect(outcome).toBe(depth <= DEFAULT_TABLE_LIMITS.maxNestingDepth ? "parsed" : "PAYLOAD_TOO_LARGE");
    }
  });
});

describe("spreadsheets", () => {
  it("a sheet of 200,000 rows parses (its width was once found with a spread that overflowed the stack)", async () => {
    const rows: unknown[][] = [["s", "d"]];
    for (let i = 0; i < 200_000; i += 1) rows.push([i, i + 1]);
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows, { dense: true } as XLSX.AOA2SheetOpts), "edges");
    const bytes = XLSX.write(book, { type: "buffer", bookType: "xlsx" }) as Buffer;
    const [schema] = await parse("xlsx", bytes);
    expect(schema).toMatchObject({ num_rows: 200_000, num_cols: 2 });
  }, 60_000);
});

describe("ORC versions", () => {
  it("a file of format version 19.99 (upstream's version1999 negative case) is refused, not read as an empty table", async () => {
    const bytes = Buffer.from(readFileSync(path.join(FIXTURES, "orc", "TestOrcFile.test1.orc")));
    // The PostScript's version field (tag 0x22, two varints 0 and 12) set to 19.99.
    const at = bytes.lastIndexOf(Buffer.from([0x22, 0x02, 0x00, 0x0c]));
    expect(at).toBeGreaterThan(bytes.length - 30);
    bytes.set([0x13, 0x63], at + 2);
    await expect(parse("orc", bytes)).rejects.toMatchObject({ code: "PARSE_FAILED", details: { format: "orc", version: "19.99" } });
    expect((await parse("orc", readFileSync(path.join(FIXTURES, "orc", "TestOrcFile.test1.orc"))))[0]?.num_rows).toBe(2);
  });
});
