// GFQL Calls compute_igraph and compute_cugraph: pygraphistry's parameters, results against python-igraph, graph
// answers replacing the graph, refusals as GFQL errors, over the engine, the remote route, GraphQL and /mcp.
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import pl from "nodejs-polars";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadAlgorithms, registerAlgorithms } from "../../src/compute/algorithm-lookup.ts";
import { executeGfql } from "../../src/gfql/execute.ts";
import { parseGfql } from "../../src/gfql/parse.ts";
import { entries } from "../compute/service-entries.fixture.ts";
import { createTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { answerValue as answerOf, runReference } from "../helpers/graph-reference.ts";
import { createMcpWorld, type McpWorld } from "../mcp/setup.ts";
import { errorOf, sampleGraph } from "./helpers.ts";

process.env.COMPUTE_EXTRA_ALGORITHMS = fileURLToPath(new URL("../compute/service-entries.fixture.ts", import.meta.url));
registerAlgorithms(entries);
await loadAlgorithms();

type Json = Record<string, unknown>;
const call = (fn: string, params: Json) => ({ type: "Call", function: fn, params });
const exec = (query: unknown, graph = sampleGraph()) => executeGfql(graph, parseGfql(query), "polars");

/** sampleGraph's edges as node rows (a b c d e f = 0..5), for the reference. */
const SAMPLE_EDGES: [number, number][] = [
  [0, 1],
  [1, 2],
  [2, 3],
  [0, 2],
  [4, 0],
];

describe("compute Calls in the engine", () => {
  it("adds a node column named by out_col (default: alg) that matches python-igraph, then later steps filter on it", async () => {
    const out = exec([call("compute_igraph", { alg: "test_strength", params: { weights: "w" }, out_col: "s" })]);
    const plain = exec([call("compute_igraph", { alg: "test_strength", directed: false })]);
    const [directed, undirected] = await runReference([
      { n: 6, edges: SAMPLE_EDGES, edgeAttrs: { weight: [1, 2, 3, 4, 5] }, calls: ["g.strength(mode='out', weights='weight')"] },
      { n: 6, edges: SAMPLE_EDGES, directed: false, calls: ["g.strength()"] },
    ]);
    expect(out.nodes.getColumn("s").toArray()).toEqual(answerOf(directed?.[0]));
    expect(plain.nodes.getColumn("test_strength").toArray()).toEqual(answerOf(undirected?.[0]));
    const busy = exec([
      call("compute_igraph", { alg: "test_strength", directed: false }),
      { type: "Node", filter_dict: { test_strength: { type: "GE", val: 3 } } },
    ]);
    expect(busy.nodes.getColumn("id").toArray()).toEqual(["a", "c"]);
  });

  it("runs registered algorithms: igraph pagerank and cugraph pagerank as python-igraph, k_core's graph", async () => {
    const pr = exec([call("compute_igraph", { alg: "pagerank", params: { damping: 0.85 } })]);
    const cu = exec([call("compute_cugraph", { alg: "pagerank", out_col: "cpr" })]);
    const core = exec([call("compute_igraph", { alg: "k_core", params: { k: 2 }, directed: false })]);
    const [ref] = await runReference([
      { n: 6, edges: SAMPLE_EDGES, calls: ["g.pagerank(damping=0.85)", "g.as_undirected().k_core(2).vcount()"] },
    ]);
    const expected = answerOf<number[]>(ref?.[0]);
    const ours = pr.nodes.getColumn("pagerank").toArray() as number[];
    for (const [i, v] of ours.entries()) expect(Math.abs(v - (expected[i] as number))).toBeLessThanOrEqual(1e-6 * (expected[i] as number));
    // cuGraph's pagerank is networkx's (tolerance 1e-5 on the sum of changes): close to igraph's
    for (const [i, v] of (cu.nodes.getColumn("cpr").toArray() as number[]).entries()) expect(v).toBeCloseTo(expected[i] as number, 4);
    expect(core.nodes.height).toBe(answerOf<number>(ref?.[1]));
  });

  it("compute_cugraph weighs by the bound edge weight and writes predecessors as node ids", () => {
    const weighed = exec([call("compute_cugraph", { alg: "test_weight_check", out_col: "ww" })], { ...sampleGraph(), edgeWeight: "w" });
    expect(weighed.edges.getColumn("ww").toArray()).toEqual([1, 2, 3, 4, 5]);
    const unweighed = exec([call("compute_cugraph", { alg: "test_weight_check", out_col: "ww" })]);
    expect(unweighed.edges.getColumn("ww").toArray()).toEqual([1, 1, 1, 1, 1]);
    const bfs = exec([call("compute_cugraph", { alg: "test_bfs", params: { start: "a" }, kind: "Graph" })]);
    expect(bfs.nodes.select("id", "test_bfs", "predecessor").toRecords()).toEqual([
      { id: "a", test_bfs: 0, predecessor: null },
      { id: "b", test_bfs: 1, predecessor: "a" },
      { id: "c", test_bfs: 1, predecessor: "a" },
      { id: "d", test_bfs: 2, predecessor: "c" },
      { id: "e", test_bfs: null, predecessor: null },
      { id: "f", test_bfs: null, predecessor: null },
    ]);
  });

  it("an algorithm answering a graph replaces the graph; compute_igraph's default directed is undirected for undirected-only ones", () => {
    const core = exec([call("compute_igraph", { alg: "test_min_degree", params: { k: 2 } })]);
    expect(core.nodes.getColumn("id").toArray()).toEqual(["a", "b", "c"]);
    expect(core.edges.getColumn("eid").toArray()).toEqual(["e0", "e1", "e3"]);
    const reversed = exec([
      call("compute_igraph", { alg: "test_reverse" }),
      { type: "Edge", direction: "forward", source_node_match: { id: "b" } },
    ]);
    expect(reversed.edges.select("s", "d", "old_row").toRecords()).toEqual([{ s: "b", d: "a", old_row: 0 }]);
  });

  it("runs on the graph the steps before it left", () => {
    const people = { type: "Node", filter_dict: { type: "person" } };
    const out = exec([
      people,
      { type: "Edge", direction: "forward" },
      people,
      call("compute_igraph", { alg: "test_strength", directed: false }),
    ]);
    // only a->b runs between people
    expect(out.nodes.select("id", "test_strength").toRecords()).toEqual([
      { id: "a", test_strength: 1 },
      { id: "b", test_strength: 1 },
    ]);
    // a Node step alone keeps no edges: every strength is 0
    const alone = exec([people, call("compute_igraph", { alg: "test_strength", directed: false })]);
    expect(alone.nodes.getColumn("test_strength").toArray()).toEqual([0, 0, 0, 0]);
  });

  it.each([
    ["no alg", { params: {} }, "E105", "chain[0].params"],
    ["an unknown algorithm", { alg: "pagerank_nope" }, "E201", "chain[0].params.alg"],
    ["a cugraph name under igraph", { alg: "test_bfs" }, "E201", "chain[0].params.alg"],
    ["an unknown Call parameter", { alg: "test_strength", damping: 0.85 }, "E303", "chain[0].params.damping"],
    ["an unknown algorithm parameter", { alg: "test_strength", params: { damping: 0.85 } }, "E303", "chain[0].params.params.damping"],
    ["a wrong parameter type", { alg: "test_strength", params: { loops: 1 } }, "E201", "chain[0].params.params.loops"],
    ["a value out of range", { alg: "test_strength", params: { scale: -1 } }, "E201", "chain[0].params.params.scale"],
    ["a missing column", { alg: "test_strength", params: { weights: "nope" } }, "E201", "chain[0].params.params.weights"],
    ["a bad out_col", { alg: "test_strength", out_col: 3 }, "E201", "chain[0].params.out_col"],
    ["directed for an undirected-only algorithm", { alg: "test_min_degree", directed: true }, "E201", "chain[0].params.directed"],
    ["use_vids", { alg: "test_strength", use_vids: true }, "unsupported-call", "chain[0].params.use_vids"],
    ["the id column as out_col", { alg: "test_strength", out_col: "id" }, "E201", "chain[0].params"],
  ])("compute_igraph refuses %s as a GFQL error at its path", (_what, params, code, path) => {
    const error = errorOf(() => exec([call("compute_igraph", params)]));
    expect(error).toMatchObject({ code: "INVALID_INPUT", path });
    expect(error.message.startsWith(`[${code}]`)).toBe(true);
  });

  it("compute_cugraph refuses a bad kind, a G, an unknown node and a graph it cannot take", () => {
    expect(errorOf(() => exec([call("compute_cugraph", { alg: "test_bfs", kind: "DiGraph", params: { start: "a" } })]))).toMatchObject({
      path: "chain[0].params.kind",
    });
    expect(errorOf(() => exec([call("compute_cugraph", { alg: "test_bfs", G: {}, params: { start: "a" } })])).message).toMatch(
      /^\[unsupported-call\]/,
    );
    expect(errorOf(() => exec([call("compute_cugraph", { alg: "test_bfs", params: { start: "zz" } })]))).toMatchObject({
      path: "chain[0].params.params.start",
    });
    const negative = { ...sampleGraph(), edges: sampleGraph().edges.withColumn(pl.lit(-1).alias("w")), edgeWeight: "w" };
    const error = errorOf(() => exec([call("compute_cugraph", { alg: "test_weight_check" })], negative));
    expect(error).toMatchObject({ path: "chain[0].params.params.weight" });
    expect(error.message).toMatch(/^\[E201\]/);
  });
});

describe("compute Calls over the remote route and GraphQL", () => {
  let gw: TestGateway;
  let token: string;
  let id: string;

  beforeAll(async () => {
    gw = await createTestGateway("sqlite");
    token = await gw.login();
    const auth = { authorization: `Bearer ${token}` };
    const file = await gw.json<{ file_id: string }>("/api/v2/files/", { method: "POST", headers: auth, json: { file_type: "csv" } });
    await gw.request(`/api/v2/upload/files/${file.body.file_id}`, {
      method: "POST",
      headers: auth,
      body: "s,d,w\na,b,2\nb,c,3\nc,a,4\nc,d,5\n",
    });
    const created = await gw.json<{ data: { dataset_id: string } }>("/api/v2/upload/datasets/", {
      method: "POST",
      headers: auth,
      json: {
        name: "g",
        metadata: {},
        node_encodings: { bindings: {} },
        edge_encodings: { bindings: { source: "s", destination: "d", edge_weight: "w" } },
        edge_files: [file.body.file_id],
      },
    });
    id = created.body.data.dataset_id;
  });
  afterAll(() => gw?.close());

  it("answers compute_igraph and compute_cugraph on pygraphistry's remote route (cugraph weighs by edge_weight)", async () => {
    const post = (json: Json) =>
      gw.json<Json[]>(`/api/v2/etl/datasets/${id}/gfql/nodes`, { method: "POST", headers: { authorization: `Bearer ${token}` }, json });
    const igraph = await post({
      gfql_operations: [call("compute_igraph", { alg: "test_strength", directed: false, out_col: "deg" })],
      format: "json",
    });
    expect(igraph.status).toBe(200);
    expect(igraph.body).toEqual([
      { node: "a", deg: 2 },
      { node: "b", deg: 2 },
      { node: "c", deg: 3 },
      { node: "d", deg: 1 },
    ]);
    const edges = await gw.json<Json[]>(`/api/v2/etl/datasets/${id}/gfql/edges`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
      json: { gfql_operations: [call("compute_cugraph", { alg: "test_weight_check" })], format: "json" },
    });
    expect(edges.body.map((e) => e.test_weight_check)).toEqual([2, 3, 4, 5]);
    const bad = await post({ gfql_operations: [call("compute_igraph", { alg: "nope" })], format: "json" });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: { code: "INVALID_INPUT", details: { path: "chain[0].params.alg", gfqlCode: "E201" } } });
  });

  it("answers the GraphQL gfql query", async () => {
    const answer = await gw.graphql<{ gfql: { nodes: Json[] } }>(
      "query($d: ID!, $q: JSON!) { gfql(datasetId: $d, query: $q, output: nodes, limit: 10) { nodes } }",
      { d: id, q: { type: "Chain", chain: [call("compute_igraph", { alg: "test_strength", out_col: "out" })] } },
      token,
    );
    expect(answer.body.errors).toBeUndefined();
    expect(answer.body.data?.gfql.nodes.map((n) => n.out)).toEqual([1, 1, 2, 0]);
  });
});

describe("compute Calls over /mcp query_graph", () => {
  let world: McpWorld;
  let client: Client;

  beforeAll(async () => {
    world = await createMcpWorld();
    client = new Client({ name: "test-assistant", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(world.url), { requestInit: { headers: { authorization: `Bearer ${world.keys.alice}` } } }),
    );
  });
  afterAll(async () => {
    await client?.close();
    await world?.close();
  });

  it("runs compute_igraph in a query_graph call", async () => {
    const result = await client.callTool({
      name: "query_graph",
      arguments: {
        session_id: world.sessionId,
        gfql_operations: JSON.stringify([
          call("compute_igraph", { alg: "test_strength", directed: false, out_col: "deg" }),
          { type: "Node", filter_dict: { deg: { type: "GE", val: 3 } } },
        ]),
        output_type: "nodes",
      },
    });
    const text = (result.content as { text: string }[])[0]?.text ?? "";
    const json = JSON.parse(text) as { nodes: Json[] };
    // a->b->c->d, e->a, b->e, d->d: b has 3 edge ends, d 3 (its self-loop counts twice)
    expect(json.nodes.map((n) => [n.node, n.deg])).toEqual([
      ["b", 3],
      ["d", 3],
    ]);
  });
});
