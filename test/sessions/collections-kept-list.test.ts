// Creating collections writes from the list this process kept after its last creation (collections.ts `lists`), in
// one batch transaction guarded by the session's revision: these hold it to what a fresh read would do when another
// instance changes the session in between, when other changes come between creations, and when many creations come
// at once (the cap of ten, positions 0..9, the dropped rows' blobs removed).
import { readdir } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Viewer } from "../../src/auth/viewer.ts";
import { loadConfig } from "../../src/config/config.ts";
import { createGateway, type Gateway } from "../../src/server/gateway.ts";
import { PROVIDERS } from "../helpers/databases.ts";
import { csvEdgeDataset } from "../helpers/datasets.ts";
import { createTestGateway, type TestGateway } from "../helpers/gateway.ts";

const FIELDS = "id name position matchCount matchesUrl";
type Collection = { id: string; name: string; position: number; matchCount: number | null; matchesUrl: string | null };
const nodeQuery = (node: string) => JSON.stringify([{ type: "Node", filter_dict: { node } }]);

describe.each(PROVIDERS)("collections created from the kept list (%s)", (provider) => {
  let gw: TestGateway;
  /** A second gateway on the same database and data folder: another instance of the service. */
  let other: Gateway;
  let alice: string;
  let sessionId: string;

  const graphqlOn = async <T>(gateway: Gateway, query: string, variables: Record<string, unknown>) => {
    const response = await gateway.fetch(
      new Request("http://gateway.test/graphql", {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${alice}` },
        body: JSON.stringify({ query, variables }),
      }),
      { clientAddress: "127.0.0.1" },
    );
    const body = (await response.json()) as { data?: T; errors?: { message: string }[] };
    if (body.errors) throw new Error(body.errors[0]?.message);
    return body.data as T;
  };
  const create = (name: string, node = "a", gateway = gw.gateway) =>
    graphqlOn<{ createCollection: Collection }>(
      gateway,
      `mutation($i: CreateCollectionInput!) { createCollection(input: $i) { ${FIELDS} } }`,
      { i: { sessionId, name, query: nodeQuery(node), nodeColor: "#ff8800" } },
    ).then((data) => data.createCollection);
  const list = (gateway = gw.gateway) =>
    graphqlOn<{ vizSession: { collections: Collection[] } }>(
      gateway,
      `query($id: ID!) { vizSession(id: $id) { collections { ${FIELDS} } } }`,
      {
        id: sessionId,
      },
    ).then((data) => data.vizSession.collections);
  const blobFiles = async () => (await readdir(gw.gateway.services.blobs.pathOf("sessions", sessionId, "collections"))).sort();
  const blobOf = (c: Collection) => gw.gateway.services.db.vizCollection.findUnique({ where: { id: c.id } }).then((row) => row?.matchBlob);

  beforeAll(async () => {
    gw = await createTestGateway(provider);
    ({ alice = "" } = await gw.users("alice"));
    const datasetId = await csvEdgeDataset(gw, alice, "s,d\na,b\nb,c\nc,d\n");
    const opened = await gw.graphql<{ openVizSession: { id: string } }>(
      `mutation($d: ID!) { openVizSession(datasetId: $d) { id } }`,
      { d: datasetId },
      alice,
    );
    sessionId = opened.body.data?.openVizSession.id ?? "";
    other = await createGateway(loadConfig(gw.env));
  });
  afterAll(async () => {
    await other?.close();
    await gw?.close();
  });

  it("sees what another instance changed between two creations", async () => {
    for (const name of ["a1", "a2", "a3"]) await create(name);
    // The other instance adds one and renames one; this instance's kept list knows neither.
    await create("b1", "b", other);
    const a1 = (await list()).find((c) => c.name === "a1");
    await graphqlOn(other, `mutation($s: ID!, $id: ID!) { updateCollection(sessionId: $s, id: $id, name: "a1x") { id } }`, {
      s: sessionId,
      id: a1?.id,
    });
    const made = await create("a4");
    expect(made.position).toBe(4);
    const after = await list();
    expect(after.map((c) => [c.name, c.position])).toEqual([
      ["a1x", 0],
      ["a2", 1],
      ["a3", 2],
      ["b1", 3],
      ["a4", 4],
    ]);
    // Both instances read the same list.
    expect((await list(other)).map((c) => c.id)).toEqual(after.map((c) => c.id));
    // A creation of an existing name replaces it in place, here and after another instance's creation.
    await create("b2", "c", other);
    const replaced = await create("a2", "d");
    expect(replaced).toMatchObject({ id: after[1]?.id, position: 1, matchCount: 1 });
    expect((await list()).map((c) => c.name)).toEqual(["a1x", "a2", "a3", "b1", "a4", "b2"]);
    expect(await blobFiles()).toEqual((await Promise.all((await list()).map(blobOf))).sort());
  });

  it("keeps ten in order when many creations come at once, and removes the dropped ones' blobs", async () => {
    const made = await Promise.all(Array.from({ length: 24 }, (_, i) => create(`many${i}`, i % 2 ? "b" : "c")));
    expect(new Set(made.map((c) => c.id)).size).toBe(24);
    const after = await list();
    expect(after).toHaveLength(10);
    expect(after.map((c) => c.position)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    // The ten left are ten of those just created (the earlier ones, and the first fourteen to be written, dropped).
    const ids = new Set(made.map((c) => c.id));
    expect(after.every((c) => ids.has(c.id))).toBe(true);
    // Every kept collection's blob is there and serves its rows; no other blob is left.
    const blobs = await Promise.all(after.map(blobOf));
    expect(await blobFiles()).toEqual([...blobs].sort());
    for (const c of after) {
      const response = await gw.request(c.matchesUrl ?? "", { headers: { authorization: `Bearer ${alice}` } });
      expect(response.status).toBe(200);
      expect((await response.arrayBuffer()).byteLength).toBe(4 * (2 + 1));
    }
    // The other instance, which kept no list, reads the same.
    expect((await list(other)).map((c) => c.id)).toEqual(after.map((c) => c.id));
  });

  it("answers a creation's change event from the list it kept, and reads the stored list for a later revision", async () => {
    await create("ev1");
    const { services } = gw.gateway;
    const user = await services.db.user.findUnique({ where: { username: "alice" } });
    const viewer = { userId: user?.id, username: "alice", isAdmin: false, via: "jwt" } as unknown as Viewer;
    const revision = (await services.db.vizSession.findUnique({ where: { id: sessionId } }))?.revisionNumber ?? 0;
    // Described anew behind the service's back (no revision moved): what the kept list does not know.
    await services.db.vizCollection.updateMany({ where: { sessionId }, data: { description: "renamed" } });
    const kept = await services.collections.listForEvent(viewer, sessionId, revision);
    expect(kept.map((c) => c.name)).toEqual((await list()).map((c) => c.name));
    expect(kept.every((c) => c.description !== "renamed")).toBe(true);
    // An event past the kept list (another instance's change) reads what is stored, as a page's query does.
    const fresh = await services.collections.listForEvent(viewer, sessionId, revision + 1);
    expect(fresh.every((c) => c.description === "renamed")).toBe(true);
    expect((await services.collections.list(viewer, sessionId)).every((c) => c.description === "renamed")).toBe(true);
    // Someone who may not view the dataset reads it as missing, kept list or not.
    const stranger = { userId: 987_654, username: "nobody", isAdmin: false, via: "jwt" } as unknown as Viewer;
    await expect(services.collections.listForEvent(stranger, sessionId, revision)).rejects.toThrow(/no session/);
  });
});
