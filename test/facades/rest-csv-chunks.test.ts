// Large CSV uploads with default settings are parsed a chunk at a time: the stored table is the whole-file read's.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { RecordBatchReader } from "apache-arrow";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readCsv } from "../../src/ingest/csv.ts";
import { readTable } from "../../src/ingest/table-files.ts";
import { createTestGateway, type TestGateway } from "../helpers/gateway.ts";

type FileBody = { file_id: string; is_valid: boolean; tables_schemas: { num_rows: number; dtypes: Record<string, string> }[] };

const dir = mkdtempSync(path.join(os.tmpdir(), "rest-csv-chunks-"));

function csv(rows: number, row: (i: number) => string): Buffer {
  const lines = ["src,dst,weight,label"];
  for (let i = 0; i < rows; i += 1) lines.push(row(i));
  return Buffer.from(`${lines.join("\n")}\n`);
}

describe("CSV parsed in chunks through the file routes", () => {
  let gw: TestGateway;
  let auth: Record<string, string>;

  beforeAll(async () => {
    // 64 KiB chunks: these uploads of a few hundred KiB take the chunked path.
    gw = await createTestGateway("sqlite", { CSV_CHUNK_BYTES: "65536" });
    auth = { authorization: `Bearer ${await gw.login()}` };
  });
  afterAll(() => gw?.close());

  async function uploadCsv(bytes: Buffer, settings: Record<string, unknown> = {}) {
    const created = await gw.json<FileBody>("/api/v2/files/", { method: "POST", headers: auth, json: { file_type: "csv", ...settings } });
    const { status, body } = await gw.json<FileBody>(`/api/v2/upload/files/${created.body.file_id}?erase=true`, {
      method: "POST",
      headers: auth,
      body: new Uint8Array(bytes),
    });
    expect(status).toBe(200);
    const row = await gw.gateway.services.db.file.findUnique({ where: { id: body.file_id } });
    const table = gw.gateway.services.blobs.pathOf("files", body.file_id, row?.dataVersion ?? "", "tables", "0.arrow");
    return { body, table };
  }

  async function whole(bytes: Buffer) {
    const file = path.join(dir, `${Math.random().toString(36).slice(2)}.csv`);
    writeFileSync(file, bytes);
    return readCsv(file, {}, "", mkdtempSync(path.join(dir, "s-")));
  }

  const batches = (table: string) => [...RecordBatchReader.from(readFileSync(table))].length;

  it("stores, batch by chunk, exactly the table the whole-file read gives, compressed uploads included", async () => {
    const bytes = csv(20_000, (i) => `${(i * 7919) % 2000},${(i * 104_729) % 2000},${(i % 1000) / 8},"label, ${i % 499}"`);
    const expected = await whole(bytes);
    for (const [body, settings] of [
      [bytes, {}],
      [gzipSync(bytes), { file_compression: "gzip" }],
    ] as const) {
      const { body: record, table } = await uploadCsv(body, settings);
      expect(record.is_valid).toBe(true);
      expect(record.tables_schemas[0]).toMatchObject({
        num_rows: 20_000,
        dtypes: { src: "int64", dst: "int64", weight: "float64", label: "object" },
      });
      expect(batches(table)).toBeGreaterThan(3);
      expect(readTable(table).frameEqual(expected, true)).toBe(true);
    }
  });

  it("gives a type change past the first chunk to the whole-file read, and reads missing markers as it does", async () => {
    for (const bytes of [
      csv(20_000, (i) => `${i},${i === 15_000 ? "2.5" : i},1.5,x`),
      csv(20_000, (i) => `${i},${i},1.5,${i === 15_000 ? "NA" : "x"}`),
    ]) {
      const { body, table } = await uploadCsv(bytes);
      expect(body.is_valid).toBe(true);
      expect(readTable(table).frameEqual(await whole(bytes), true)).toBe(true);
    }
  });

  it("leaves uploads with parser options to the whole-file read, which honours them", async () => {
    const bytes = csv(20_000, (i) => `${i},${i},1.5,x`);
    const { body } = await uploadCsv(bytes, { parser_options: { usecols: ["src", "label"] } });
    expect(body.tables_schemas[0]).toMatchObject({ num_rows: 20_000, dtypes: { src: "int64", label: "object" } });
  });
});
