// Parquet uploads kept as they came (parquet-keep.ts): the same schemas and rows as when written again as Arrow, read
// through table-files.ts, refused for types outside the plain ones, the same outcome on damaged files, and datasets
// built from them through the routes.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pl from "nodejs-polars";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isAppError } from "../../src/errors/app-error.ts";
import { keepCanonicalParquet } from "../../src/ingest/parquet-keep.ts";
import { type ParseRequest, parseUpload } from "../../src/ingest/parse.ts";
import { createParseSandbox, type ParseSandbox } from "../../src/ingest/parse-sandbox.ts";
import { readTable, storedTablePath } from "../../src/ingest/table-files.ts";
import { createTestGateway, type TestGateway } from "../helpers/gateway.ts";

const dir = mkdtempSync(path.join(os.tmpdir(), "parquet-keep-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let serial = 0;

/** A parse request for `bytes` stored as a new upload folder's raw file. */
function stored(bytes: Uint8Array, keepParquet: boolean, parserOptions: Record<string, unknown> = {}): ParseRequest {
  serial += 1;
  const base = path.join(dir, `u${serial}`);
  mkdirSync(path.join(base, "scratch"), { recursive: true });
  writeFileSync(path.join(base, "raw"), bytes);
  return {
    rawPath: path.join(base, "raw"),
    fileType: "parquet",
    compression: "",
    parserOptions,
    tableName: "t",
    tablesDir: path.join(base, "tables"),
    scratch: path.join(base, "scratch"),
    limits: { maxBytes: 1 << 30, maxRatio: 1000, floorBytes: 1 << 28 },
    keepParquet,
  };
}

function parquetOf(frame: pl.DataFrame): Buffer {
  serial += 1;
  const file = path.join(dir, `f${serial}.parquet`);
  frame.writeParquet(file);
  return readFileSync(file);
}

const rows = 3_000;
const plain = pl
  .DataFrame([
    pl.Series(
      "id",
      Array.from({ length: rows }, (_, i) => i),
      pl.Int64,
    ),
    pl.Series(
      "gaps",
      Array.from({ length: rows }, (_, i) => (i % 7 ? i : null)),
      pl.Int32,
    ),
    pl.Series(
      "big",
      Array.from({ length: rows }, (_, i) => BigInt("18446744073709551000") + BigInt(i % 600)),
      pl.UInt64,
    ),
    pl.Series(
      "weight",
      Array.from({ length: rows }, (_, i) => (i % 11 ? i / 3 : null)),
      pl.Float64,
    ),
    pl.Series(
      "small",
      Array.from({ length: rows }, (_, i) => i / 8),
      pl.Float32,
    ),
    pl.Series(
      "label",
      Array.from({ length: rows }, (_, i) => (i % 5 ? `é-${i}` : null)),
      pl.Utf8,
    ),
    pl.Series(
      "flag",
      Array.from({ length: rows }, (_, i) => i % 2 === 0),
      pl.Bool,
    ),
    pl.Series(
      "maybe",
      Array.from({ length: rows }, (_, i) => (i % 3 ? i % 2 === 0 : null)),
      pl.Bool,
    ),
    pl.Series(
      "when",
      Array.from({ length: rows }, (_, i) => new Date(Date.UTC(2024, 0, 1) + i * 3_600_000)),
      pl.Datetime("ms"),
    ),
  ])
  .withColumns(pl.col("when").cast(pl.Date).alias("day"), pl.col("when").cast(pl.Datetime("us", "UTC")).alias("zoned"));

describe("a Parquet upload kept as its table", () => {
  it("has the schema and rows the Arrow path stores, read through table-files.ts, and the upload itself as its table", async () => {
    const bytes = parquetOf(plain);
    const keep = stored(bytes, true);
    const write = stored(bytes, false);
    const kept = await parseUpload(keep);
    const written = await parseUpload(write);
    expect(kept).toEqual(written);
    expect(kept[0]?.dtypes).toMatchObject({ id: "int64", gaps: "float64", big: "uint64", maybe: "object", flag: "bool", label: "object" });
    const keptPath = path.join(keep.tablesDir, "0.arrow");
    expect(storedTablePath(keptPath)).toBe(path.join(keep.tablesDir, "0.parquet"));
    expect(existsSync(keptPath)).toBe(false);
    expect(statSync(path.join(keep.tablesDir, "0.parquet")).ino).toBe(statSync(keep.rawPath).ino);
    expect(storedTablePath(path.join(write.tablesDir, "0.arrow"))).toBe(path.join(write.tablesDir, "0.arrow"));
    const keptFrame = readTable(keptPath);
    const writtenFrame = readTable(path.join(write.tablesDir, "0.arrow"));
    expect(keptFrame.schema).toEqual(writtenFrame.schema);
    expect(keptFrame.frameEqual(writtenFrame, true)).toBe(true);
  });

  it("decodes every row group, a slice of them at a time", async () => {
    const file = path.join(dir, "groups.parquet");
    await plain.lazy().sinkParquet(file, { rowGroupSize: 250 }).collect();
    const target = path.join(dir, "groups-kept.parquet");
    const marks: string[] = [];
    const schema = await keepCanonicalParquet(file, target, "g", (stage) => marks.push(stage), 1_000);
    expect(schema).toMatchObject({ num_rows: rows, num_cols: plain.width, dtypes: { gaps: "float64", maybe: "object" } });
    expect(marks).toEqual(["parquetCheckMs", "linkMs"]);
    expect(pl.scanParquet(target).collectSync().frameEqual(plain, true)).toBe(true);
  });

  it.each([
    ["a categorical column", plain.withColumns(pl.col("label").cast(pl.Categorical).alias("label"))],
    ["a list column", plain.select("id").withColumns(pl.concatList([pl.col("id"), pl.col("id")]).alias("pair"))],
    ["a struct column", plain.select("id", "label").select(pl.col("id"), pl.struct([pl.col("id"), pl.col("label")]).alias("both"))],
  ])("with %s is written as Arrow, as before", async (_, frame) => {
    const bytes = parquetOf(frame);
    const keep = stored(bytes, true);
    const kept = await parseUpload(keep);
    expect(kept).toEqual(await parseUpload(stored(bytes, false)));
    expect(existsSync(path.join(keep.tablesDir, "0.parquet"))).toBe(false);
    expect(existsSync(path.join(keep.tablesDir, "0.arrow"))).toBe(true);
  });

  it("read with parser options is written as Arrow, as before", async () => {
    const keep = stored(parquetOf(plain), true, { columns: ["label", "id"] });
    const [schema] = await parseUpload(keep);
    expect(Object.keys(schema?.dtypes ?? {})).toEqual(["label", "id"]);
    expect(existsSync(path.join(keep.tablesDir, "0.arrow"))).toBe(true);
    expect(existsSync(path.join(keep.tablesDir, "0.parquet"))).toBe(false);
  });
});

describe("damaged Parquet files, kept or written", () => {
  let sandbox: ParseSandbox;
  beforeAll(() => {
    sandbox = createParseSandbox();
  });
  afterAll(() => sandbox?.close());

  /** Each file's outcome: its schemas (and a table polars reads back whole), or the failure's code. */
  async function outcome(request: ParseRequest): Promise<unknown> {
    try {
      const schemas = await sandbox.parse(request);
      expect(readTable(path.join(request.tablesDir, "0.arrow")).height).toBe(schemas[0]?.num_rows);
      return schemas;
    } catch (error) {
      return isAppError(error) ? error.code : String(error);
    }
  }

  it("answer the same whether kept or written: the same tables, or the same failure", async () => {
    const base = parquetOf(plain.head(200));
    let state = 5;
    const random = () => {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      return state / 4294967296;
    };
    const outcomes = new Set<string>();
    for (let i = 0; i < 30; i += 1) {
      const bytes = Buffer.from(base);
      for (let k = 0, flips = 1 + Math.floor(random() * 3); k < flips; k += 1)
        bytes[Math.floor(random() * bytes.length)] = Math.floor(random() * 256);
      const kept = await outcome(stored(bytes, true));
      expect(kept).toEqual(await outcome(stored(bytes, false)));
      outcomes.add(typeof kept === "string" ? kept : "parsed");
    }
    expect(outcomes).toContain("PARSE_FAILED");
    expect(outcomes).toContain("parsed");
  }, 120_000);
});

describe("datasets from a kept Parquet file, through the routes", () => {
  let gw: TestGateway;
  let auth: Record<string, string>;
  beforeAll(async () => {
    gw = await createTestGateway("sqlite", { KEEP_PARQUET_UPLOADS: "true" });
    auth = { authorization: `Bearer ${await gw.login()}` };
  });
  afterAll(() => gw?.close());

  it("stores the upload as the file's table and builds the dataset's Arrow tables from it", async () => {
    const edges = pl.DataFrame({
      s: Array.from({ length: 500 }, (_, i) => `n${i % 40}`),
      d: Array.from({ length: 500 }, (_, i) => `n${(i * 7) % 45}`),
      w: Array.from({ length: 500 }, (_, i) => i / 10),
    });
    const created = await gw.json<{ file_id: string }>("/api/v2/files/", { method: "POST", headers: auth, json: { file_type: "parquet" } });
    const id = created.body.file_id;
    const uploaded = await gw.json<{ is_valid: boolean; tables_schemas: { num_rows: number; dtypes: Record<string, string> }[] }>(
      `/api/v2/upload/files/${id}`,
      { method: "POST", headers: auth, body: new Uint8Array(parquetOf(edges)) },
    );
    expect(uploaded.body).toMatchObject({
      is_valid: true,
      tables_schemas: [{ num_rows: 500, dtypes: { s: "object", d: "object", w: "float64" } }],
    });
    const { db, blobs } = gw.gateway.services;
    const version = (await db.file.findUnique({ where: { id } }))?.dataVersion ?? "";
    expect(statSync(blobs.pathOf("files", id, version, "tables", "0.parquet")).ino).toBe(
      statSync(blobs.pathOf("files", id, version, "raw")).ino,
    );

    const dataset = await gw.json<{ data: { dataset_id: string } }>("/api/v2/upload/datasets/", {
      method: "POST",
      headers: auth,
      json: {
        name: "kept",
        metadata: {},
        node_encodings: { bindings: {} },
        edge_encodings: { bindings: { source: "s", destination: "d", edge_weight: "w" } },
        edge_files: [id],
      },
    });
    expect(dataset.status).toBe(200);
    const datasetId = dataset.body.data.dataset_id;
    const record = await db.dataset.findUnique({ where: { id: datasetId } });
    expect(record).toMatchObject({ edgeCount: 500, nodeCount: 45 });
    const table = blobs.pathOf("datasets", datasetId, "tables", record?.dataVersion ?? "", "edges.arrow");
    // The dataset's own tables are Arrow, whatever the file's table is.
    expect(pl.scanIPC(table).collectSync().frameEqual(edges)).toBe(true);
  });
});
