// Browser sign-in, graph.html's session redirect, sharing, the sessions API, the page's data routes and live changes.
import { tableFromIPC } from "apache-arrow";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { csvEdgeDataset } from "../helpers/datasets.ts";
import { createTestGateway, type TestGateway } from "../helpers/gateway.ts";

describe("browser sessions and live visualization sessions", () => {
  let gw: TestGateway;
  let aliceToken: string;
  let datasetId: string;

  const signIn = async (username: string, password: string) => {
    const response = await gw.request("/login", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ username, password, next: "/graph/graph.html?dataset=x" }).toString(),
    });
    return response;
  };
  const cookieOf = async (username: string) => {
    const setCookie = (await signIn(username, `${username}-password`)).headers.get("set-cookie") ?? "";
    return setCookie.split(";")[0] ?? "";
  };
  const open = (query: string, cookie?: string) =>
    gw.request(`/graph/graph.html?${query}`, { headers: cookie ? { cookie } : {}, redirect: "manual" });
  const sessionFrom = (location: string | null) => new URL(location ?? "", "http://x").searchParams.get("session") ?? "";

  beforeAll(async () => {
    gw = await createTestGateway("sqlite");
    aliceToken = (await gw.users("alice", "bob")).alice ?? "";
    datasetId = await csvEdgeDataset(gw, aliceToken, "s,d,kind\na,b,x\nb,c,y\n");
  });
  afterAll(() => gw?.close());

  it("sends an unauthenticated visit to the login page and back", async () => {
    const response = await open(`dataset=${datasetId}`);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`/login?next=${encodeURIComponent(`/graph/graph.html?dataset=${datasetId}`)}`);
    const page = await gw.request("/login?next=/graph/graph.html");
    expect(await page.text()).toContain('name="password"');
  });

  it("signs in with an HTTP-only cookie, and refuses wrong credentials", async () => {
    const ok = await signIn("alice", "alice-password");
    expect(ok.status).toBe(303);
    expect(ok.headers.get("location")).toBe("/graph/graph.html?dataset=x");
    expect(ok.headers.get("set-cookie")).toMatch(/^gw_session=[a-z0-9]+; HttpOnly; SameSite=Lax; Path=\/; Expires=.*; Secure$/);
    const bad = await signIn("alice", "wrong-password");
    expect(bad.status).toBe(303);
    expect(bad.headers.get("location")).toMatch(/^\/login\?error=1/);
    expect(bad.headers.get("set-cookie")).toBeNull();
  });

  it("opening a dataset creates a session and redirects with session added, keeping the client's parameters", async () => {
    const cookie = await cookieOf("alice");
    const response = await open(`dataset=${datasetId}&type=arrow&viztoken=v1&usertag=u&splashAfter=123`, cookie);
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get("location") ?? "", "http://x");
    expect(location.pathname).toBe("/graph/graph.html");
    expect(Object.fromEntries(location.searchParams)).toMatchObject({
      dataset: datasetId,
      type: "arrow",
      viztoken: "v1",
      usertag: "u",
      splashAfter: "123",
    });
    const joined = await open(`dataset=${datasetId}&session=${location.searchParams.get("session")}`, cookie);
    // The page itself (200 once built with `npm run build:web`).
    expect([200, 503]).toContain(joined.status);
    expect(joined.headers.get("content-type")).toContain("text/html");
  });

  it("makes the sets of pygraphistry's collections parameter the new session's collections", async () => {
    const cookie = await cookieOf("alice");
    // As pygraphistry writes it: quote(json.dumps(list, separators=(',',':')), safe='').
    const sets = [
      {
        type: "set",
        id: "from-a",
        name: "From a",
        description: "a and what it points to",
        node_color: "#00BFFF",
        expr: {
          type: "gfql_chain",
          gfql: [{ type: "Node", filter_dict: { node: "a" } }, { type: "Edge", direction: "forward" }, { type: "Node" }],
        },
      },
      { type: "intersection", id: "both", expr: { type: "intersection", sets: ["from-a", "from-a"] } },
    ];
    const response = await open(
      `dataset=${datasetId}&collections=${encodeURIComponent(JSON.stringify(sets))}&showCollections=true`,
      cookie,
    );
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get("location") ?? "", "http://x");
    expect(location.searchParams.get("collections")).toBe(JSON.stringify(sets));
    const listed = await gw.graphql<{ vizSession: { collections: Record<string, unknown>[] } }>(
      `query($id: ID!) { vizSession(id: $id) { collections { name color description nodeCount edgeCount } } }`,
      { id: location.searchParams.get("session") },
      aliceToken,
    );
    // The intersection cannot be a GFQL collection of its own and is left out.
    expect(listed.body.data?.vizSession.collections).toEqual([
      { name: "From a", color: "#00BFFF", description: "a and what it points to", nodeCount: 2, edgeCount: 1 },
    ]);
  });

  it("keeps private datasets to their owner until shared", async () => {
    const bob = await cookieOf("bob");
    expect((await open(`dataset=${datasetId}`, bob)).status).toBe(404);
    const share = await gw.json("/api/v2/share/link/", {
      method: "POST",
      headers: { authorization: `Bearer ${aliceToken}` },
      json: { obj_pk: datasetId, obj_type: "dataset", mode: "public", notify: false, invited_users: [], mode_action: "10", message: "" },
    });
    expect(share.status).toBe(200);
    expect((await open(`dataset=${datasetId}`, bob)).status).toBe(302);
    const bobToken = await gw.login("bob", "bob-password");
    const takeover = await gw.request("/api/v2/share/link/", {
      method: "POST",
      headers: { authorization: `Bearer ${bobToken}` },
      json: { obj_pk: datasetId, mode: "private" },
    });
    expect(takeover.status).toBe(403);
  });

  it("lists the caller's own sessions in the spec's shape, and one by id", async () => {
    const cookie = await cookieOf("alice");
    const sessionId = sessionFrom((await open(`dataset=${datasetId}`, cookie)).headers.get("location"));
    const auth = { authorization: `Bearer ${aliceToken}` };
    const list = await gw.json<{ results: { session_id: string }[] }>("/api/experimental/viz/sessions/", { headers: auth });
    expect(list.body.results.map((s) => s.session_id)).toContain(sessionId);
    const one = await gw.json(`/api/experimental/viz/sessions/${sessionId}/`, { headers: auth });
    expect(one.body).toEqual({ session_id: sessionId, revision: { revision_id: `${sessionId}.1`, dataset: { dataset_id: datasetId } } });
    const bobToken = await gw.login("bob", "bob-password");
    const bobs = await gw.json<{ results: { session_id: string }[] }>("/api/experimental/viz/sessions/", {
      headers: { authorization: `Bearer ${bobToken}` },
    });
    expect(bobs.body.results.map((s) => s.session_id)).not.toContain(sessionId);
  });

  it("serves only the asked-for columns as an Arrow stream, single rows as JSON, and the owner's layout", async () => {
    const cookie = await cookieOf("alice");
    const sessionId = sessionFrom((await open(`dataset=${datasetId}`, cookie)).headers.get("location"));
    const edges = await gw.request(`/graph/data/${sessionId}/edges.arrow?columns=s,d`, { headers: { cookie } });
    expect(edges.headers.get("content-type")).toBe("application/vnd.apache.arrow.stream");
    const table = tableFromIPC(new Uint8Array(await edges.arrayBuffer()));
    expect(table.schema.fields.map((f) => f.name)).toEqual(["s", "d"]);
    expect(table.numRows).toBe(2);
    expect((await gw.json(`/graph/data/${sessionId}/edges/row/1`, { headers: { cookie } })).body).toEqual({ s: "b", d: "c", kind: "y" });
    expect((await gw.request(`/graph/data/${sessionId}/nodes.arrow?columns=nope`, { headers: { cookie } })).status).toBe(400);
    // None stored yet: 204 No Content (not an error the browser would log).
    const none = await gw.request(`/graph/data/${sessionId}/layout`, { headers: { cookie } });
    expect(none.status).toBe(204);
    expect((await none.arrayBuffer()).byteLength).toBe(0);
    const layout = new Float32Array([0, 0, 1, 1, 2, 2]);
    const put = await gw.request(`/graph/data/${sessionId}/layout`, {
      method: "PUT",
      headers: { cookie },
      body: new Uint8Array(layout.buffer),
    });
    expect(put.status).toBe(204);
    const got = new Float32Array(await (await gw.request(`/graph/data/${sessionId}/layout`, { headers: { cookie } })).arrayBuffer());
    expect([...got]).toEqual([0, 0, 1, 1, 2, 2]);
    const bob = await cookieOf("bob");
    expect(
      (await gw.request(`/graph/data/${sessionId}/layout`, { method: "PUT", headers: { cookie: bob }, body: new Uint8Array(8) })).status,
    ).toBe(403);
    expect((await gw.request(`/graph/data/${sessionId}/edges.arrow`)).status).toBe(401);
  });

  it("streams a session's changes to subscribers, and knows while its owner is connected", async () => {
    const cookie = await cookieOf("alice");
    const sessionId = sessionFrom((await open(`dataset=${datasetId}`, cookie)).headers.get("location"));
    const response = await gw.request("/graphql", {
      method: "POST",
      headers: { cookie, "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify({
        query: `subscription($id: ID!) { vizSessionChanged(id: $id) { kind revision { number } collections { name } } }`,
        variables: { id: sessionId },
      }),
    });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    // Read as a client does, continuously, while the change happens.
    const received = (async () => {
      let text = "";
      while (!text.includes("COLLECTIONS")) {
        const { value, done } = await reader.read();
        if (done) break;
        text += new TextDecoder().decode(value);
      }
      return text;
    })();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const available = await gw.graphql<{ vizSession: { ownerAvailable: boolean } }>(
      `query($id: ID!) { vizSession(id: $id) { ownerAvailable } }`,
      { id: sessionId },
      aliceToken,
    );
    expect(available.body.data?.vizSession.ownerAvailable).toBe(true);
    const put = await gw.request(`/graph/data/${sessionId}/layout`, { method: "PUT", headers: { cookie }, body: new Uint8Array(16) });
    expect(put.status).toBe(204);
    // A collections change carries the list, so a page need not ask again.
    const made = await gw.graphql(
      `mutation($s: ID!) { createCollection(input: { sessionId: $s, name: "all", query: "[{\\"type\\": \\"Node\\"}]" }) { id } }`,
      { s: sessionId },
      aliceToken,
    );
    expect(made.body.errors).toBeUndefined();
    const text = await received;
    await reader.cancel();
    expect(text).toContain('"vizSessionChanged":{"kind":"LAYOUT","revision":{"number":2},"collections":[]}');
    expect(text).toContain('"vizSessionChanged":{"kind":"COLLECTIONS","revision":{"number":3},"collections":[{"name":"all"}]}');
  });

  it("signs out, after which the cookie no longer works", async () => {
    const cookie = await cookieOf("alice");
    const out = await gw.request("/logout", { method: "POST", headers: { cookie }, redirect: "manual" });
    expect(out.status).toBe(303);
    expect(out.headers.get("set-cookie")).toContain("Max-Age=0");
    expect((await open(`dataset=${datasetId}`, cookie)).status).toBe(302);
    expect((await open(`dataset=${datasetId}`, cookie)).headers.get("location")).toMatch(/^\/login/);
  });
});
