// Every fixture of the shared corpus, uploaded through the REST routes: rows and columns as MANIFEST.tsv says.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixture, manifest } from "../helpers/fixtures.ts";
import { createTestGateway, type TestGateway } from "../helpers/gateway.ts";

const INPUT_DIRS = ["csv", "json", "parquet", "arrow", "arrow-stream", "xls", "xlsx", "orc", "invalid"];
const COMPRESSION: Record<string, string> = { gz: "gzip", bz2: "bz2", xz: "xz", zip: "zip" };

type TableSchema = { name: string; num_rows: number; num_cols: number; dtypes: Record<string, string> };
type FileBody = {
  file_id: string;
  is_valid: boolean;
  is_uploaded: boolean;
  errors: Record<string, unknown>;
  tables_schemas: TableSchema[];
};

const rows = manifest().filter((r) => INPUT_DIRS.includes(r.path.split("/")[0] ?? ""));

/** The parser options a person would give for a headerless or space-separated file, as MANIFEST describes it. */
function optionsFor(row: (typeof rows)[number]): Record<string, unknown> {
  // JSON lines are read with lines=true, as pandas.read_json needs.
  if (row.path.endsWith(".ndjson")) return { lines: true };
  const headerless = /no header row; (\d+) columns, (\w+)-delimited/.exec(row.columns);
  if (!headerless) return {};
  return { header: null, ...(headerless[2]?.toLowerCase() === "space" ? { sep: " " } : {}) };
}

function expectedColumns(row: (typeof rows)[number], dir: string): string[] | undefined {
  if (row.columns.startsWith("(") || dir === "orc" || row.columns.startsWith("top-level")) return undefined;
  const parts = splitTopLevel(row.columns);
  // Arrow rows read "name:Type"; parquet names may themselves end in ':' (delta_encoding_required_column).
  return dir.startsWith("arrow") ? parts.map((p) => p.slice(0, p.indexOf(":"))) : parts;
}

/** Splits "a:Dictionary<Int8, Utf8>, b:Int32" at the commas outside brackets. */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = "";
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i] ?? "";
    if ("<({[".includes(ch)) depth += 1;
    if (">)}]".includes(ch)) depth -= 1;
    if (ch === "," && depth === 0 && text[i + 1] === " ") {
      parts.push(current);
      current = "";
      i += 1;
    } else current += ch;
  }
  return [...parts, current];
}

/** "'Sheet1' A1:D5 5 non-blank rows; 'Sheet2' (empty) 0 non-blank rows" -> data rows per sheet (header excluded). */
function sheets(expected: string): { name: string; rows: number }[] {
  return [...expected.matchAll(/'([^']+)'[^;]*?(\d+) non-blank rows/g)].map((m) => ({
    name: m[1] ?? "",
    rows: Math.max(0, Number(m[2]) - 1),
  }));
}

describe("fixture corpus through the REST file routes", () => {
  let gw: TestGateway;
  let token: string;

  beforeAll(async () => {
    gw = await createTestGateway("sqlite");
    token = await gw.login();
  });
  afterAll(() => gw?.close());

  async function upload(relative: string, fileType: string, compression: string, parserOptions: Record<string, unknown>) {
    const auth = { authorization: `Bearer ${token}` };
    const created = await gw.json<FileBody>("/api/v2/files/", {
      method: "POST",
      headers: auth,
      json: { file_type: fileType, file_compression: compression, name: path.basename(relative), parser_options: parserOptions },
    });
    expect(created.status).toBe(200);
    // Real clients send binary bodies with no Content-Type.
    return gw.json<FileBody>(`/api/v2/upload/files/${created.body.file_id}?erase=true`, {
      method: "POST",
      headers: auth,
      body: fixture(relative),
    });
  }

  it.each(rows.map((r) => [r.path, r] as const))("%s", async (relative, row) => {
    // invalid/<format>/file: negative cases, which must fail with a clear error.
    const parts = relative.split("/");
    const dir = (parts[0] === "invalid" ? parts[1] : parts[0]) ?? "";
    const fileType = dir === "arrow-stream" ? "arrow" : dir;
    const compression = COMPRESSION[relative.split(".").pop() ?? ""] ?? "";
    const { status, body } = await upload(relative, fileType, compression, optionsFor(row));
    expect(status).toBe(200);
    if (row.expectedRows.startsWith("n/a")) {
      expect(body.is_valid).toBe(false);
      expect(body.errors.code).toBe("PARSE_FAILED");
      return;
    }
    expect(body.errors).toEqual({});
    expect(body.is_valid).toBe(true);
    if (fileType === "xls" || fileType === "xlsx") {
      expect(body.tables_schemas.map((t) => ({ name: t.name, rows: t.num_rows }))).toEqual(sheets(row.expectedRows));
      return;
    }
    expect(body.tables_schemas).toHaveLength(1);
    const [table] = body.tables_schemas as [TableSchema];
    expect(table.num_rows).toBe(Number(row.expectedRows));
    const columns = expectedColumns(row, dir);
    if (columns) expect(Object.keys(table.dtypes)).toEqual(columns);
    const headerless = /no header row; (\d+) columns/.exec(row.columns);
    if (headerless) expect(table.num_cols).toBe(Number(headerless[1]));
  });
});
