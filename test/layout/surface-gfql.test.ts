// GFQL Calls layout_igraph, layout_cugraph and fa2_layout as pygraphistry sends them: positions in node columns
// (x_out_col / y_out_col), fa2_layout's FA2 core and singleton circles as graphistry/layout/fa2.py places them,
// refusals as GFQL errors at their path, over the engine, pygraphistry's remote route, GraphQL and /mcp.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import pl from "nodejs-polars";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { computeGraph } from "../../kernels/cpu/csr.ts";
import { checkParams } from "../../src/compute/params.ts";
import { cpuContext } from "../../src/compute/types.ts";
import { GRAPHISTRY_FA2_PARAMS } from "../../src/gfql/call-fa2-layout.ts";
import { loadLayouts } from "../../src/gfql/call-layout.ts";
import { executeGfql, type GfqlGraph } from "../../src/gfql/execute.ts";
import { parseGfql } from "../../src/gfql/parse.ts";
import { findLayout } from "../../src/layout/registry.ts";
import { errorOf, sampleGraph } from "../gfql/helpers.ts";
import { createTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { answerValue, runReference } from "../helpers/graph-reference.ts";
import { createMcpWorld, type McpWorld } from "../mcp/setup.ts";

// the engine runs on the configured backend: the CPU twins make positions comparable to a direct CPU run
process.env.COMPUTE_BACKEND = "cpu";
await loadLayouts();

type Json = Record<string, unknown>;
const call = (fn: string, params: Json) => ({ type: "Call", function: fn, params });
const exec = (query: unknown, graph = sampleGraph()) => executeGfql(graph, parseGfql(query), "polars");
const column = (frame: pl.DataFrame, name: string) => frame.getColumn(name).toArray() as number[];

/** igraph's layout_circle for n nodes: node i at angle 2*pi*i/n on the unit circle. */
const onCircle = (n: number) => Array.from({ length: n }, (_, i) => [Math.cos((2 * Math.PI * i) / n), Math.sin((2 * Math.PI * i) / n)]);

/** sampleGraph's edges as node rows (a b c d e f = 0..5). */
const SAMPLE_EDGES: [number, number][] = [
  [0, 1],
  [1, 2],
  [2, 3],
  [0, 2],
  [4, 0],
];

/** FA2 run directly from the registry on rows 0..n-1, as the reference for the Calls. */
function fa2Direct(n: number, edges: [number, number][], params: Json, directed: boolean): Float64Array {
  const entry = findLayout("cugraph", "force_atlas2");
  if (!entry) throw new Error("no force_atlas2");
  return entry.place(computeGraph(n, edges, { directed }), checkParams(entry, params, "p"), cpuContext);
}

describe("layout_igraph and layout_cugraph in the engine", () => {
  it("layout_igraph circle writes x, y per node row as python-igraph's layout_circle, and later steps see them", async () => {
    const out = exec([call("layout_igraph", { layout: "circle" })]);
    const [answers] = await runReference([{ n: 6, edges: SAMPLE_EDGES, calls: ["g.layout_circle().coords"] }]);
    const expected = answerValue<number[][]>(answers?.[0]);
    for (let i = 0; i < 6; i++) {
      expect(column(out.nodes, "x")[i]).toBeCloseTo(expected[i]?.[0] as number, 12);
      expect(column(out.nodes, "y")[i]).toBeCloseTo(expected[i]?.[1] as number, 12);
    }
    expect(out.nodes.columns).toEqual(["id", "type", "age", "nick", "x", "y"]);
    const right = exec([call("layout_igraph", { layout: "circular" }), { type: "Node", filter_dict: { x: { type: "GT", val: 0.9 } } }]);
    expect(right.nodes.getColumn("id").toArray()).toEqual(["a"]);
  });

  it("layout_igraph takes igraph's parameters, x_out_col / y_out_col, bind_position and play", () => {
    const out = exec([
      call("layout_igraph", {
        layout: "circle",
        params: { order: ["c", "a"] },
        x_out_col: "px",
        y_out_col: "py",
        directed: false,
        bind_position: true,
        play: 0,
      }),
    ]);
    expect(out.nodes.columns).toEqual(["id", "type", "age", "nick", "px", "py"]);
    const px = column(out.nodes, "px").map((v) => Math.round(v * 1e9) / 1e9 + 0);
    const py = column(out.nodes, "py").map((v) => Math.round(v * 1e9) / 1e9 + 0);
    // c first around the circle, then a; the rest at the origin
    expect(px).toEqual([-1, 0, 1, 0, 0, 0]);
    expect(py).toEqual([0, 0, 0, 0, 0, 0]);
  });

  it.skipIf(!findLayout("igraph", "sphere"))("a 3D layout adds z", () => {
    const out = exec([call("layout_igraph", { layout: "sphere" })]);
    expect(out.nodes.columns.slice(-3)).toEqual(["x", "y", "z"]);
    for (let i = 0; i < 6; i++) {
      const [x, y, z] = ["x", "y", "z"].map((c) => column(out.nodes, c)[i] as number);
      expect(Math.hypot(x as number, y as number, z as number)).toBeCloseTo(1, 9);
    }
  });

  it("layout_cugraph runs force_atlas2 (the default) with cuGraph's parameters, writing x, y and the out columns", () => {
    const params = { max_iter: 40, random_state: 7 };
    const out = exec([call("layout_cugraph", { params, x_out_col: "fx", y_out_col: "fy", kind: "Graph" })]);
    const direct = fa2Direct(6, SAMPLE_EDGES, params, true);
    expect(column(out.nodes, "x")).toEqual(Array.from({ length: 6 }, (_, i) => direct[i * 2]));
    expect(column(out.nodes, "y")).toEqual(Array.from({ length: 6 }, (_, i) => direct[i * 2 + 1]));
    expect(column(out.nodes, "fx")).toEqual(column(out.nodes, "x"));
    expect(column(out.nodes, "fy")).toEqual(column(out.nodes, "y"));
    const again = exec([call("layout_cugraph", { layout: "force_atlas2", params })]);
    expect(column(again.nodes, "x")).toEqual(column(out.nodes, "x"));
    const undirected = exec([call("layout_cugraph", { params, directed: false })]);
    const directUndirected = fa2Direct(6, SAMPLE_EDGES, params, false);
    expect(column(undirected.nodes, "x")).toEqual(Array.from({ length: 6 }, (_, i) => directUndirected[i * 2]));
  });

  it.each([
    ["no layout", "layout_igraph", {}, "E105", "chain[0].params"],
    ["an unknown layout", "layout_igraph", { layout: "circle_nope" }, "E201", "chain[0].params.layout"],
    ["a cuGraph name under igraph", "layout_igraph", { layout: "force_atlas2" }, "E201", "chain[0].params.layout"],
    ["an unknown cuGraph layout", "layout_cugraph", { layout: "spring" }, "E201", "chain[0].params.layout"],
    ["an unknown Call parameter", "layout_igraph", { layout: "circle", radius: 2 }, "E303", "chain[0].params.radius"],
    ["an unknown layout parameter", "layout_igraph", { layout: "circle", params: { radius: 2 } }, "E303", "chain[0].params.params.radius"],
    ["a wrong parameter type", "layout_igraph", { layout: "circle", params: { order: "a" } }, "E201", "chain[0].params.params.order"],
    ["an unknown node", "layout_igraph", { layout: "circle", params: { order: ["zz"] } }, "E201", "chain[0].params.params.order"],
    ["a value out of range", "layout_cugraph", { params: { max_iter: -1 } }, "E201", "chain[0].params.params.max_iter"],
    ["a bad x_out_col", "layout_igraph", { layout: "circle", x_out_col: 3 }, "E201", "chain[0].params.x_out_col"],
    ["one column for x and y", "layout_igraph", { layout: "circle", x_out_col: "p", y_out_col: "p" }, "E201", "chain[0].params.y_out_col"],
    ["the id column as x_out_col", "layout_igraph", { layout: "circle", x_out_col: "id" }, "E201", "chain[0].params"],
    ["a bad play", "layout_igraph", { layout: "circle", play: "fast" }, "E201", "chain[0].params.play"],
    ["use_vids", "layout_igraph", { layout: "circle", use_vids: true }, "unsupported-call", "chain[0].params.use_vids"],
    ["a bad kind", "layout_cugraph", { kind: "DiGraph" }, "E201", "chain[0].params.kind"],
    ["a G", "layout_cugraph", { G: {} }, "unsupported-call", "chain[0].params.G"],
  ])("refuses %s as a GFQL error at its path", (_what, fn, params, code, path) => {
    const error = errorOf(() => exec([call(fn, params)]));
    expect(error).toMatchObject({ code: "INVALID_INPUT", path });
    expect(error.message.startsWith(`[${code}]`)).toBe(true);
  });
});

/**
 * a-b-c-a triangle and c-d (group A: a b c, B: d), e-f (group B), g with only a self-loop (A), h and i isolated
 * (B and C): FA2 places a b c d e f; g h i are singletons.
 */
function fa2Graph(): GfqlGraph {
  return {
    nodes: pl.DataFrame({
      id: ["i", "a", "h", "b", "c", "g", "d", "e", "f"],
      grp: ["C", "A", "B", "A", "A", "A", "B", "B", "B"],
      x: [9, 9, 9, 9, 9, 9, 9, 9, 9],
    }),
    edges: pl.DataFrame({ s: ["a", "b", "c", "c", "e", "g", "a"], d: ["b", "c", "a", "d", "f", "g", "a"] }),
    nodeId: "id",
    source: "s",
    destination: "d",
  };
}

/** fa2Graph's connected rows (a b c d e f) and their loop-free edges, as sub-graph rows 0..5. */
const CONNECTED = ["a", "b", "c", "d", "e", "f"];
const CONNECTED_EDGES: [number, number][] = [
  [0, 1],
  [1, 2],
  [2, 0],
  [2, 3],
  [4, 5],
];

function boxOf(xs: number[], ys: number[]) {
  const [l, r, t, b] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  return { cx: (l + r) / 2, cy: (t + b) / 2, radius: (1.05 * Math.hypot(r - l, b - t)) / 2 };
}

describe("fa2_layout in the engine", () => {
  const at = (out: { nodes: pl.DataFrame }, id: string) => {
    const row = (out.nodes.getColumn("id").toArray() as string[]).indexOf(id);
    return [column(out.nodes, "x")[row] as number, column(out.nodes, "y")[row] as number];
  };

  it("lays out the connected nodes with FA2 (Graphistry's defaults, undirected) and the singletons on a circle around them", () => {
    const out = exec([call("fa2_layout", {})], fa2Graph());
    // node rows keep their order and other columns; the old x is replaced
    expect(out.nodes.getColumn("id").toArray()).toEqual(fa2Graph().nodes.getColumn("id").toArray());
    expect(out.nodes.columns).toEqual(["id", "grp", "x", "y"]);
    expect(out.edges.height).toBe(7);
    const direct = fa2Direct(6, CONNECTED_EDGES, GRAPHISTRY_FA2_PARAMS, false);
    for (const [k, id] of CONNECTED.entries()) expect(at(out, id)).toEqual([direct[k * 2], direct[k * 2 + 1]]);
    const box = boxOf(
      CONNECTED.map((_, k) => direct[k * 2] as number),
      CONNECTED.map((_, k) => direct[k * 2 + 1] as number),
    );
    // singletons sorted by id: g, h, i at angles 0, 120, 240 degrees
    for (const [k, id] of ["g", "h", "i"].entries()) {
      const angle = (2 * Math.PI * k) / 3;
      const [x, y] = at(out, id);
      expect(x).toBeCloseTo(box.cx + box.radius * Math.cos(angle), 9);
      expect(y).toBeCloseTo(box.cy + box.radius * Math.sin(angle), 9);
    }
  });

  it("takes fa2_params whole, drops self-edges when asked, and gives one circle per partition around its own box", () => {
    const params = { max_iter: 30, scaling_ratio: 3, random_state: 5 };
    const out = exec(
      [
        call("fa2_layout", {
          fa2_params: params,
          partition_key: "grp",
          circle_layout_params: { partition_by: "grp", ring_spacing: 2 },
          remove_self_edges: true,
          engine: "cudf",
        }),
      ],
      fa2Graph(),
    );
    expect(out.edges.height).toBe(5);
    const direct = fa2Direct(6, CONNECTED_EDGES, params, false);
    for (const [k, id] of CONNECTED.entries()) expect(at(out, id)).toEqual([direct[k * 2], direct[k * 2 + 1]]);
    const groupBox = (ids: string[]) =>
      boxOf(
        ids.map((id) => direct[CONNECTED.indexOf(id) * 2] as number),
        ids.map((id) => direct[CONNECTED.indexOf(id) * 2 + 1] as number),
      );
    // each partition has one singleton (angle 0): g around A's box, h around B's, i (C has no FA2 nodes) at (0, 0)
    const a = groupBox(["a", "b", "c"]);
    const b = groupBox(["d", "e", "f"]);
    expect(at(out, "g")[0]).toBeCloseTo(a.cx + a.radius, 9);
    expect(at(out, "g")[1]).toBeCloseTo(a.cy, 9);
    expect(at(out, "h")[0]).toBeCloseTo(b.cx + b.radius, 9);
    expect(at(out, "h")[1]).toBeCloseTo(b.cy, 9);
    expect(at(out, "i")[0]).toBeCloseTo((1.05 * Math.SQRT2) / 2, 12);
    expect(at(out, "i")[1]).toBeCloseTo(0, 12);
  });

  it("places a graph without edges on a circle around (0, 0) of box 1 x 1", () => {
    const graph = { ...sampleGraph(), edges: sampleGraph().edges.head(0) };
    const out = exec([call("fa2_layout", {})], graph);
    const radius = (1.05 * Math.SQRT2) / 2;
    for (const [i, [x, y]] of onCircle(6).entries()) {
      expect(column(out.nodes, "x")[i]).toBeCloseTo(radius * (x as number), 12);
      expect(column(out.nodes, "y")[i]).toBeCloseTo(radius * (y as number), 12);
    }
  });

  it.each([
    ["an unknown Call parameter", { singleton_layout: "x" }, "E303", "chain[0].params.singleton_layout"],
    ["fa2_params that are not an object", { fa2_params: 3 }, "E201", "chain[0].params.fa2_params"],
    ["an unknown FA2 parameter", { fa2_params: { nope: 1 } }, "E303", "chain[0].params.fa2_params.nope"],
    ["an FA2 value out of range", { fa2_params: { max_iter: -1 } }, "E201", "chain[0].params.fa2_params.max_iter"],
    [
      "an unknown node in pos_list",
      { fa2_params: { pos_list: [{ vertex: "zz", x: 0, y: 0 }] } },
      "E201",
      "chain[0].params.fa2_params.pos_list",
    ],
    ["an unknown circle parameter", { circle_layout_params: { radius: 1 } }, "E303", "chain[0].params.circle_layout_params.radius"],
    [
      "partition_by without partition_key",
      { circle_layout_params: { partition_by: "grp" } },
      "E201",
      "chain[0].params.circle_layout_params.partition_by",
    ],
    ["a missing partition column", { partition_key: "nope" }, "E201", "chain[0].params.partition_key"],
    ["a bad engine", { engine: "spark" }, "E201", "chain[0].params.engine"],
    ["featurize", { featurize: { kind: "nodes" } }, "unsupported-call", "chain[0].params.featurize"],
  ])("refuses %s as a GFQL error at its path", (_what, params, code, path) => {
    const error = errorOf(() => exec([call("fa2_layout", params)], fa2Graph()));
    expect(error).toMatchObject({ code: "INVALID_INPUT", path });
    expect(error.message.startsWith(`[${code}]`)).toBe(true);
  });
});

describe("layout Calls over the remote route and GraphQL", () => {
  let gw: TestGateway;
  let token: string;
  let id: string;

  beforeAll(async () => {
    // the CPU twins, so positions compare exactly with a direct CPU run
    gw = await createTestGateway("sqlite", { COMPUTE_BACKEND: "cpu" });
    token = await gw.login();
    const auth = { authorization: `Bearer ${token}` };
    const file = await gw.json<{ file_id: string }>("/api/v2/files/", { method: "POST", headers: auth, json: { file_type: "csv" } });
    await gw.request(`/api/v2/upload/files/${file.body.file_id}`, { method: "POST", headers: auth, body: "s,d\na,b\nb,c\nc,a\nc,d\n" });
    const created = await gw.json<{ data: { dataset_id: string } }>("/api/v2/upload/datasets/", {
      method: "POST",
      headers: auth,
      json: {
        name: "g",
        metadata: {},
        node_encodings: { bindings: {} },
        edge_encodings: { bindings: { source: "s", destination: "d" } },
        edge_files: [file.body.file_id],
      },
    });
    id = created.body.data.dataset_id;
  });
  afterAll(() => gw?.close());

  const post = (operations: unknown[]) =>
    gw.json<Json[] & Json>(`/api/v2/etl/datasets/${id}/gfql/nodes`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
      json: { gfql_operations: operations, format: "json" },
    });

  it("answers layout_igraph, layout_cugraph and fa2_layout on pygraphistry's remote route", async () => {
    const igraph = await post([call("layout_igraph", { layout: "circle", x_out_col: "px", y_out_col: "py" })]);
    expect(igraph.status).toBe(200);
    expect(igraph.body.map((r) => r.node)).toEqual(["a", "b", "c", "d"]);
    for (const [i, [x, y]] of onCircle(4).entries()) {
      expect(igraph.body[i]?.px).toBeCloseTo(x as number, 12);
      expect(igraph.body[i]?.py).toBeCloseTo(y as number, 12);
    }
    const cugraph = await post([call("layout_cugraph", { params: { max_iter: 20 } })]);
    expect(cugraph.status).toBe(200);
    const direct = fa2Direct(
      4,
      [
        [0, 1],
        [1, 2],
        [2, 0],
        [2, 3],
      ],
      { max_iter: 20 },
      true,
    );
    expect(cugraph.body.map((r) => [r.x, r.y])).toEqual([0, 1, 2, 3].map((i) => [direct[i * 2], direct[i * 2 + 1]]));
    const fa2 = await post([call("fa2_layout", { fa2_params: { max_iter: 20 } })]);
    expect(fa2.status).toBe(200);
    expect(fa2.body.every((r) => Number.isFinite(r.x) && Number.isFinite(r.y))).toBe(true);
    const bad = await post([call("layout_igraph", { layout: "nope" })]);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: { code: "INVALID_INPUT", details: { path: "chain[0].params.layout", gfqlCode: "E201" } } });
  });

  it("answers the GraphQL gfql query", async () => {
    const answer = await gw.graphql<{ gfql: { nodes: Json[] } }>(
      "query($d: ID!, $q: JSON!) { gfql(datasetId: $d, query: $q, output: nodes, limit: 10) { nodes } }",
      { d: id, q: { type: "Chain", chain: [call("layout_igraph", { layout: "circular" })] } },
      token,
    );
    expect(answer.body.errors).toBeUndefined();
    expect(answer.body.data?.gfql.nodes.map((n) => Math.round((n.x as number) * 1e9) / 1e9 + 0)).toEqual([1, 0, -1, 0]);
  });
});

describe("layout Calls over /mcp query_graph", () => {
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

  it("runs layout_igraph in a query_graph call, and a later step filters on the positions", async () => {
    const result = await client.callTool({
      name: "query_graph",
      arguments: {
        session_id: world.sessionId,
        gfql_operations: JSON.stringify([
          call("layout_igraph", { layout: "circle" }),
          { type: "Node", filter_dict: { x: { type: "GT", val: 0.5 } } },
        ]),
        output_type: "nodes",
      },
    });
    const text = (result.content as { text: string }[])[0]?.text ?? "";
    const json = JSON.parse(text) as { nodes: Json[] };
    // a b c d e around the circle: only a (angle 0) has x > 0.5; b and e (72 and 288 degrees) have 0.309
    expect(json.nodes.map((n) => n.node)).toEqual(["a"]);
    expect(json.nodes[0]?.x).toBeCloseTo(1, 12);
  });
});
