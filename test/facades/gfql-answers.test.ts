// GFQL answers over REST and GraphQL: integers beyond 2^53 written with all their digits, warnings for filters on
// absent columns in the metadata (pygraphistry's strictness levels), and the empty chain as the whole graph.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { csvEdgeDataset } from "../helpers/datasets.ts";
import { createTestGateway, type TestGateway } from "../helpers/gateway.ts";

type Json = Record<string, unknown>;

// 2^53 + 1 and a value near the Int64 minimum: both round when read as a JavaScript number
const BIG = "9007199254740993";
const NEG = "-9223372036854775807";

describe("GFQL answers: exact integers, absent-column warnings, empty chains", () => {
  let gw: TestGateway;
  let token: string;
  let id: string;
  const raw = (path: string, json: Json) =>
    gw.request(path, { method: "POST", headers: { authorization: `Bearer ${token}` }, json }).then(async (r) => ({
      status: r.status,
      text: await r.text(),
    }));
  const graphqlText = (query: string, variables: Json) =>
    gw
      .request("/graphql", { method: "POST", headers: { authorization: `Bearer ${token}` }, json: { query, variables } })
      .then((r) => r.text());

  beforeAll(async () => {
    gw = await createTestGateway("sqlite");
    token = await gw.login();
    id = await csvEdgeDataset(gw, token, `s,d,big\na,b,${BIG}\nb,c,${NEG}\nc,d,7\n`);
  });
  afterAll(() => gw?.close());

  it("REST json answers write 64-bit integers exactly (rows of nodes/edges and of all)", async () => {
    const chain = [{ type: "Edge", direction: "forward", edge_match: { s: "a" } }];
    const edges = await raw(`/api/v2/etl/datasets/${id}/gfql/edges`, { gfql_operations: chain, format: "json" });
    expect(edges.status).toBe(200);
    expect(edges.text).toBe(`[{"s":"a","d":"b","big":${BIG}}]`);
    const all = await raw(`/api/v2/etl/datasets/${id}/gfql/all`, {
      gfql_operations: [{ type: "Edge", direction: "forward" }],
      format: "json",
    });
    expect(all.text).toContain(`"big":${BIG}`);
    expect(all.text).toContain(`"big":${NEG}`);
    expect(all.text).toContain(`"big":7}`);
  });

  it("GraphQL gfql rows write them exactly too", async () => {
    const text = await graphqlText(`query($d: ID!, $q: JSON!) { gfql(datasetId: $d, query: $q, output: edges, limit: 10) { edges } }`, {
      d: id,
      q: [{ type: "Edge", direction: "forward" }],
    });
    expect(text).toContain(`"big":${BIG}`);
    expect(text).toContain(`"big":${NEG}`);
    expect(JSON.parse(text).errors).toBeUndefined();
  });

  it("a filter on an absent column matches nothing and warns in the metadata; strictness strict refuses it (E301)", async () => {
    const ops = [{ type: "Node", filter_dict: { color: "red" } }];
    const all = await gw.json<Json>(`/api/v2/etl/datasets/${id}/gfql/all`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
      json: { gfql_operations: ops, format: "json" },
    });
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ nodes: [], edges: [], metadata: { node_count: 0, edge_count: 0, truncated: false } });
    expect((all.body.metadata as { warnings: string[] }).warnings).toEqual([
      expect.stringMatching(/^GFQL: column "color" is absent in node dataframe/),
    ]);
    const quiet = await gw.json<Json>(`/api/v2/etl/datasets/${id}/gfql/all`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
      json: { gfql_operations: ops, format: "json", strictness: "quiet" },
    });
    expect(quiet.body.metadata).toEqual({ node_count: 0, edge_count: 0, truncated: false });
    const strict = await gw.json<Json>(`/api/v2/etl/datasets/${id}/gfql/shape`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
      json: { gfql_operations: ops, strictness: "strict" },
    });
    expect(strict.status).toBe(400);
    expect(strict.body.error).toMatchObject({ code: "INVALID_INPUT", details: { gfqlCode: "E301", path: "chain[0].filter_dict.color" } });
    const bad = await gw.json<Json>(`/api/v2/etl/datasets/${id}/gfql/shape`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
      json: { gfql_operations: ops, strictness: "loud" },
    });
    expect(bad.status).toBe(400);
    // over GraphQL: the warnings field, and the strictness argument
    const text = await graphqlText(`query($d: ID!, $q: JSON!) { gfql(datasetId: $d, query: $q) { nodeCount warnings } }`, {
      d: id,
      q: ops,
    });
    expect(JSON.parse(text).data.gfql).toEqual({ nodeCount: 0, warnings: [expect.stringMatching(/column "color" is absent/)] });
    const refused = JSON.parse(
      await graphqlText(`query($d: ID!, $q: JSON!) { gfql(datasetId: $d, query: $q, strictness: strict) { nodeCount } }`, {
        d: id,
        q: ops,
      }),
    );
    expect(refused.errors[0].message).toMatch(/^\[E301\]/);
  });

  it("an empty chain answers the whole graph (pygraphistry's chain([]); gfql_operations: [] alone too)", async () => {
    const viaQuery = await gw.json<Json>(`/api/v2/etl/datasets/${id}/gfql/shape`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
      json: { gfql_query: { type: "Chain", chain: [] }, gfql_operations: [] },
    });
    expect(viaQuery.body).toEqual([
      { kind: "nodes", rows: 4 },
      { kind: "edges", rows: 3 },
    ]);
    const bare = await gw.json<Json>(`/api/v2/etl/datasets/${id}/gfql/shape`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
      json: { gfql_operations: [] },
    });
    expect(bare.body).toEqual(viaQuery.body);
  });
});
