// Layouts through dataset creation (spec 2.3/2.4 `layout`) and the schema listing (spec 2.9): positions stored as
// node columns of the new version in node-row order, on both REST routes, GraphQL and direct uploads; every refusal a
// 400 naming its field with no dataset left behind; the listing is the layout registry.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readTable } from "../../src/ingest/table-files.ts";
import { findLayout, layoutSchema } from "../../src/layout/registry.ts";
import { createTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { answerValue, runReference } from "../helpers/graph-reference.ts";

type Json = Record<string, unknown>;

const CSV = "s,d\na,b\nb,c\nc,a\nc,d\nd,e\ne,f\nf,g\ng,a\n";
const circle = { libraries: ["igraph"], alg: "circle" };

/** igraph's layout_circle for n nodes: node i at angle 2*pi*i/n on the unit circle. */
const onCircle = (n: number) => Array.from({ length: n }, (_, i) => [Math.cos((2 * Math.PI * i) / n), Math.sin((2 * Math.PI * i) / n)]);

describe("layouts on dataset creation", () => {
  let gw: TestGateway;
  let auth: Record<string, string>;
  let token: string;

  async function file(text: string): Promise<string> {
    const created = await gw.json<{ file_id: string }>("/api/v2/files/", { method: "POST", headers: auth, json: { file_type: "csv" } });
    await gw.request(`/api/v2/upload/files/${created.body.file_id}`, { method: "POST", headers: auth, body: text });
    return created.body.file_id;
  }

  const body = (edgeFile: string, layout: unknown, extra: Json = {}): Json => ({
    name: "laid out",
    metadata: {},
    node_encodings: { bindings: {} },
    edge_encodings: { bindings: { source: "s", destination: "d" } },
    edge_files: [edgeFile],
    layout,
    ...extra,
  });

  const create = (json: Json, path = "/api/v1/datasets/") =>
    gw.json<Json & { data: { dataset_id: string }; message: string }>(path, { method: "POST", headers: auth, json });

  /** The stored node table of the dataset's current version, read from its Arrow file. */
  async function storedNodes(id: string) {
    const { datasets } = gw.gateway.services;
    const { nodes } = datasets.tablePaths(await datasets.getForSession(id));
    expect(nodes).toBeDefined();
    return readTable(nodes as string);
  }

  const count = async () => (await gw.json<{ count: number }>("/api/v2/datasets/", { headers: auth })).body.count;

  beforeAll(async () => {
    gw = await createTestGateway("sqlite");
    token = await gw.login();
    auth = { authorization: `Bearer ${token}` };
  });
  afterAll(() => gw?.close());

  it("stores igraph circle positions as node columns x, y in node-row order (api/v1/datasets/), as python-igraph lays them", async () => {
    const created = await create(body(await file(CSV), circle));
    expect(created.status).toBe(200);
    expect(created.body.message).toMatch(/Laid out \(igraph circle\): node columns x, y\./);
    const id = created.body.data.dataset_id;
    const nodes = await storedNodes(id);
    expect(nodes.columns).toEqual(["node", "x", "y"]);
    expect(nodes.getColumn("node").toArray()).toEqual(["a", "b", "c", "d", "e", "f", "g"]);
    const [answers] = await runReference([{ n: nodes.height, edges: [], calls: ["g.layout_circle().coords"] }]);
    const expected = answerValue<number[][]>(answers?.[0]);
    const xs = nodes.getColumn("x").toArray() as number[];
    const ys = nodes.getColumn("y").toArray() as number[];
    for (const [i, [x, y]] of onCircle(nodes.height).entries()) {
      expect(xs[i]).toBeCloseTo(x as number, 12);
      expect(ys[i]).toBeCloseTo(y as number, 12);
      expect(xs[i]).toBeCloseTo(expected[i]?.[0] as number, 12);
      expect(ys[i]).toBeCloseTo(expected[i]?.[1] as number, 12);
    }
    // the dataset's `layout` keeps the request as it was given
    const dataset = await gw.json<{ data: Json }>(`/api/v2/upload/datasets/${id}`, { headers: auth });
    expect(dataset.body.data.layout).toEqual(circle);
  });

  it("runs after compute on api/v2/upload/datasets/, with parameters, replacing same-named node columns of a node file", async () => {
    const nodeFile = await file("id,x,label\nd,not-a-number,D\nc,zz,C\nb,yy,B\na,xx,A\n");
    const edgeFile = await file("s,d\na,b\nb,c\nc,d\n");
    const created = await create(
      body(
        edgeFile,
        { libraries: ["igraph"], alg: "circular", params: { order: ["c", "a"] }, directed: false },
        {
          node_files: [nodeFile],
          node_encodings: { bindings: { node: "id" } },
          compute: { deg: { libraries: ["igraph"], alg: "pagerank", directed: false } },
        },
      ),
      "/api/v2/upload/datasets/",
    );
    expect(created.status).toBe(200);
    expect(created.body.message).toMatch(/Computed deg \(igraph pagerank\)\. Laid out \(igraph circular\)/);
    const nodes = await storedNodes(created.body.data.dataset_id);
    expect(nodes.columns).toEqual(["id", "x", "label", "deg", "y"]);
    // node rows keep the node file's order; x is replaced (now numbers), y added, other columns kept
    expect(nodes.getColumn("id").toArray()).toEqual(["d", "c", "b", "a"]);
    expect(nodes.getColumn("label").toArray()).toEqual(["D", "C", "B", "A"]);
    expect(nodes.columns.filter((c) => c === "x")).toHaveLength(1);
    // igraph: the ordered vertices (c, a = rows 1, 3) around the circle, the rest at the origin
    const [answers] = await runReference([{ n: 4, edges: [], calls: ["g.layout_circle(order=[1, 3]).coords"] }]);
    const expected = answerValue<number[][]>(answers?.[0]);
    const xs = nodes.getColumn("x").toArray() as number[];
    const ys = nodes.getColumn("y").toArray() as number[];
    for (let i = 0; i < 4; i++) {
      expect(xs[i]).toBeCloseTo(expected[i]?.[0] as number, 12);
      expect(ys[i]).toBeCloseTo(expected[i]?.[1] as number, 12);
    }
    expect([xs[1], ys[1], xs[3], ys[3]].map((v) => Math.round(v as number) + 0)).toEqual([1, 0, -1, 0]);
  });

  it("gives the same positions to the same request: a seeded force layout (cuGraph force_atlas2) twice", async () => {
    const edgeFile = await file(CSV);
    const fa2 = { libraries: ["cugraph"], alg: "force_atlas2", params: { max_iter: 40 } };
    const one = await create(body(edgeFile, fa2));
    const two = await create(body(edgeFile, fa2), "/api/v2/upload/datasets/");
    expect([one.status, two.status]).toEqual([200, 200]);
    const [a, b] = [await storedNodes(one.body.data.dataset_id), await storedNodes(two.body.data.dataset_id)];
    const xs = a.getColumn("x").toArray() as number[];
    expect(xs.every(Number.isFinite)).toBe(true);
    expect(new Set(xs).size).toBe(xs.length);
    expect(b.getColumn("x").toArray()).toEqual(xs);
    expect(b.getColumn("y").toArray()).toEqual(a.getColumn("y").toArray());
    // another seed is another layout
    const other = await create(body(edgeFile, { ...fa2, params: { max_iter: 40, random_state: 9 } }));
    expect((await storedNodes(other.body.data.dataset_id)).getColumn("x").toArray()).not.toEqual(xs);
  });

  it.skipIf(!findLayout("igraph", "sphere"))("adds z for a 3D layout", async () => {
    const created = await create(body(await file(CSV), { libraries: ["igraph"], alg: "sphere" }));
    expect(created.status).toBe(200);
    const nodes = await storedNodes(created.body.data.dataset_id);
    expect(nodes.columns).toEqual(["node", "x", "y", "z"]);
    const [xs, ys, zs] = ["x", "y", "z"].map((c) => nodes.getColumn(c).toArray() as number[]);
    for (let i = 0; i < nodes.height; i++) expect(Math.hypot(xs?.[i] ?? 0, ys?.[i] ?? 0, zs?.[i] ?? 0)).toBeCloseTo(1, 9);
  });

  it("lays out through GraphQL createDataset", async () => {
    const edgeFile = await file(CSV);
    const answer = await gw.graphql<{ createDataset: { id: string; layout: unknown } }>(
      "mutation($input: CreateDatasetInput!) { createDataset(input: $input) { id layout } }",
      {
        input: {
          name: "gql",
          metadata: {},
          nodeEncodings: { bindings: {} },
          edgeEncodings: { bindings: { source: "s", destination: "d" } },
          edgeFiles: [edgeFile],
          layout: circle,
        },
      },
      token,
    );
    expect(answer.body.errors).toBeUndefined();
    expect(answer.body.data?.createDataset.layout).toEqual(circle);
    const nodes = await storedNodes(answer.body.data?.createDataset.id as string);
    expect(nodes.getColumn("x").toArray()[0]).toBeCloseTo(1, 12);
    expect(nodes.getColumn("y").toArray()[0]).toBeCloseTo(0, 12);
    const bad = await gw.graphql<{ createDataset: { id: string } }>(
      "mutation($input: CreateDatasetInput!) { createDataset(input: $input) { id } }",
      {
        input: {
          name: "gql",
          metadata: {},
          nodeEncodings: { bindings: {} },
          edgeEncodings: { bindings: { source: "s", destination: "d" } },
          edgeFiles: [edgeFile],
          layout: { libraries: ["igraph"], alg: "circle", params: { order: [1.5] } },
        },
      },
      token,
    );
    expect(bad.body.errors?.[0]?.extensions).toMatchObject({ code: "INVALID_INPUT", details: { field: "layout.params.order" } });
  });

  it("lays out a dataset made for direct uploads once its edges arrive", async () => {
    const created = await create({
      name: "direct",
      metadata: {},
      node_encodings: { bindings: {} },
      edge_encodings: { bindings: { source: "s", destination: "d" } },
      layout: circle,
    });
    expect(created.status).toBe(200);
    const id = created.body.data.dataset_id;
    const upload = await gw.request(`/api/v2/upload/datasets/${id}/edges/csv`, {
      method: "POST",
      headers: auth,
      body: "s,d\na,b\nb,c\nc,d\n",
    });
    expect(upload.status).toBe(200);
    const nodes = await storedNodes(id);
    const xs = nodes.getColumn("x").toArray() as number[];
    for (const [i, [x]] of onCircle(4).entries()) expect(xs[i]).toBeCloseTo(x as number, 12);
  });

  it.each([
    ["a layout that is not an object", "circle", "layout"],
    ["no library", { alg: "circle" }, "layout.libraries"],
    ["an unknown library", { libraries: ["networkx"], alg: "circle" }, "layout.libraries"],
    ["an unknown layout", { libraries: ["igraph"], alg: "circle_nope" }, "layout.alg"],
    ["a compute algorithm as a layout", { libraries: ["igraph"], alg: "pagerank" }, "layout.alg"],
    ["an unknown parameter", { libraries: ["igraph"], alg: "circle", params: { radius: 2 } }, "layout.params.radius"],
    ["a wrong parameter type", { libraries: ["igraph"], alg: "circle", params: { order: "a" } }, "layout.params.order"],
    ["an unknown entry field", { libraries: ["igraph"], alg: "circle", weights: "w" }, "layout.weights"],
    ["a non-boolean directed", { libraries: ["igraph"], alg: "circle", directed: "yes" }, "layout.directed"],
    ["an unknown node in a parameter", { libraries: ["igraph"], alg: "circle", params: { order: ["a", "zz"] } }, "layout.params.order"],
  ])("answers 400 naming the field for %s, and makes no dataset", async (_what, layout, field) => {
    const edgeFile = await file(CSV);
    const before = await count();
    for (const path of ["/api/v1/datasets/", "/api/v2/upload/datasets/"]) {
      const { status, body: answer } = await create(body(edgeFile, layout), path);
      expect(status).toBe(400);
      expect(answer).toMatchObject({ success: false, error: { code: "INVALID_INPUT", details: { field } } });
    }
    expect(await count()).toBe(before);
  });
});

describe("the layout listing", () => {
  let gw: TestGateway;
  let token: string;
  beforeAll(async () => {
    gw = await createTestGateway("sqlite");
    token = await gw.login();
  });
  afterAll(() => gw?.close());

  it("lists exactly the registry's layouts on api/v1/datasets/, web/api/v1/datasets/ and GraphQL computeSchema", async () => {
    const listed = layoutSchema();
    expect(listed.igraph).toEqual(expect.arrayContaining(["circle", "circular"]));
    expect(listed.cugraph).toEqual(["force_atlas2"]);
    for (const lib of ["igraph", "cugraph"] as const) for (const name of listed[lib]) expect(findLayout(lib, name)?.name).toBe(name);
    for (const path of ["/api/v1/datasets/", "/web/api/v1/datasets/"]) {
      const { status, body } = await gw.json<{ layout: unknown }>(path, { headers: { authorization: `Bearer ${token}` } });
      expect(status).toBe(200);
      expect(body.layout).toEqual(listed);
    }
    const gql = await gw.graphql<{ computeSchema: { layout: unknown } }>("{ computeSchema { layout { cugraph igraph } } }", {}, token);
    expect(gql.body.data?.computeSchema.layout).toEqual(listed);
  });
});
