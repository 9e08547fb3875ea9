// Dataset routes (spec 4.3): creation from files and direct uploads, records, listing, deletion, bad input, access.
import { tableFromArrays, tableToIPC } from "apache-arrow";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROVIDERS } from "../helpers/databases.ts";
import { fixture } from "../helpers/fixtures.ts";
import { createTestGateway, type TestGateway } from "../helpers/gateway.ts";

type Json = Record<string, unknown>;
type Created = { data: { dataset_id: string }; message: string; success: boolean };

const DATASET_FIELDS = [
  "agent_name",
  "agent_version",
  "author",
  "compute",
  "created_at",
  "dataset_id",
  "description",
  "edge_count",
  "edge_encodings",
  "edge_files",
  "edge_hypergraph_transform",
  "edge_transform",
  "image",
  "layout",
  "legacy_dataset_author",
  "legacy_dataset_name",
  "metadata",
  "name",
  "node_count",
  "node_encodings",
  "node_files",
  "node_transform",
  "slug",
  "timestamp",
  "updated_at",
  "uri_tag",
];

describe.each(PROVIDERS)("dataset routes on %s", (provider) => {
  let gw: TestGateway;
  let alice: Record<string, string>;
  let bob: Record<string, string>;

  async function file(headers: Record<string, string>, fileType: string, body: BodyInit, extra: Json = {}): Promise<string> {
    const created = await gw.json<{ file_id: string }>("/api/v2/files/", {
      method: "POST",
      headers,
      json: { file_type: fileType, ...extra },
    });
    const uploaded = await gw.json<{ is_valid: boolean }>(`/api/v2/upload/files/${created.body.file_id}?erase=true`, {
      method: "POST",
      headers,
      body,
    });
    expect(uploaded.body.is_valid).toBe(true);
    return created.body.file_id;
  }

  const createDataset = (headers: Record<string, string>, json: Json) =>
    gw.json<Created & Json>("/api/v2/upload/datasets/", { method: "POST", headers, json });
  const listed = async (headers: Record<string, string>, id: string) => {
    const { body } = await gw.json<{ results: Json[] }>("/api/v2/datasets/?limit=1000", { headers });
    return body.results.find((d) => d.dataset_id === id);
  };

  beforeAll(async () => {
    gw = await createTestGateway(provider);
    const tokens = await gw.users("alice", "bob");
    alice = { authorization: `Bearer ${tokens.alice}` };
    bob = { authorization: `Bearer ${tokens.bob}` };
  });
  afterAll(() => gw?.close());

  it("creates a dataset from edge and node files, lists it with counts and every spec field, and reads it as pygraphistry does", async () => {
    const edges = await file(alice, "csv", "s,d,w\na,b,1\nb,c,2\nc,x,3\n");
    const nodes = await file(alice, "csv", "id,label\na,A\nb,B\nc,C\n");
    const { status, body } = await createDataset(alice, {
      name: "tiny",
      description: "three edges",
      metadata: { agent: "pygraphistry", apiversion: "3" },
      node_encodings: { bindings: { node: "id", node_label: "label" } },
      edge_encodings: { bindings: { source: "s", destination: "d", edge_weight: "w" } },
      node_files: [nodes],
      edge_files: [edges],
    });
    expect(status).toBe(200);
    expect(body.success).toBe(true);
    // x is an endpoint missing from the nodes table: it becomes a node, and the message says so.
    expect(body.message).toMatch(/1 edge endpoints missing from the nodes table were added/);
    const record = await listed(alice, body.data.dataset_id);
    expect(Object.keys(record ?? {}).sort()).toEqual(DATASET_FIELDS);
    expect(record).toMatchObject({
      name: "tiny",
      node_count: 4,
      edge_count: 3,
      node_files: [nodes],
      edge_files: [edges],
      metadata: { agent: "pygraphistry", apiversion: "3" },
    });
    const read = await gw.json<{ success: boolean; data: Json }>(`/api/v2/upload/datasets/${body.data.dataset_id}`, { headers: alice });
    expect(read.body.data).toMatchObject({
      dataset_id: body.data.dataset_id,
      name: "tiny",
      node_encodings: { bindings: { node: "id" } },
      metadata: {},
    });
  });

  it.each([
    ["csv", "csv/foods1.csv", "category"],
    ["json", "json/foods1.json", "category"],
    ["parquet", "parquet/foods1.parquet", "category"],
    ["arrow", "arrow/foods1.ipc", "category"],
    ["orc", "orc/TestOrcFile.testSnappy.orc", "string1"],
    ["xls", "xls/RkNumber.xls", "sample"],
    ["xlsx", "xlsx/DataTypesFormats.xlsx", "Date"],
  ])("builds a nodes-only dataset from a %s file", async (fileType, relative, column) => {
    const id = await file(alice, fileType, fixture(relative));
    const { status, body } = await createDataset(alice, {
      name: fileType,
      metadata: {},
      node_encodings: { bindings: { node: column } },
      edge_encodings: { bindings: {} },
      node_files: [id],
    });
    expect(status).toBe(200);
    expect((await listed(alice, body.data.dataset_id))?.node_count).toBeGreaterThan(0);
  });

  it("makes nodes from the edges when there is no nodes file", async () => {
    const edges = await file(alice, "csv", "s,d\n1,2\n2,3\n3,1\n1,4\n");
    const { body } = await createDataset(alice, {
      name: "auto",
      metadata: {},
      node_encodings: { bindings: {} },
      edge_encodings: { bindings: { source: "s", destination: "d" } },
      edge_files: [edges],
    });
    expect(await listed(alice, body.data.dataset_id)).toMatchObject({ node_count: 4, edge_count: 4 });
  });

  it("reads [file_id, n] as table n: a workbook's second sheet", async () => {
    const book = await file(alice, "xlsx", fixture("xlsx/polars_example.xlsx"));
    const sheets = await gw.json<{ tables_schemas: { name: string; dtypes: Record<string, string> }[] }>(`/api/v2/files/${book}`, {
      headers: alice,
    });
    const second = sheets.body.tables_schemas[1];
    const column = Object.keys(second?.dtypes ?? {})[0] ?? "";
    const { status, body } = await createDataset(alice, {
      name: "sheet",
      metadata: {},
      node_encodings: { bindings: { node: column } },
      edge_encodings: { bindings: {} },
      node_files: [[book, 1]],
    });
    expect(status).toBe(200);
    expect((await listed(alice, body.data.dataset_id))?.node_count).toBeGreaterThan(0);
  });

  it("replays pygraphistry's plot(): bindings first, then Arrow IPC file bytes with no Content-Type to edges/arrow and nodes/arrow", async () => {
    const { body } = await createDataset(alice, {
      node_encodings: { bindings: { node: "n", node_title: "title" }, complex: { current: {}, default: {} } },
      edge_encodings: { bindings: { source: "s", destination: "d" } },
      metadata: { usertag: "abc", agent: "pygraphistry", apiversion: "3", agentversion: "0.35" },
      name: "Untitled 0123456789",
      description: "",
    });
    const id = body.data.dataset_id;
    const edges = Buffer.from(tableToIPC(tableFromArrays({ s: Int32Array.from([1, 2, 3]), d: Int32Array.from([2, 3, 1]) }), "file"));
    const e = await gw.json<{ success: boolean; data: Json; message: string }>(`/api/v2/upload/datasets/${id}/edges/arrow`, {
      method: "POST",
      headers: alice,
      body: edges,
    });
    expect(e.status).toBe(200);
    expect(e.body).toMatchObject({ success: true, data: { dataset_id: id, num_rows: 3, num_cols: 2, dtypes: { s: "int32", d: "int32" } } });
    expect(e.body.data.time_parsing_s).toEqual(expect.any(Number));
    const nodes = Buffer.from(tableToIPC(tableFromArrays({ n: Int32Array.from([1, 2, 3]), title: ["one", "two", "three"] }), "file"));
    const n = await gw.json<{ success: boolean }>(`/api/v2/upload/datasets/${id}/nodes/arrow`, {
      method: "POST",
      headers: alice,
      body: nodes,
    });
    expect(n.body.success).toBe(true);
    expect(await listed(alice, id)).toMatchObject({ node_count: 3, edge_count: 3 });
  });

  it("replays pygraphistry's upload(): files first, then a dataset naming them", async () => {
    const ipc = (t: Parameters<typeof tableFromArrays>[0]) => Buffer.from(tableToIPC(tableFromArrays(t), "file"));
    const eid = await file(alice, "arrow", ipc({ src: ["a", "b"], dst: ["b", "c"] }), {
      agent_name: "pygraphistry",
      agent_version: "0.35",
      name: "x edges",
    });
    const nid = await file(alice, "arrow", ipc({ id: ["a", "b", "c"] }), {
      agent_name: "pygraphistry",
      agent_version: "0.35",
      name: "x edges",
    });
    const { body } = await createDataset(alice, {
      node_encodings: { bindings: { node: "id" } },
      edge_encodings: { bindings: { source: "src", destination: "dst" } },
      metadata: { agent: "pygraphistry", apiversion: "3" },
      name: "x",
      description: "",
      edge_files: [eid],
      node_files: [nid],
    });
    expect(await listed(alice, body.data.dataset_id)).toMatchObject({ node_count: 3, edge_count: 2 });
  });

  it("maps direct-upload query parameters onto the csv reader, and refuses one that cannot apply, by name", async () => {
    const { body } = await createDataset(alice, {
      name: "direct",
      metadata: {},
      node_encodings: { bindings: {} },
      edge_encodings: { bindings: { source: "a", destination: "b" } },
    });
    const id = body.data.dataset_id;
    const ok = await gw.json<{ data: { num_rows: number; dtypes: Record<string, string> } }>(
      `/api/v2/upload/datasets/${id}/edges/csv?sep=%3B&skiprows=1`,
      {
        method: "POST",
        headers: alice,
        body: "junk line\na;b\n1;2\n2;3\n",
      },
    );
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ num_rows: 2, dtypes: { a: "int64", b: "int64" } });
    const refused = await gw.json<{ error: { details: { field: string } } }>(`/api/v2/upload/datasets/${id}/edges/arrow?sep=%3B`, {
      method: "POST",
      headers: alice,
      body: "x",
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.field).toBe("sep");
    expect((await gw.request(`/api/v2/upload/datasets/${id}/edges/xml`, { method: "POST", headers: alice, body: "x" })).status).toBe(404);
  });

  it("applies the hypergraph transform: [{}] turns on the defaults, edges run from EventID to attribID", async () => {
    const events = await file(alice, "csv", "a,b,c,d\nx,1,p,q\ny,1,p,r\nz,2,s,q\n");
    const { status, body } = await createDataset(alice, {
      name: "hyper",
      metadata: {},
      node_encodings: { bindings: {} },
      edge_encodings: { bindings: {} },
      edge_files: [events],
      edge_hypergraph_transform: [{}],
    });
    expect(status).toBe(200);
    const id = body.data.dataset_id;
    // 3 rows x 4 columns: 12 edges; 9 distinct entities + 3 events = 12 nodes here (values repeat).
    expect(await listed(alice, id)).toMatchObject({ edge_count: 12, node_count: 12 });
    const read = await gw.json<{ data: { node_encodings: { bindings: Json }; edge_encodings: { bindings: Json } } }>(
      `/api/v2/upload/datasets/${id}`,
      { headers: alice },
    );
    expect(read.body.data.edge_encodings.bindings).toMatchObject({ source: "EventID", destination: "attribID" });
    expect(read.body.data.node_encodings.bindings).toMatchObject({ node: "nodeID" });
    const bad = await createDataset(alice, {
      name: "h",
      metadata: {},
      node_encodings: { bindings: {} },
      edge_encodings: { bindings: {} },
      edge_files: [events],
      edge_hypergraph_transform: [{ opts: { SKIP: ["nope"] } }],
    });
    expect(bad.status).toBe(400);
  });

  it("keeps field-filter encodings in both forms, normalized, and refuses malformed ones by path", async () => {
    const edges = await file(alice, "csv", "s,d,kind\n1,2,x\n");
    const inclusion = { graphType: "point", encodingType: "fieldinclusion", inclusion: { name: true, types: { person: { age: true } } } };
    const exclusion = { graphType: "edge", encodingType: "fieldexclusion", exclusion: { kind: true } };
    for (const [nodeComplex, edgeComplex] of [
      [{ default: { pointFieldInclusionEncoding: inclusion } }, { default: { edgeFieldExclusionEncoding: exclusion } }],
      [[inclusion], [exclusion]],
    ]) {
      const { status, body } = await createDataset(alice, {
        name: "filters",
        metadata: {},
        node_encodings: { bindings: {}, complex: nodeComplex },
        edge_encodings: { bindings: { source: "s", destination: "d" }, complex: edgeComplex },
        edge_files: [edges],
      });
      expect(status).toBe(200);
      const read = await gw.graphql<{ dataset: { fieldFilters: Json[]; nodeEncodings: { complex: { default: Json } } } }>(
        `query($id: ID!) { dataset(id: $id) { fieldFilters nodeEncodings } }`,
        { id: body.data.dataset_id },
        alice.authorization?.slice(7),
      );
      expect(read.body.data?.dataset.nodeEncodings.complex.default).toHaveProperty("pointFieldInclusionEncoding");
      expect(read.body.data?.dataset.fieldFilters).toHaveLength(2);
    }
    const bad = await createDataset(alice, {
      name: "bad filter",
      metadata: {},
      node_encodings: { bindings: {}, complex: { default: { pointFieldInclusionEncoding: { ...inclusion, inclusion: { name: "yes" } } } } },
      edge_encodings: { bindings: { source: "s", destination: "d" } },
      edge_files: [edges],
    });
    expect(bad.status).toBe(400);
    expect((bad.body as unknown as { error: { details: { field: string } } }).error.details.field).toBe(
      "node_encodings.complex.default.pointFieldInclusionEncoding.inclusion.name",
    );
  });

  it("answers 400 naming the field for bad bodies, bad bindings and bad references", async () => {
    const edges = await file(alice, "csv", "s,d\n1,2\n");
    const base = {
      name: "bad",
      metadata: {},
      node_encodings: { bindings: {} },
      edge_encodings: { bindings: { source: "s", destination: "d" } },
      edge_files: [edges],
    };
    const cases: [Json, string][] = [
      [{ ...base, metadata: undefined }, "metadata"],
      [{ ...base, edge_encodings: { bindings: { source: "s", destination: "nope" } } }, "edge_encodings.bindings.destination"],
      [{ ...base, edge_encodings: { bindings: { source: "s" } } }, "edge_encodings.bindings.destination"],
      [{ ...base, edge_files: ["no-such-file"] }, "edge_files[0]"],
      [{ ...base, edge_files: [[edges, 3]] }, "edge_files[0]"],
      [{ ...base, surprise: 1 }, "surprise"],
    ];
    for (const [json, field] of cases) {
      const { status, body } = await gw.json<{ error: { details: { field: string } } }>("/api/v2/upload/datasets/", {
        method: "POST",
        headers: alice,
        json,
      });
      expect(status, field).toBe(400);
      expect(body.error.details.field).toBe(field);
    }
  });

  it("refuses someone else's file ids and hides others' datasets", async () => {
    const edges = await file(alice, "csv", "s,d\n1,2\n");
    const { status } = await createDataset(bob, {
      name: "theft",
      metadata: {},
      node_encodings: { bindings: {} },
      edge_encodings: { bindings: { source: "s", destination: "d" } },
      edge_files: [edges],
    });
    expect(status).toBe(400);
    const { body } = await createDataset(alice, {
      name: "mine",
      metadata: {},
      node_encodings: { bindings: {} },
      edge_encodings: { bindings: { source: "s", destination: "d" } },
      edge_files: [edges],
    });
    expect(await listed(bob, body.data.dataset_id)).toBeUndefined();
    expect((await gw.request(`/api/v2/upload/datasets/${body.data.dataset_id}`, { headers: bob })).status).toBe(404);
    expect((await gw.request(`/api/v2/datasets/${body.data.dataset_id}`, { method: "DELETE", headers: bob })).status).toBe(404);
  });

  it("deletes with 204, removing the dataset's tables and keeping its files", async () => {
    const edges = await file(alice, "csv", "s,d\n1,2\n");
    const { body } = await createDataset(alice, {
      name: "gone",
      metadata: {},
      node_encodings: { bindings: {} },
      edge_encodings: { bindings: { source: "s", destination: "d" } },
      edge_files: [edges],
    });
    const id = body.data.dataset_id;
    expect(await gw.gateway.services.blobs.exists(["datasets", id])).toBe(true);
    expect((await gw.request(`/api/v2/datasets/${id}`, { method: "DELETE", headers: alice })).status).toBe(204);
    expect(await listed(alice, id)).toBeUndefined();
    expect(await gw.gateway.services.blobs.exists(["datasets", id])).toBe(false);
    expect((await gw.request(`/api/v2/files/${edges}`, { headers: alice })).status).toBe(200);
  });
});
