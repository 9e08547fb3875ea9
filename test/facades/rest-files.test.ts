// File routes (spec 4.2, 3.2): records, failure semantics, re-parse, compression checks, limits and access.
import { stat } from "node:fs/promises";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROVIDERS } from "../helpers/databases.ts";
import { fixture } from "../helpers/fixtures.ts";
import { createTestGateway, type TestGateway } from "../helpers/gateway.ts";

type FileBody = Record<string, unknown> & {
  file_id: string;
  is_valid: boolean;
  is_uploaded: boolean;
  bytes_count: number | null;
  errors: Record<string, unknown>;
  tables_schemas: { name: string; num_rows: number; num_cols: number; dtypes: Record<string, string> }[];
};

const SPEC_FIELDS = [
  "agent_name",
  "agent_version",
  "author",
  "bytes_count",
  "created_at",
  "description",
  "errors",
  "file_compression",
  "file_id",
  "file_type",
  "is_uploaded",
  "is_valid",
  "name",
  "parser_options",
  "sql_transforms",
  "tables_schemas",
  "updated_at",
];

describe.each(PROVIDERS)("file routes on %s", (provider) => {
  let gw: TestGateway;
  let alice: Record<string, string>;
  let bob: Record<string, string>;

  const create = (headers: Record<string, string>, json: Record<string, unknown>) =>
    gw.json<FileBody>("/api/v2/files/", { method: "POST", headers, json });
  const upload = (headers: Record<string, string>, id: string, body: BodyInit, erase = true) =>
    gw.json<FileBody>(`/api/v2/upload/files/${id}?erase=${erase}`, { method: "POST", headers, body });

  beforeAll(async () => {
    gw = await createTestGateway(provider, { MAX_UPLOAD_BYTES: "200000", MAX_DECOMPRESSED_BYTES: "300000", MAX_COMPRESSION_RATIO: "50" });
    const admin = await gw.login();
    for (const [username, org] of [
      ["alice", "team"],
      ["bob", "other"],
      ["carol", "team"],
    ]) {
      await gw.graphql(
        `mutation($i: CreateUserInput!) { createUser(input: $i) { id } }`,
        { i: { username, password: `${username}-password`, org } },
        admin,
      );
    }
    alice = { authorization: `Bearer ${await gw.login("alice", "alice-password")}` };
    bob = { authorization: `Bearer ${await gw.login("bob", "bob-password")}` };
  });
  afterAll(() => gw?.close());

  it("creates a record in the 'created' state with every spec field", async () => {
    const { status, body } = await create(alice, { file_type: "csv", name: "edges.csv", agent_name: "pygraphistry", agent_version: "0.1" });
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(SPEC_FIELDS);
    expect(body).toMatchObject({
      is_uploaded: false,
      is_valid: false,
      bytes_count: null,
      tables_schemas: [],
      errors: {},
      description: "",
      file_compression: "",
    });
  });

  it("parses an upload sent without Content-Type, and a second upload replaces the first", async () => {
    const { body: file } = await create(alice, { file_type: "csv", name: "foods1.csv" });
    const first = await upload(alice, file.file_id, fixture("csv/foods1.csv"));
    expect(first.body).toMatchObject({ is_uploaded: true, is_valid: true, errors: {}, bytes_count: fixture("csv/foods1.csv").length });
    expect(first.body.tables_schemas[0]).toMatchObject({
      num_rows: 27,
      num_cols: 4,
      dtypes: { category: "object", calories: "int64", fats_g: "float64", sugars_g: "int64" },
    });
    const second = await upload(alice, file.file_id, "a,b\n1,x\n2,y\n");
    expect(second.body.tables_schemas[0]).toMatchObject({ num_rows: 2, dtypes: { a: "int64", b: "object" } });
  });

  it("stores an uncompressed Arrow IPC file as its own table, without a copy", async () => {
    const { body: file } = await create(alice, { file_type: "arrow" });
    const { body } = await upload(alice, file.file_id, fixture("arrow/foods1.ipc"));
    expect(body.tables_schemas[0]).toMatchObject({ num_rows: 27, dtypes: { category: "object", calories: "int64" } });
    const row = await gw.gateway.services.db.file.findUnique({ where: { id: file.file_id } });
    const { blobs } = gw.gateway.services;
    const raw = await stat(blobs.pathOf("files", file.file_id, row?.dataVersion ?? "", "raw"));
    const table = await stat(blobs.pathOf("files", file.file_id, row?.dataVersion ?? "", "tables", "0.arrow"));
    expect(table.ino).toBe(raw.ino);
  });

  it("accepts the JS client's JSON object of columns with its agent keys", async () => {
    const { body: file } = await create(alice, { file_type: "json", parser_options: { orient: "records" } });
    const data = JSON.stringify({
      s: ["a", "b", "c"],
      d: ["b", "c", "a"],
      prop1: [1, 2, 3],
      agent_name: "@graphistry/js-upload-api",
      agent_version: "5",
    });
    const { body } = await upload(alice, file.file_id, data);
    expect(body.errors).toEqual({});
    expect(body.tables_schemas[0]).toMatchObject({ num_rows: 3, num_cols: 3, dtypes: { s: "object", d: "object", prop1: "int64" } });
  });

  it("with erase=true a failed parse deletes the data: not uploaded, not valid, errors say why", async () => {
    const { body: file } = await create(alice, { file_type: "parquet" });
    const { status, body } = await upload(alice, file.file_id, "this is not parquet", true);
    expect(status).toBe(200);
    expect(body).toMatchObject({ is_uploaded: false, is_valid: false, bytes_count: null, tables_schemas: [] });
    expect(body.errors).toMatchObject({ code: "PARSE_FAILED", message: expect.stringContaining("not parquet") });
  });

  it("with erase=false a failed parse keeps the data", async () => {
    const { body: file } = await create(alice, { file_type: "orc" });
    const { body } = await upload(alice, file.file_id, "not an orc file at all", false);
    expect(body).toMatchObject({ is_uploaded: true, is_valid: false, bytes_count: 22, tables_schemas: [] });
    expect(body.errors).toMatchObject({ code: "PARSE_FAILED" });
    const fixed = await gw.json<FileBody>(`/api/v2/upload/files/${file.file_id}/`, {
      method: "PATCH",
      headers: alice,
      json: { file_type: "csv" },
    });
    expect(fixed.body).toMatchObject({ is_valid: true, file_type: "csv" });
  });

  it("a PATCH of the parser settings parses kept data again, failing or not", async () => {
    const { body: file } = await create(alice, { file_type: "csv" });
    const data = "name;age\nann;31\nbo;42\n";
    const failed = await upload(alice, file.file_id, data, false);
    // The default separator reads one column "name;age": valid, if not what was meant.
    expect(failed.body.is_valid).toBe(true);
    const bad = await gw.json<FileBody>(`/api/v2/upload/files/${file.file_id}/`, {
      method: "PATCH",
      headers: alice,
      json: { parser_options: { sep: ";", dtype: { name: "int64" } } },
    });
    expect(bad.status).toBe(200);
    expect(bad.body).toMatchObject({ is_uploaded: true, is_valid: false, bytes_count: data.length });
    expect(bad.body.errors).toMatchObject({ code: "PARSE_FAILED", column: "name" });
    const fixed = await gw.json<FileBody>(`/api/v2/upload/files/${file.file_id}/`, {
      method: "PATCH",
      headers: alice,
      json: { parser_options: { sep: ";" } },
    });
    expect(fixed.body).toMatchObject({ is_uploaded: true, is_valid: true, errors: {} });
    expect(fixed.body.tables_schemas[0]).toMatchObject({ num_rows: 2, dtypes: { name: "object", age: "int64" } });
  });

  it("refuses an unsupported parser option by name, at creation", async () => {
    const { status, body } = await create(alice, { file_type: "csv", parser_options: { index_col: 0 } });
    expect(status).toBe(400);
    expect((body.error as { details: { field: string } }).details.field).toBe("parser_options.index_col");
  });

  it("checks compression against the name and against the bytes", async () => {
    expect((await create(alice, { file_type: "csv", name: "x.csv.gz" })).status).toBe(400);
    expect((await create(alice, { file_type: "csv", name: "x.csv", file_compression: "gzip" })).status).toBe(400);
    const { body: declared } = await create(alice, { file_type: "csv", name: "x.csv.gz", file_compression: "gzip" });
    const plain = await upload(alice, declared.file_id, "a,b\n1,2\n");
    expect(plain.body.errors).toMatchObject({ code: "PARSE_FAILED", message: expect.stringContaining("not gzip") });
    const { body: undeclared } = await create(alice, { file_type: "csv", name: "y.csv" });
    const zipped = await upload(alice, undeclared.file_id, gzipSync("a,b\n1,2\n"));
    expect(zipped.body.errors).toMatchObject({ code: "PARSE_FAILED", sniffed: "gzip" });
    const good = await upload(alice, declared.file_id, gzipSync("a,b\n1,2\n"));
    expect(good.body.is_valid).toBe(true);
  });

  it("refuses a decompression bomb without exhausting memory", async () => {
    const { body: file } = await create(alice, { file_type: "csv", name: "bomb.csv.gz", file_compression: "gzip" });
    const bomb = gzipSync(Buffer.alloc(5_000_000, 0x61));
    expect(bomb.length).toBeLessThan(200_000);
    const { body } = await upload(alice, file.file_id, bomb);
    expect(body).toMatchObject({ is_valid: false, is_uploaded: false });
    expect(body.errors.code).toBe("PAYLOAD_TOO_LARGE");
  });

  it("answers 413 for uploads over the configured maximum, leaving the previous data", async () => {
    const { body: file } = await create(alice, { file_type: "csv" });
    await upload(alice, file.file_id, "a\n1\n");
    const response = await gw.request(`/api/v2/upload/files/${file.file_id}`, {
      method: "POST",
      headers: alice,
      body: Buffer.alloc(300_000, 0x31),
    });
    expect(response.status).toBe(413);
    const after = await gw.json<FileBody>(`/api/v2/files/${file.file_id}`, { headers: alice });
    expect(after.body).toMatchObject({ is_valid: true, bytes_count: 4 });
  });

  it("lists with the envelope and absolute links, newest first", async () => {
    const { body } = await gw.json<{ count: number; next: string | null; previous: string | null; results: FileBody[] }>(
      "/api/v2/files/?limit=2&offset=1",
      {
        headers: alice,
      },
    );
    expect(body.count).toBeGreaterThan(3);
    expect(body.results).toHaveLength(2);
    expect(body.next).toMatch(/^http:\/\/gateway\.test\/api\/v2\/files\/\?limit=2&offset=3$/);
    expect(body.previous).toMatch(/^http:\/\/gateway\.test\/api\/v2\/files\/\?limit=2$/);
  });

  it("keeps files to their owner and organization: someone else's id answers 404", async () => {
    const { body: file } = await create(alice, { file_type: "csv", org_name: "team" });
    expect((await gw.request(`/api/v2/files/${file.file_id}`, { headers: bob })).status).toBe(404);
    expect((await gw.request(`/api/v2/upload/files/${file.file_id}`, { method: "POST", headers: bob, body: "a\n1\n" })).status).toBe(404);
    expect((await gw.request(`/api/v2/files/${file.file_id}`, { method: "DELETE", headers: bob })).status).toBe(404);
    const carol = { authorization: `Bearer ${await gw.login("carol", "carol-password")}` };
    expect((await gw.request(`/api/v2/files/${file.file_id}`, { headers: carol })).status).toBe(200);
    const bobs = await gw.json<{ results: FileBody[] }>("/api/v2/files/", { headers: bob });
    expect(bobs.body.results.map((f) => f.file_id)).not.toContain(file.file_id);
    expect((await create(bob, { file_type: "csv", org_name: "team" })).status).toBe(403);
  });

  it("deletes with 204, and the record and data are gone", async () => {
    const { body: file } = await create(alice, { file_type: "csv" });
    await upload(alice, file.file_id, "a\n1\n");
    const response = await gw.request(`/api/v2/files/${file.file_id}`, { method: "DELETE", headers: alice });
    expect(response.status).toBe(204);
    expect((await gw.request(`/api/v2/files/${file.file_id}`, { headers: alice })).status).toBe(404);
    expect(await gw.gateway.services.blobs.exists(["files", file.file_id])).toBe(false);
  });

  it("needs a token", async () => {
    expect((await gw.request("/api/v2/files/")).status).toBe(401);
    expect((await gw.request("/api/v2/files/", { method: "POST", json: { file_type: "csv" } })).status).toBe(401);
  });
});
