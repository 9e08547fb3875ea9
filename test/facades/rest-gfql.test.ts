// GFQL surfaces: pygraphistry's remote route and the GraphQL query on datasets and sessions, with limits and a real timeout.
import { tableFromIPC } from "apache-arrow";
import { unzipSync } from "fflate";
import pl from "nodejs-polars";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { csvEdgeDataset } from "../helpers/datasets.ts";
import { createTestGateway, type TestGateway } from "../helpers/gateway.ts";

type Json = Record<string, unknown>;

const graphDataset = (gw: TestGateway, token: string) => csvEdgeDataset(gw, token, "s,d,w\na,b,1\nb,c,5\nc,d,9\nx,y,2\n");

describe("GFQL surfaces", () => {
  let gw: TestGateway;
  let token: string;
  let id: string;
  const post = (path: string, json: Json, bearer = token) =>
    gw.json<Json>(path, { method: "POST", headers: { authorization: `Bearer ${bearer}` }, json });

  beforeAll(async () => {
    gw = await createTestGateway("sqlite");
    token = await gw.login();
    id = await graphDataset(gw, token);
  });
  afterAll(() => gw?.close());

  it("answers pygraphistry's remote GFQL in JSON: a two-hop chain from a", async () => {
    const chain = [
      { type: "Node", filter_dict: { node: "a" } },
      { type: "Edge", direction: "forward", hops: 2 },
      { type: "Node", filter_dict: {} },
    ];
    const all = await post(`/api/v2/etl/datasets/${id}/gfql/all`, { gfql_operations: chain, format: "json", engine: "pandas" });
    expect(all.status).toBe(200);
    expect(all.body).toEqual({
      nodes: [{ node: "a" }, { node: "b" }, { node: "c" }],
      edges: [
        { s: "a", d: "b", w: 1 },
        { s: "b", d: "c", w: 5 },
      ],
      metadata: { node_count: 3, edge_count: 2, truncated: false },
    });
    // pandas.DataFrame(body) is what pygraphistry builds from these.
    const shape = await post(`/api/v2/etl/datasets/${id}/gfql/shape`, { gfql_query: { type: "Chain", chain }, gfql_operations: [] });
    expect(shape.body).toEqual([
      { kind: "nodes", rows: 3 },
      { kind: "edges", rows: 2 },
    ]);
    const nodes = await post(`/api/v2/etl/datasets/${id}/gfql/nodes`, { gfql_operations: chain, format: "json" });
    expect(nodes.body).toEqual([{ node: "a" }, { node: "b" }, { node: "c" }]);
  });

  it("takes one read-only Cypher query as gfql_query's text, as the GraphQL query and /mcp do", async () => {
    const cypher = "MATCH (a)-[e]->(b) WHERE e.w > 1 RETURN DISTINCT b.node AS n ORDER BY n";
    const rows = await post(`/api/v2/etl/datasets/${id}/gfql/nodes`, { gfql_query: cypher, format: "json" });
    expect(rows.status).toBe(200);
    expect(rows.body).toEqual([{ n: "c" }, { n: "d" }, { n: "y" }]);
    const shape = await post(`/api/v2/etl/datasets/${id}/gfql/shape`, { gfql_query: "MATCH (n) WHERE n.node <> 'x' RETURN n" });
    expect(shape.body).toEqual([
      { kind: "nodes", rows: 5 },
      { kind: "edges", rows: 0 },
    ]);
    const written = await post(`/api/v2/etl/datasets/${id}/gfql/all`, { gfql_query: "MATCH (n) DELETE n" });
    expect(written.status).toBe(400);
    expect(JSON.stringify(written.body)).toMatch(/read-only/);
    const notText = await post(`/api/v2/etl/datasets/${id}/gfql/all`, { gfql_query: 7 });
    expect(notText.status).toBe(400);
    expect(notText.body).toMatchObject({ error: { code: "INVALID_INPUT", details: { field: "gfql_query" } } });
  });

  it("answers the Let binding gfql_output names, as pygraphistry's gfql_remote(output=...) asks", async () => {
    const let_ = {
      type: "Let",
      bindings: {
        start: { type: "Node", filter_dict: { node: "a" } },
        next: { type: "Ref", ref: "start", chain: [{ type: "Node", filter_dict: {} }] },
        far: { type: "Chain", chain: [{ type: "Node", filter_dict: { node: "x" } }] },
      },
    };
    const path = `/api/v2/etl/datasets/${id}/gfql/nodes`;
    // Without gfql_output, the binding run last in pygraphistry's order (start and far need nothing, then next):
    // pygraphistry's own answer to this Let is node a.
    const last = await post(path, { gfql_query: let_, gfql_operations: [], format: "json" });
    expect(last.body).toEqual([{ node: "a" }]);
    const far = await post(path, { gfql_query: let_, gfql_operations: [], format: "json", gfql_output: "far" });
    expect(far.body).toEqual([{ node: "x" }]);
    const chosen = await post(path, { gfql_query: let_, gfql_operations: [], format: "json", gfql_output: "start" });
    expect(chosen.status).toBe(200);
    expect(chosen.body).toEqual([{ node: "a" }]);
    const asText = await post(path, { gfql_query: JSON.stringify(let_), format: "json", gfql_output: "next" });
    expect(asText.body).toEqual([{ node: "a" }]);
    const unknown = await post(path, { gfql_query: let_, format: "json", gfql_output: "nope" });
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(unknown.body)).toMatch(/E151.*nope/);
    const notLet = await post(path, { gfql_operations: [{ type: "Node" }], format: "json", gfql_output: "start" });
    expect(notLet.status).toBe(400);
    expect(notLet.body).toMatchObject({ error: { code: "INVALID_INPUT", details: { field: "gfql_output" } } });
  });

  it("answers parquet (pygraphistry's default) and csv: one file per axis, a zip for all", async () => {
    const chain = [{ type: "Node", filter_dict: { node: "a" } }, { type: "Edge", direction: "forward", hops: 2 }, { type: "Node" }];
    const raw = (output: string, format: string) =>
      gw.request(`/api/v2/etl/datasets/${id}/gfql/${output}`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}` },
        json: { gfql_operations: chain, gfql_query: { type: "Chain", chain }, format, engine: "pandas", strictness: "default" },
      });
    const nodes = await raw("nodes", "parquet");
    expect(nodes.status).toBe(200);
    expect(nodes.headers.get("content-type")).toBe("application/vnd.apache.parquet");
    const nodeFrame = pl.readParquet(Buffer.from(await nodes.arrayBuffer()));
    expect(nodeFrame.getColumn("node").toArray()).toEqual(["a", "b", "c"]);
    const all = await raw("all", "parquet");
    expect(all.headers.get("content-type")).toBe("application/zip");
    const files = unzipSync(new Uint8Array(await all.arrayBuffer()));
    expect(Object.keys(files).sort()).toEqual(["edges.parquet", "metadata.json", "nodes.parquet"]);
    const edgeFrame = pl.readParquet(Buffer.from(files["edges.parquet"] ?? new Uint8Array()));
    expect(edgeFrame.getColumn("w").dtype.equals(pl.Int64)).toBe(true);
    expect(edgeFrame.toRecords()).toEqual([
      { s: "a", d: "b", w: 1 },
      { s: "b", d: "c", w: 5 },
    ]);
    expect(JSON.parse(new TextDecoder().decode(files["metadata.json"]))).toMatchObject({ dataset_id: id, node_count: 3, edge_count: 2 });
    const csv = await raw("edges", "csv");
    expect(csv.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(await csv.text()).toBe("s,d,w\na,b,1\nb,c,5\n");
    const subset = await gw.request(`/api/v2/etl/datasets/${id}/gfql/edges`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
      json: { gfql_operations: chain, format: "csv", edge_col_subset: ["d", "w"] },
    });
    expect(await subset.text()).toBe("d,w\nb,1\nc,5\n");
    const unknown = await post(`/api/v2/etl/datasets/${id}/gfql/nodes`, { gfql_operations: chain, node_col_subset: ["nope"] });
    expect(unknown.status).toBe(400);
    expect(String((unknown.body.error as { message: string }).message)).toMatch(/'nope'/);
    const shape = await raw("shape", "csv");
    expect(await shape.text()).toBe("kind,rows,cols\nnodes,3,1\nedges,2,3\n");
  });

  it("reports query errors with their code and where, and refuses what it cannot do by name", async () => {
    const missing = await post(`/api/v2/etl/datasets/${id}/gfql/shape`, {
      gfql_operations: [{ type: "Node", filter_dict: { nope: 1 } }],
      strictness: "strict",
    });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: "INVALID_INPUT", details: { gfqlCode: "E301", path: "chain[0].filter_dict.nope" } });
    const xml = await post(`/api/v2/etl/datasets/${id}/gfql/all`, {
      gfql_operations: [{ type: "Node", filter_dict: {} }],
      format: "xml",
    });
    expect(xml.status).toBe(400);
    expect((xml.body.error as { details: { field: string } }).details.field).toBe("format");
    const empty = await post(`/api/v2/etl/datasets/${id}/gfql/all`, {});
    expect(empty.status).toBe(400);
  });

  it("runs on a dataset and on a live session over GraphQL, with true counts and limited rows", async () => {
    const query = JSON.stringify([{ type: "Edge", direction: "undirected", edge_match: { w: { type: "GT", val: 1 } } }]);
    const onDataset = await gw.graphql<{ gfql: Json }>(
      `query($d: ID!, $q: JSON!) { gfql(datasetId: $d, query: $q, output: edges, limit: 1) { nodeCount edgeCount edges } }`,
      { d: id, q: query },
      token,
    );
    expect(onDataset.body.data?.gfql).toMatchObject({ edgeCount: 3, edges: [expect.any(Object)] });
    const session = await gw.graphql<{ openVizSession: { id: string } }>(
      `mutation($d: ID!) { openVizSession(datasetId: $d) { id } }`,
      { d: id },
      token,
    );
    const onSession = await gw.graphql<{ gfql: Json }>(
      `query($s: ID!, $q: JSON!) { gfql(sessionId: $s, query: $q) { nodeCount edgeCount nodes } }`,
      { s: session.body.data?.openVizSession.id, q: query },
      token,
    );
    // w > 1: b-c, c-d and x-y, so five nodes.
    expect(onSession.body.data?.gfql).toEqual({ nodeCount: 5, edgeCount: 3, nodes: null });
    // Large answers whole and typed: an Arrow IPC stream of just the asked-for columns.
    const arrow = await gw.graphql<{ gfql: { edgesFile: string } }>(
      `query($d: ID!, $q: JSON!) { gfql(datasetId: $d, query: $q, output: edges, fileFormat: arrow, edgeColumns: ["w"]) { edgesFile } }`,
      { d: id, q: query },
      token,
    );
    const table = tableFromIPC(Buffer.from(arrow.body.data?.gfql.edgesFile ?? "", "base64"));
    expect(table.schema.fields.map((f) => f.name)).toEqual(["w"]);
    expect(table.getChild("w")?.toArray()).toEqual(new BigInt64Array([5n, 9n, 2n]));
  });

  it("takes one read-only Cypher query as text, and refuses writes", async () => {
    const cypher = "MATCH (a)-[e]->(b) WHERE e.w > 1 RETURN DISTINCT b.node AS n ORDER BY n";
    const answer = await gw.graphql<{ gfql: Json }>(
      `query($d: ID!, $q: JSON!) { gfql(datasetId: $d, query: $q, output: nodes) { nodeCount nodes } }`,
      { d: id, q: cypher },
      token,
    );
    expect(answer.body.data?.gfql).toEqual({ nodeCount: 3, nodes: [{ n: "c" }, { n: "d" }, { n: "y" }] });
    const write = await gw.graphql(
      `query($d: ID!, $q: JSON!) { gfql(datasetId: $d, query: $q) { nodeCount } }`,
      { d: id, q: "CREATE (n {x: 1})" },
      token,
    );
    expect(write.body.errors?.[0]?.message).toMatch(/read-only/);
  });

  it("keeps other people's datasets out of reach", async () => {
    const admin = token;
    await gw.graphql(`mutation { createUser(input: { username: "eve", password: "eve-password" }) { id } }`, {}, admin);
    const eve = await gw.login("eve", "eve-password");
    const answer = await post(`/api/v2/etl/datasets/${id}/gfql/shape`, { gfql_operations: [{ type: "Node", filter_dict: {} }] }, eve);
    expect(answer.status).toBe(404);
  });
});

describe("GFQL time limit", () => {
  let gw: TestGateway;
  beforeAll(async () => {
    // A limit no query can meet: the worker is stopped and the caller told so.
    gw = await createTestGateway("sqlite", { GFQL_TIMEOUT_MS: "1" });
  });
  afterAll(() => gw?.close());

  it("stops a query past its limit with 504 TIMEOUT", async () => {
    const token = await gw.login();
    const id = await graphDataset(gw, token);
    const answer = await gw.json<Json>(`/api/v2/etl/datasets/${id}/gfql/shape`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
      json: { gfql_operations: [{ type: "Node", filter_dict: {} }] },
    });
    expect(answer.status).toBe(504);
    expect((answer.body.error as { code: string }).code).toBe("TIMEOUT");
  });
});

describe("GFQL row limit", () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await createTestGateway("sqlite", { GFQL_MAX_ROWS: "2" });
  });
  afterAll(() => gw?.close());

  it("answers at most GFQL_MAX_ROWS rows per table over REST, with true counts and truncated set", async () => {
    const token = await gw.login();
    const id = await graphDataset(gw, token);
    const post = (output: string, json: Json) =>
      gw.json<Json>(`/api/v2/etl/datasets/${id}/gfql/${output}`, { method: "POST", headers: { authorization: `Bearer ${token}` }, json });
    const all = await post("all", { gfql_operations: [], format: "json" });
    expect(all.status).toBe(200);
    expect((all.body.nodes as unknown[]).length).toBe(2);
    expect((all.body.edges as unknown[]).length).toBe(2);
    expect(all.body.metadata).toEqual({ node_count: 6, edge_count: 4, truncated: true });
    const csv = await gw.request(`/api/v2/etl/datasets/${id}/gfql/edges`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
      json: { gfql_operations: [], format: "csv" },
    });
    expect(csv.status).toBe(200);
    expect((await csv.text()).trim().split("\n")).toHaveLength(3);
    // a small answer is whole
    const one = await post("all", { gfql_operations: [{ type: "Node", filter_dict: { node: "a" } }], format: "json" });
    expect(one.body.metadata).toEqual({ node_count: 1, edge_count: 0, truncated: false });
    // the tool endpoint's rule (limit null: 50 or 20 rows) stays within the server's limit too
    const auto = await gw.graphql<{ gfql: { nodeCount: number; nodes: unknown[] } }>(
      `query($d: ID!) { gfql(datasetId: $d, query: [], output: nodes, limit: null) { nodeCount nodes } }`,
      { d: id },
      token,
    );
    expect(auto.body.errors).toBeUndefined();
    expect(auto.body.data?.gfql.nodeCount).toBe(6);
    expect(auto.body.data?.gfql.nodes).toHaveLength(2);
  });
});
