// Arrow dictionary columns are `category` (pyarrow's to_pandas) with the same values, from an IPC file or stream, on both routes.
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Dictionary, Float64, Int16, Int32, Int64, Table, tableToIPC, Utf8, vectorFromArray } from "apache-arrow";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIXTURES } from "../helpers/fixtures.ts";
import { createTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { columnValues, ingest } from "../helpers/ingest.ts";

const dir = mkdtempSync(path.join(os.tmpdir(), "arrow-dictionary-"));

const VALUES = {
  id: [1n, 2n, 3n, 4n, 5n],
  ints: [10n, null, -(2n ** 60n), 10n, 7n],
  floats: [1.5, 1.5, null, -0.25, 1.5],
  names: ["b", "a", null, "ü", "a"],
};
const table = new Table({
  id: vectorFromArray(VALUES.id, new Int64()),
  ints: vectorFromArray(VALUES.ints, new Dictionary(new Int64(), new Int16())),
  floats: vectorFromArray(VALUES.floats, new Dictionary(new Float64(), new Int32())),
  names: vectorFromArray(VALUES.names, new Dictionary(new Utf8(), new Int32())),
});
const EXPECTED_DTYPES = { id: "int64", ints: "category", floats: "category", names: "category" };
const bytes = { file: Buffer.from(tableToIPC(table, "file")), stream: Buffer.from(tableToIPC(table, "stream")) };
const paths = { file: path.join(dir, "dict.arrow"), stream: path.join(dir, "dict.arrows") };
writeFileSync(paths.file, bytes.file);
writeFileSync(paths.stream, bytes.stream);

const asText = (values: unknown[]) => values.map((v) => (typeof v === "bigint" ? v.toString() : v));

describe("Arrow dictionary columns through the parser", () => {
  for (const kind of ["file", "stream"] as const) {
    it(`an IPC ${kind}: every dictionary column is category, with the values it holds`, async () => {
      const { schemas, tables } = await ingest(paths[kind], "arrow");
      expect(schemas[0]?.dtypes).toEqual(EXPECTED_DTYPES);
      const stored = tables[0];
      if (!stored) throw new Error("no table");
      for (const [name, values] of Object.entries(VALUES)) expect(columnValues(stored, name)).toEqual(asText(values));
    });
  }

  it("the upstream integration file and stream (int8/int32/int16 indices over utf8 and int64) read the same", async () => {
    const file = await ingest(path.join(FIXTURES, "arrow/cpp21_generated_dictionary.arrow"), "arrow");
    const stream = await ingest(path.join(FIXTURES, "arrow-stream/cpp21_generated_dictionary.arrows"), "arrow");
    expect(stream.schemas[0]?.dtypes).toEqual({ dict0: "category", dict1: "category", dict2: "category" });
    expect(stream.schemas[0]?.dtypes).toEqual(file.schemas[0]?.dtypes);
    for (const name of ["dict0", "dict1", "dict2"]) {
      expect(columnValues(stream.tables[0] as Table, name)).toEqual(columnValues(file.tables[0] as Table, name));
    }
  });

  it("a dtype hint wins over the dictionary, as pandas' astype would", async () => {
    const { schemas } = await ingest(paths.stream, "arrow", { parserOptions: { dtype: { ints: "float64" } } });
    expect(schemas[0]?.dtypes).toEqual({ ...EXPECTED_DTYPES, ints: "float64" });
  });
});

describe("Arrow dictionary columns through the routes", () => {
  let gw: TestGateway;
  let auth: Record<string, string>;
  beforeAll(async () => {
    gw = await createTestGateway("sqlite");
    auth = { authorization: `Bearer ${(await gw.users("alice")).alice}` };
  });
  afterAll(() => gw?.close());

  for (const kind of ["file", "stream"] as const) {
    it(`files route and direct route agree on an IPC ${kind}: category`, async () => {
      const created = await gw.json<{ file_id: string }>("/api/v2/files/", { method: "POST", headers: auth, json: { file_type: "arrow" } });
      const uploaded = await gw.json<{ is_valid: boolean; tables_schemas: { dtypes: Record<string, string> }[] }>(
        `/api/v2/upload/files/${created.body.file_id}`,
        { method: "POST", headers: auth, body: bytes[kind] },
      );
      expect(uploaded.body.is_valid).toBe(true);
      expect(uploaded.body.tables_schemas[0]?.dtypes).toEqual(EXPECTED_DTYPES);

      const dataset = await gw.json<{ data: { dataset_id: string } }>("/api/v2/upload/datasets/", {
        method: "POST",
        headers: auth,
        json: { name: "d", metadata: {}, node_encodings: { bindings: { node: "id" } }, edge_encodings: { bindings: {} } },
      });
      const direct = await gw.json<{ success: boolean; data: { dtypes: Record<string, string>; num_rows: number } }>(
        `/api/v2/upload/datasets/${dataset.body.data.dataset_id}/nodes/arrow`,
        { method: "POST", headers: auth, body: bytes[kind] },
      );
      expect(direct.status).toBe(200);
      expect(direct.body.data).toMatchObject({ num_rows: 5, dtypes: EXPECTED_DTYPES });
    });
  }
});
