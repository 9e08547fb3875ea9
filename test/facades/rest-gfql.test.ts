// GFQL surfaces: pygraphistry's remote route and the GraphQL query on datasets and sessions, with limits and a real timeout.
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
    const shape = await post(`/api/v2/etl/datasets/${id}/gfql/shape`, { gfql_query: { type: "Chain", chain }, gfql_operations: [] });
    expect(shape.body).toEqual({ nodes: 3, edges: 2 });
    const nodes = await post(`/api/v2/etl/datasets/${id}/gfql/nodes`, { gfql_operations: chain });
    expect(Object.keys(nodes.body).sort()).toEqual(["metadata", "nodes"]);
  });

  it("reports query errors with their code and where, and refuses what it cannot do by name", async () => {
    const missing = await post(`/api/v2/etl/datasets/${id}/gfql/shape`, { gfql_operations: [{ type: "Node", filter_dict: { nope: 1 } }] });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: "INVALID_INPUT", details: { gfqlCode: "E301", path: "chain[0].filter_dict.nope" } });
    const parquet = await post(`/api/v2/etl/datasets/${id}/gfql/all`, {
      gfql_operations: [{ type: "Node", filter_dict: {} }],
      format: "parquet",
    });
    expect(parquet.status).toBe(400);
    expect((parquet.body.error as { details: { field: string } }).details.field).toBe("format");
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
