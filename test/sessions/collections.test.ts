// Collections over GraphQL: matching, the blob the page paints from, replacement by name, the cap of 10,
// ordering, recoloring, deletion, reset, owner-only changes and the live event.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { csvEdgeDataset } from "../helpers/datasets.ts";
import { createTestGateway, type TestGateway } from "../helpers/gateway.ts";

const FIELDS = "id name position color nodeColor palette matchCount nodeCount edgeCount matchesUrl description";
const CREATE = `mutation($i: CreateCollectionInput!) { createCollection(input: $i) { ${FIELDS} } }`;
const LIST = `query($id: ID!) { vizSession(id: $id) { revision { number } collections { ${FIELDS} } globalLayer { id } } }`;

type Collection = {
  id: string;
  name: string;
  position: number;
  color: string;
  nodeColor: string | null;
  palette: string | null;
  matchCount: number | null;
  nodeCount: number | null;
  edgeCount: number | null;
  matchesUrl: string | null;
  description: string | null;
};

describe("collections", () => {
  let gw: TestGateway;
  let alice: string;
  let bob: string;
  let sessionId: string;

  const create = (input: Record<string, unknown>, token = alice) =>
    gw.graphql<{ createCollection: Collection }>(CREATE, { i: { sessionId, ...input } }, token);
  const list = async () =>
    (await gw.graphql<{ vizSession: { revision: { number: number }; collections: Collection[] } }>(LIST, { id: sessionId }, alice)).body
      .data?.vizSession;
  const names = async () => (await list())?.collections.map((c) => c.name);
  const errorOf = (result: { body: { errors?: { message: string }[] } }) => result.body.errors?.[0]?.message ?? "";

  beforeAll(async () => {
    gw = await createTestGateway("sqlite");
    ({ alice = "", bob = "" } = await gw.users("alice", "bob"));
    // a -> b -> c -> d, and e -> a; kind on the edges.
    const datasetId = await csvEdgeDataset(gw, alice, "s,d,kind\na,b,x\nb,c,y\nc,d,x\ne,a,y\n");
    await gw.graphql(`mutation($d: ID!) { shareDataset(datasetId: $d, mode: "public") }`, { d: datasetId }, alice);
    const opened = await gw.graphql<{ openVizSession: { id: string } }>(
      `mutation($d: ID!) { openVizSession(datasetId: $d) { id } }`,
      { d: datasetId },
      alice,
    );
    sessionId = opened.body.data?.openVizSession.id ?? "";
  });
  afterAll(() => gw?.close());

  it("matches nodes and edges, and serves their row positions", async () => {
    const result = await create({
      name: "from b",
      query: JSON.stringify([{ type: "Node", filter_dict: { node: "b" } }, { type: "Edge", direction: "forward" }, { type: "Node" }]),
      nodeColor: "#00BFFF",
      description: "b and what it points to",
    });
    const made = result.body.data?.createCollection;
    expect(made).toMatchObject({ name: "from b", position: 0, color: "#00BFFF", nodeCount: 2, edgeCount: 1, matchCount: 3 });
    const response = await gw.request(made?.matchesUrl ?? "", { headers: { authorization: `Bearer ${alice}` } });
    expect(response.status).toBe(200);
    const words = new Uint32Array(await response.arrayBuffer());
    expect(words[0]).toBe(2);
    expect(words[1]).toBe(1);
    // Edge b->c is row 1 of the edge table.
    expect(words[4]).toBe(1);
  });

  it("fills in an undirected edge step, as the reference's tool does", async () => {
    const result = await create({
      name: "around a",
      query: [{ type: "Node", filter_dict: { node: "a" } }, { type: "Edge" }, { type: "Node" }],
    });
    // a's neighbours both ways: b and e; edges a->b and e->a.
    expect(result.body.data?.createCollection).toMatchObject({ nodeCount: 3, edgeCount: 2, position: 1, palette: null });
  });

  it("replaces a collection of the same name instead of adding one", async () => {
    const before = (await list())?.collections.find((c) => c.name === "around a");
    const result = await create({ name: "around a", query: [{ type: "Node", filter_dict: { node: "e" } }], palette: "viridis" });
    expect(result.body.data?.createCollection).toMatchObject({ id: before?.id, position: 1, matchCount: 1, palette: "viridis" });
    expect(await names()).toEqual(["from b", "around a"]);
  });

  it("refuses Cypher, bare operations, bad colors and unknown palettes with their codes", async () => {
    expect(errorOf(await create({ name: "x", query: "MATCH (n) RETURN n" }))).toMatch(/^\[cypher-not-accepted\]/);
    expect(errorOf(await create({ name: "x", query: JSON.stringify({ type: "Node" }) }))).toMatch(/^\[wrap-in-array\]/);
    expect(errorOf(await create({ name: "x", query: "[]", nodeColor: "red" }))).toMatch(/^\[invalid-color\]/);
    expect(errorOf(await create({ name: "x", query: "[]", palette: "rainbow-unicorn" }))).toMatch(/^\[unknown-palette\]/);
    expect(errorOf(await create({ name: "x", query: JSON.stringify([{ type: "Node", filter_dict: { nope: 1 } }]) }))).toMatch(/^\[/);
    expect(await names()).toEqual(["from b", "around a"]);
  });

  it("keeps at most 10, dropping the oldest", async () => {
    for (let i = 0; i < 9; i++) await create({ name: `n${i}`, query: [{ type: "Node", filter_dict: { node: "a" } }] });
    const all = await names();
    expect(all).toHaveLength(10);
    expect(all?.[0]).toBe("around a");
    expect(all).not.toContain("from b");
    expect((await list())?.collections.map((c) => c.position)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it("reorders: listed ids first, the rest keep their relative order", async () => {
    const before = (await list())?.collections ?? [];
    const [first, second, third] = before;
    const order = [third?.id, first?.id];
    const result = await gw.graphql<{ reorderCollections: Collection[] }>(
      `mutation($s: ID!, $o: [ID!]!) { reorderCollections(sessionId: $s, order: $o) { id position } }`,
      { s: sessionId, o: order },
      alice,
    );
    const ids = result.body.data?.reorderCollections.map((c) => c.id);
    expect(ids?.slice(0, 3)).toEqual([third?.id, first?.id, second?.id]);
    expect(ids).toHaveLength(10);
  });

  it("renames and recolors without changing what matches; the global layer cannot be deleted", async () => {
    const target = (await list())?.collections[0];
    const updated = await gw.graphql<{ updateCollection: Collection }>(
      `mutation($s: ID!, $id: ID!) { updateCollection(sessionId: $s, id: $id, name: "renamed", nodeColor: "#11223344") { ${FIELDS} } }`,
      { s: sessionId, id: target?.id },
      alice,
    );
    expect(updated.body.data?.updateCollection).toMatchObject({ name: "renamed", color: "#11223344", matchCount: target?.matchCount });
    const global = await gw.graphql(`mutation($s: ID!) { deleteCollection(sessionId: $s, id: "global") { id } }`, { s: sessionId }, alice);
    expect(errorOf(global)).toMatch(/^\[global-layer\]/);
    const gone = await gw.graphql(
      `mutation($s: ID!, $id: ID!) { deleteCollection(sessionId: $s, id: $id) { id } }`,
      { s: sessionId, id: target?.id },
      alice,
    );
    expect(gone.body.errors).toBeUndefined();
    expect(await names()).toHaveLength(9);
    expect((await list())?.collections.map((c) => c.position)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it("lets a viewer read but only the owner change", async () => {
    const seen = await gw.graphql<{ vizSession: { collections: Collection[] } }>(LIST, { id: sessionId }, bob);
    expect(seen.body.data?.vizSession.collections).toHaveLength(9);
    const refused = await create({ name: "bob's", query: "[]" }, bob);
    expect(refused.body.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
  });

  it("matches again when the dataset's tables are rebuilt, so the painted rows are never stale", async () => {
    const auth = { authorization: `Bearer ${alice}` };
    const made = await gw.json<{ data: { dataset_id: string } }>("/api/v2/upload/datasets/", {
      method: "POST",
      headers: auth,
      json: {
        name: "direct",
        metadata: {},
        node_encodings: { bindings: {} },
        edge_encodings: { bindings: { source: "s", destination: "d" } },
      },
    });
    const dataset = made.body.data.dataset_id;
    const upload = (csv: string) =>
      gw.request(`/api/v2/upload/datasets/${dataset}/edges/csv`, { method: "POST", headers: auth, body: csv });
    expect((await upload("s,d\nx,y\n")).status).toBe(200);
    const opened = await gw.graphql<{ openVizSession: { id: string } }>(
      `mutation($d: ID!) { openVizSession(datasetId: $d) { id } }`,
      { d: dataset },
      alice,
    );
    const session = opened.body.data?.openVizSession.id;
    const create = await gw.graphql<{ createCollection: Collection }>(
      CREATE,
      { i: { sessionId: session, name: "y", query: '[{"type":"Node","filter_dict":{"node":"y"}}]' } },
      alice,
    );
    expect(create.body.data?.createCollection).toMatchObject({ nodeCount: 1 });
    // New tables: y is now the third node (rows x, w, y), and the old positions would point at w.
    expect((await upload("s,d\nx,w\nw,y\n")).status).toBe(200);
    const listed = await gw.graphql<{ vizSession: { collections: Collection[] } }>(LIST, { id: session }, alice);
    const fresh = listed.body.data?.vizSession.collections[0];
    expect(fresh).toMatchObject({ name: "y", nodeCount: 1, edgeCount: 0 });
    const words = new Uint32Array(await (await gw.request(fresh?.matchesUrl ?? "", { headers: auth })).arrayBuffer());
    expect([...words]).toEqual([1, 0, 2]);
  });

  it("publishes every change and resets to none", async () => {
    const before = (await list())?.revision.number ?? 0;
    const reset = await gw.graphql<{ resetCollections: number }>(
      `mutation($s: ID!) { resetCollections(sessionId: $s) }`,
      { s: sessionId },
      alice,
    );
    expect(reset.body.data?.resetCollections).toBe(9);
    const after = await list();
    expect(after?.collections).toEqual([]);
    expect(after?.revision.number).toBe(before + 1);
  });
});
