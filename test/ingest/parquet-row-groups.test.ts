// Parquet row_groups (pyarrow's ParquetFile.read_row_groups; spec 4.3's direct-upload parameter): the chosen groups, in the order given.
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pl from "nodejs-polars";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readParquet } from "../../src/ingest/parquet.ts";
import { validateParserOptions } from "../../src/ingest/validate-options.ts";
import { createTestGateway, type TestGateway } from "../helpers/gateway.ts";

const dir = mkdtempSync(path.join(os.tmpdir(), "parquet-row-groups-"));
const ROWS = 1_000;
const GROUP = 300; // groups 0..3: 300, 300, 300, 100 rows
const frame = pl.DataFrame({
  id: Array.from({ length: ROWS }, (_, i) => i),
  label: Array.from({ length: ROWS }, (_, i) => (i % 7 === 0 ? null : `row ${i}`)),
});
const file = path.join(dir, "groups.parquet");
const group = (i: number) => frame.slice(i * GROUP, GROUP);
const ids = (f: pl.DataFrame) => f.getColumn("id").toArray().map(Number);

beforeAll(async () => {
  await frame.lazy().sinkParquet(file, { rowGroupSize: GROUP }).collect();
});

describe("readParquet row_groups", () => {
  it("reads the chosen row groups in the order given, with columns too", async () => {
    expect((await readParquet(file, { row_groups: [2] })).frameEqual(group(2), true)).toBe(true);
    const picked = await readParquet(file, { row_groups: [3, 0] });
    expect(picked.frameEqual(pl.concat([group(3), group(0)]), true)).toBe(true);
    expect(ids(picked).slice(0, 3)).toEqual([900, 901, 902]);
    // Spec 4.3 gives row_groups as one int.
    expect((await readParquet(file, { row_groups: 1, columns: ["label"] })).frameEqual(group(1).select("label"), true)).toBe(true);
    // Every group is the whole file; none is an empty table with the file's columns.
    expect((await readParquet(file, { row_groups: [0, 1, 2, 3] })).frameEqual(frame, true)).toBe(true);
    const none = await readParquet(file, { row_groups: [] });
    expect([none.height, none.columns]).toEqual([0, ["id", "label"]]);
  });

  it("refuses an index the file does not have, naming it, and a value that is not an index", async () => {
    await expect(readParquet(file, { row_groups: [1, 4] })).rejects.toMatchObject({
      code: "INVALID_INPUT",
      message: "row_groups: the file has no row group 4 (it has 4: 0 to 3)",
      details: { field: "parser_options.row_groups", rowGroup: 4 },
    });
    for (const bad of [-1, 1.5, "0", [0, "x"]]) {
      expect(() => validateParserOptions("parquet", "", { row_groups: bad })).toThrow(
        /parser_options\.row_groups must be a row group index/,
      );
    }
  });
});

describe("row_groups through the routes", () => {
  let gw: TestGateway;
  let auth: Record<string, string>;
  beforeAll(async () => {
    gw = await createTestGateway("sqlite");
    auth = { authorization: `Bearer ${(await gw.users("alice")).alice}` };
  });
  afterAll(() => gw?.close());

  async function dataset(): Promise<string> {
    const { body } = await gw.json<{ data: { dataset_id: string } }>("/api/v2/upload/datasets/", {
      method: "POST",
      headers: auth,
      json: { name: "rg", metadata: {}, node_encodings: { bindings: { node: "id" } }, edge_encodings: { bindings: {} } },
    });
    return body.data.dataset_id;
  }

  it("files route: parser_options.row_groups picks the groups; a missing one fails the upload naming it", async () => {
    const create = (parser_options: Record<string, unknown>) =>
      gw.json<{ file_id: string }>("/api/v2/files/", { method: "POST", headers: auth, json: { file_type: "parquet", parser_options } });
    const ok = await create({ row_groups: [3, 1] });
    const uploaded = await gw.json<{ is_valid: boolean; tables_schemas: { num_rows: number }[] }>(
      `/api/v2/upload/files/${ok.body.file_id}`,
      {
        method: "POST",
        headers: auth,
        body: readFileSync(file),
      },
    );
    expect(uploaded.body.is_valid).toBe(true);
    expect(uploaded.body.tables_schemas[0]?.num_rows).toBe(100 + GROUP);
    const missing = await create({ row_groups: [9] });
    const failed = await gw.json<{ is_valid: boolean; errors: Record<string, unknown> }>(`/api/v2/upload/files/${missing.body.file_id}`, {
      method: "POST",
      headers: auth,
      body: readFileSync(file),
    });
    expect(failed.body.is_valid).toBe(false);
    expect(failed.body.errors).toMatchObject({ code: "INVALID_INPUT", message: expect.stringContaining("no row group 9") });
    const bad = await create({ row_groups: "all" });
    expect(bad.status).toBe(400);
  });

  it("direct route: ?row_groups=[i,...] or ?row_groups=i picks the groups; a missing or malformed one answers 400 naming it", async () => {
    const id = await dataset();
    const post = (query: string) =>
      gw.json<{ success: boolean; data: { num_rows: number }; error?: unknown }>(`/api/v2/upload/datasets/${id}/nodes/parquet?${query}`, {
        method: "POST",
        headers: auth,
        body: readFileSync(file),
      });
    const two = await post(`row_groups=${encodeURIComponent("[0,3]")}`);
    expect(two.status).toBe(200);
    expect(two.body.data.num_rows).toBe(GROUP + 100);
    const { status, body } = await post("row_groups=2&columns=%5B%22id%22%5D");
    expect([status, body.data.num_rows]).toEqual([200, GROUP]);
    const missing = await post("row_groups=7");
    expect(missing.status).toBe(400);
    expect(JSON.stringify(missing.body)).toContain("no row group 7");
    const malformed = await post("row_groups=first");
    expect(malformed.status).toBe(400);
    expect(JSON.stringify(malformed.body)).toContain('query parameter \\"row_groups\\" must be a row group index');
  });
});
