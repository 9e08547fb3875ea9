// A single-use viewer's read-only tools (spec 5.6): the browser a link signed in calls /mcp with its cookie from this
// site's own page (never from another site's), and obtains a read-only bearer token for an assistant, used here
// through the MCP SDK's own client. Both reach the read tools over the grant's dataset only; write tools, other
// datasets and other operations are refused; the token ends with the grant (sign-out, forced logout).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld } from "./setup.ts";

type Content = { type: string; text: string }[];
type RpcAnswer = { status: number; body: { result?: { content?: Content; isError?: boolean }; error?: { code: number } } };

describe("single-use viewers on the tool endpoint", () => {
  let world: McpWorld;
  let closePage: () => Promise<void>;
  /** carol, signed in by a single-use link to alice's dataset (carol could not see it otherwise). */
  let cookie = "";
  let grantToken = "";
  let carolSession = "";
  const clients: Client[] = [];

  const post = (path: string, headers: Record<string, string>, body: unknown) =>
    fetch(`${world.base}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });

  async function signInByLink(): Promise<string> {
    const link = await fetch(
      `${world.base}/api/v2/generate/single-use-url/?username=carol&dataset_id=${encodeURIComponent(world.datasetId)}`,
      { headers: { authorization: `Bearer ${world.tokens.admin}` } },
    );
    expect(link.status).toBe(200);
    const url = new URL(((await link.json()) as { single_use_url: string }).single_use_url);
    const opened = await fetch(`${world.base}${url.pathname}${url.search}`, { redirect: "manual" });
    expect(opened.status).toBe(303);
    return /^(gw_session=[^;]+)/.exec(opened.headers.get("set-cookie") ?? "")?.[1] ?? "";
  }

  async function grantTokenFor(sessionCookie: string): Promise<{ status: number; body: Record<string, unknown> }> {
    const answer = await post("/api/v2/auth/grant-token/", { cookie: sessionCookie }, {});
    return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
  }

  /** initialize, then one tools/call, over raw HTTP with these headers on both. */
  async function rawCall(headers: Record<string, string>, name: string, args: Record<string, unknown>): Promise<RpcAnswer> {
    const accept = { accept: "application/json, text/event-stream" };
    const init = await post(
      "/mcp",
      { ...accept, ...headers },
      {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "page", version: "1" } },
      },
    );
    await init.text();
    const session = init.headers.get("mcp-session-id") ?? "";
    const answer = await post(
      "/mcp",
      { ...accept, ...headers, "mcp-session-id": session },
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name, arguments: args } },
    );
    return { status: answer.status, body: (await answer.json()) as RpcAnswer["body"] };
  }

  const connect = async (credential: string) => {
    const client = new Client({ name: "assistant-beside-a-viewer", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(world.url), { requestInit: { headers: { authorization: `Bearer ${credential}` } } }),
    );
    clients.push(client);
    return client;
  };
  const textOf = async (client: Client, name: string, args: Record<string, unknown>) =>
    ((await client.callTool({ name, arguments: args })).content as Content)[0]?.text ?? "";

  beforeAll(async () => {
    world = await createMcpWorld();
    closePage = await world.openOwnerPage();
    // A dataset carol could open without the link (public): the grant still keeps her to its own dataset.
    const other = await world.gql<{ vizSession: { dataset: { id: string } } }>(
      `query($id: ID!) { vizSession(id: $id) { dataset { id } } }`,
      { id: world.longSessionId },
      world.tokens.alice,
    );
    await world.gql(
      `mutation($d: ID!) { shareDataset(datasetId: $d, mode: "public") }`,
      { d: other.data?.vizSession.dataset.id },
      world.tokens.alice,
    );
    cookie = await signInByLink();
    // The viewer's own page on the granted dataset.
    const opened = await post(
      "/graphql",
      { cookie },
      { query: `mutation($d: ID!) { openVizSession(datasetId: $d) { id } }`, variables: { d: world.datasetId } },
    );
    carolSession = ((await opened.json()) as { data: { openVizSession: { id: string } } }).data.openVizSession.id;
    expect(carolSession).not.toBe("");
  }, 60_000);

  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => {});
    await closePage?.();
    await world?.close();
  });

  it("runs the read tools with the link's cookie from this site's page, over its dataset only", async () => {
    const page = { cookie, "sec-fetch-site": "same-origin" };
    const info = await rawCall(page, "get_session_info", { session_id: world.sessionId });
    expect(info.status).toBe(200);
    expect(info.body.result?.isError).toBeUndefined();
    expect(info.body.result?.content?.[0]?.text).toContain(world.sessionId);
    const query = await rawCall(page, "query_graph", { session_id: world.sessionId, gfql_operations: '[{"type": "Node"}]' });
    expect(JSON.parse(query.body.result?.content?.[0]?.text ?? "{}")).toMatchObject({ node_count: 5 });
    // An older browser without Sec-Fetch-Site: its Origin names this site.
    const origin = await rawCall({ cookie, origin: world.base }, "list_collections", { session_id: world.sessionId });
    expect(origin.status).toBe(200);
    // list_sessions: carol's own sessions on the granted dataset.
    const mine = await rawCall(page, "list_sessions", {});
    const listed = JSON.parse(mine.body.result?.content?.[0]?.text ?? "{}") as { sessions: { session_id: string }[] };
    expect(listed.sessions.map((s) => s.session_id)).toEqual([carolSession]);

    // Write tools: refused on alice's session (not the owner) and on carol's own (the grant reads only).
    const write = await rawCall(page, "create_collection", { session_id: world.sessionId, name: "x", gfql_operations: "[]" });
    expect([write.status, write.body.error?.code]).toEqual([403, -32002]);
    const ownWrite = await rawCall(page, "create_collection", {
      session_id: carolSession,
      name: "x",
      gfql_operations: '[{"type": "Node"}]',
    });
    expect([ownWrite.status, ownWrite.body.error?.code]).toEqual([403, -32002]);
    // Another dataset (public, but outside the grant): refused.
    const elsewhere = await rawCall(page, "get_session_info", { session_id: world.longSessionId });
    expect([elsewhere.status, elsewhere.body.error?.code]).toEqual([403, -32002]);
  });

  it("ignores the cookie when another site's page sends it, and every browser session but a single-use link's", async () => {
    const foreigners: Record<string, string>[] = [{ "sec-fetch-site": "cross-site" }, { "sec-fetch-site": "same-site" }, {}];
    for (const foreign of foreigners) {
      const answer = await rawCall({ cookie, ...foreign }, "get_session_info", { session_id: world.sessionId });
      expect([answer.status, answer.body.error?.code], JSON.stringify(foreign)).toEqual([401, -32001]);
    }
    // A foreign Origin: refused, by the origin check in front (403) or here (401), never run.
    const foreign = await rawCall({ cookie, origin: "https://evil.example" }, "get_session_info", { session_id: world.sessionId });
    expect([401, 403]).toContain(foreign.status);
    expect(foreign.body.result).toBeUndefined();
    // bob's ordinary browser session (he may view the session with a credential): no tools through a cookie.
    const signIn = await post("/graphql", {}, { query: `mutation { signIn(username: "bob", password: "bob-password") { token } }` });
    const bobCookie = `gw_session=${((await signIn.json()) as { data: { signIn: { token: string } } }).data.signIn.token}`;
    const bob = await rawCall({ cookie: bobCookie, "sec-fetch-site": "same-origin" }, "get_session_info", { session_id: world.sessionId });
    expect([bob.status, bob.body.error?.code]).toEqual([401, -32001]);
  });

  it("gives the viewer a read-only bearer token for an assistant, whose scope is exactly the grant", async () => {
    const granted = await grantTokenFor(cookie);
    expect(granted.status).toBe(200);
    expect(granted.body.dataset_id).toBe(world.datasetId);
    grantToken = String(granted.body.token);
    // It ends with the grant: its expiry is the grant's session's.
    const claims = JSON.parse(Buffer.from(grantToken.split(".")[1] ?? "", "base64url").toString()) as { exp: number };
    expect(claims.exp).toBe(Math.floor(Date.parse(String(granted.body.expires_at)) / 1000));

    const assistant = await connect(grantToken);
    expect((await assistant.listTools()).tools).toHaveLength(9);
    expect(await textOf(assistant, "get_session_info", { session_id: world.sessionId })).toContain(world.sessionId);
    const rows = JSON.parse(
      await textOf(assistant, "query_graph", { session_id: world.sessionId, gfql_operations: '[{"type": "Node"}]', output_type: "nodes" }),
    ) as { nodes: unknown[] };
    expect(rows.nodes).toHaveLength(5);
    expect(JSON.parse(await textOf(assistant, "list_collections", { session_id: world.sessionId }))).toHaveProperty("collections");
    expect(JSON.parse(await textOf(assistant, "list_sessions", {}))).toMatchObject({ count: 1, sessions: [{ session_id: carolSession }] });

    // Write tools, even on the viewer's own session, and other datasets: refused.
    await expect(
      assistant.callTool({
        name: "create_collection",
        arguments: { session_id: carolSession, name: "x", gfql_operations: '[{"type": "Node"}]' },
      }),
    ).rejects.toThrow(/403|-32002/);
    await expect(assistant.callTool({ name: "reset_collections", arguments: { session_id: world.sessionId } })).rejects.toThrow(
      /403|-32002/,
    );
    await expect(assistant.callTool({ name: "get_session_info", arguments: { session_id: world.longSessionId } })).rejects.toThrow(
      /403|-32002/,
    );

    // The same token elsewhere: reads of its dataset, nothing else; never refreshed into a wider one.
    const bearer = { authorization: `Bearer ${grantToken}` };
    const gql = async (query: string, variables: Record<string, unknown> = {}) =>
      (await (await post("/graphql", bearer, { query, variables })).json()) as {
        data?: unknown;
        errors?: { extensions?: { code?: string } }[];
      };
    expect((await gql(`query($id: ID!) { vizSession(id: $id) { id } }`, { id: world.sessionId })).errors).toBeUndefined();
    expect((await gql(`query($d: ID!) { dataset(id: $d) { id } }`, { d: world.datasetId })).errors?.[0]?.extensions?.code).toBe(
      "FORBIDDEN",
    );
    expect(
      (await gql(`mutation($d: ID!) { openVizSession(datasetId: $d) { id } }`, { d: world.datasetId })).errors?.[0]?.extensions?.code,
    ).toBe("FORBIDDEN");
    expect((await gql(`mutation { createPersonalKey(name: "k") { credential } }`)).errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    const refreshed = await post("/api-token-refresh/", {}, { token: grantToken });
    expect(refreshed.status).toBe(403);
    // A grant's token does not mint tokens, and neither do other callers.
    expect((await post("/api/v2/auth/grant-token/", bearer, {})).status).toBe(403);
    expect((await post("/api/v2/auth/grant-token/", { authorization: `Bearer ${world.tokens.bob}` }, {})).status).toBe(403);
    expect((await post("/api/v2/auth/grant-token/", {}, {})).status).toBe(401);
    // Only a JSON POST carries the cookie (a form another site could send does not).
    const form = await fetch(`${world.base}/api/v2/auth/grant-token/`, {
      method: "POST",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
      body: "",
    });
    expect(form.status).toBe(401);
  });

  it("ends the token with the grant: on sign-out, and on a forced logout of the user", async () => {
    // Sign-out of the browser ends its grant, and the token with it.
    const second = await signInByLink();
    const token = String((await grantTokenFor(second)).body.token);
    const assistant = await connect(token);
    expect(await textOf(assistant, "get_session_info", { session_id: world.sessionId })).toContain(world.sessionId);
    await post("/graphql", { cookie: second }, { query: "mutation { signOut }" });
    await expect(assistant.callTool({ name: "get_session_info", arguments: { session_id: world.sessionId } })).rejects.toThrow(
      /401|-32001/,
    );

    // A forced logout of carol ends the first grant's cookie and token at once.
    const before = await rawCall({ authorization: `Bearer ${grantToken}` }, "get_session_info", { session_id: world.sessionId });
    expect(before.status).toBe(200);
    const logout = await fetch(`${world.base}/api/v2/logout-user/carol/`, { headers: { authorization: `Bearer ${world.tokens.admin}` } });
    expect(logout.status).toBe(200);
    const after = await rawCall({ authorization: `Bearer ${grantToken}` }, "get_session_info", { session_id: world.sessionId });
    expect([after.status, after.body.error?.code]).toEqual([401, -32001]);
    const page = await rawCall({ cookie, "sec-fetch-site": "same-origin" }, "get_session_info", { session_id: world.sessionId });
    expect(page.status).toBe(401);
    expect((await grantTokenFor(cookie)).status).toBe(401);
  });
});
