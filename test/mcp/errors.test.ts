// Every row of spec 7's error table over raw HTTP: HTTP status and JSON-RPC code both; plus the transport's
// session life (initialize, header, notifications, event stream, DELETE, idle expiry).
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createMcpFacade } from "../../facades/mcp/app.ts";
import { main } from "../../src/cli/main.ts";
import { loadConfig } from "../../src/config/config.ts";
import { createMcpWorld, type McpWorld } from "./setup.ts";

type Answer = {
  status: number;
  headers: Headers;
  body: { id?: unknown; result?: Record<string, unknown>; error?: { code: number; message: string } };
};

const INIT = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2024-11-05", capabilities: {}, clientInfo: { name: "curl", version: "1" } },
};

describe("tool endpoint errors and transport sessions over raw HTTP", () => {
  let world: McpWorld;
  let closePage: () => Promise<void>;

  const send = async (body: unknown, headers: Record<string, string> = {}, method = "POST"): Promise<Answer> => {
    const response = await fetch(world.url, {
      method,
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      ...(method === "POST" ? { body: typeof body === "string" ? body : JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : {} };
  };
  const initialize = async () => {
    const answer = await send(INIT);
    expect(answer.status).toBe(200);
    return answer.headers.get("mcp-session-id") ?? "";
  };
  const callTool = async (name: string, args: Record<string, unknown>, credential?: string, session?: string) => {
    const id = session ?? (await initialize());
    const headers: Record<string, string> = { "mcp-session-id": id };
    if (credential) headers.authorization = credential;
    return send({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name, arguments: args } }, headers);
  };
  const expectFailure = (answer: Answer, status: number, code: number) => {
    expect({ status: answer.status, code: answer.body.error?.code }).toEqual({ status, code });
    expect(answer.body.error?.message).toBeTruthy();
  };

  beforeAll(async () => {
    // A 1 s idle expiry and a 1 ms tool time limit: every check here happens before a tool would run.
    // account state is cached for a second here, so a change made from the command line shows within it
    world = await createMcpWorld({ MCP_IDLE_SECONDS: "1", MCP_TOOL_TIMEOUT_MS: "1", AUTH_CACHE_SECONDS: "1" });
    closePage = await world.openOwnerPage();
  });
  afterAll(async () => {
    await closePage?.();
    await world?.close();
  });

  it("initialize answers the protocol version, capabilities and instructions, and sets mcp-session-id", async () => {
    const answer = await send(INIT);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("mcp-session-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(answer.body.result).toMatchObject({ protocolVersion: "2024-11-05", capabilities: { tools: {} } });
    expect(String(answer.body.result?.instructions)).toContain("gfql_operations");
  });

  it("400 -32700: a body that is not JSON, or not JSON-RPC", async () => {
    expectFailure(await send("{not json"), 400, -32700);
    expectFailure(await send({ hello: "world" }), 400, -32700);
  });

  it("400 -32000: tools/list without mcp-session-id; with it, nine tools", async () => {
    expectFailure(await send({ jsonrpc: "2.0", id: 2, method: "tools/list" }), 400, -32000);
    const listed = await send({ jsonrpc: "2.0", id: 2, method: "tools/list" }, { "mcp-session-id": await initialize() });
    expect(listed.status).toBe(200);
    expect(listed.body.result?.tools).toHaveLength(9);
  });

  it("400 -32602: arguments that fail the tool's schema", async () => {
    const key = `Bearer ${world.keys.alice}`;
    expectFailure(await callTool("get_session_info", {}, key), 400, -32602);
    expectFailure(await callTool("get_session_info", { session_id: world.sessionId, extra: 1 }, key), 400, -32602);
    const nulled = await callTool("update_collection", { session_id: world.sessionId, collection_id: "c1", name: null }, key);
    expectFailure(nulled, 400, -32602);
    expect(nulled.body.error?.message).toMatch(/omit/);
    expectFailure(
      await callTool("create_collection", { session_id: world.sessionId, name: "x", gfql_operations: "[]", node_color: "blue" }, key),
      400,
      -32602,
    );
  });

  it("401 -32001 with WWW-Authenticate: no credential, a bad one, a revoked key; list needs none", async () => {
    const none = await callTool("list_sessions", {});
    expectFailure(none, 401, -32001);
    expect(none.headers.get("www-authenticate")).toMatch(/^Bearer /);
    expectFailure(await callTool("list_sessions", {}, "Bearer nope:nope"), 401, -32001);
    expectFailure(await callTool("list_sessions", {}, "Bearer not.a.jwt"), 401, -32001);
    const made = await world.gql<{ createPersonalKey: { credential: string; key: { id: string } } }>(
      `mutation { createPersonalKey(name: "short-lived") { credential key { id } } }`,
      {},
      world.tokens.alice,
    );
    const credential = made.data?.createPersonalKey.credential ?? "";
    // The same key works with either scheme the reference names.
    expect((await callTool("list_sessions", {}, `PersonalKey ${credential}`)).status).toBe(200);
    await world.gql(
      `mutation($id: ID!) { revokePersonalKey(id: $id) { id } }`,
      { id: made.data?.createPersonalKey.key.id },
      world.tokens.alice,
    );
    expectFailure(await callTool("list_sessions", {}, `Bearer ${credential}`), 401, -32001);
  });

  it("403 -32003: the assistant feature switched off for the account from the command line", async () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    try {
      expect(await main(["user", "assistant", "--username", "bob", "--off"], loadConfig({ ...world.env, LOG_LEVEL: "silent" }))).toBe(0);
      // the command line is another process's change: the server sees it once its cached account state expires
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      expectFailure(await callTool("get_session_info", { session_id: world.sessionId }, `Bearer ${world.keys.bob}`), 403, -32003);
      expect(await main(["user", "assistant", "--username", "bob", "--on"], loadConfig({ ...world.env, LOG_LEVEL: "silent" }))).toBe(0);
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      expect((await callTool("get_session_info", { session_id: world.sessionId }, `Bearer ${world.keys.bob}`)).status).toBe(200);
    } finally {
      log.mockRestore();
    }
  });

  it("403 -32003 at once when an administrator switches the feature off on this instance", async () => {
    const bob = await world.gql<{ users: { items: Array<{ id: number; username: string }> } }>(
      `query { users(limit: 100) { items { id username } } }`,
      {},
      world.tokens.admin,
    );
    const id = bob.data?.users.items.find((u) => u.username === "bob")?.id;
    const set = (on: boolean) =>
      world.gql(
        `mutation($id: Int!, $on: Boolean) { updateUser(id: $id, input: { assistantEnabled: $on }) { id } }`,
        { id, on },
        world.tokens.admin,
      );
    // a call first, so that bob's account state is cached
    expect((await callTool("get_session_info", { session_id: world.sessionId }, `Bearer ${world.keys.bob}`)).status).toBe(200);
    await set(false);
    try {
      expectFailure(await callTool("get_session_info", { session_id: world.sessionId }, `Bearer ${world.keys.bob}`), 403, -32003);
    } finally {
      await set(true);
    }
    expect((await callTool("get_session_info", { session_id: world.sessionId }, `Bearer ${world.keys.bob}`)).status).toBe(200);
  });

  it("403 -32002: a reader calling an owner tool, and someone with no access at all", async () => {
    const bob = `Bearer ${world.keys.bob}`;
    const refused = await callTool("reset_collections", { session_id: world.sessionId }, bob);
    expectFailure(refused, 403, -32002);
    expect(refused.body.error?.message).toMatch(/owner/);
    expectFailure(await callTool("get_session_info", { session_id: world.sessionId }, `Bearer ${world.tokens.carol}`), 403, -32002);
    expectFailure(await callTool("list_collections", { session_id: "no-such-session" }, bob), 403, -32002);
  });

  it("404 -32000: an unknown session id, a deleted one and an idle-expired one", async () => {
    expectFailure(await send({ jsonrpc: "2.0", id: 3, method: "tools/list" }, { "mcp-session-id": "not-a-session" }), 404, -32000);
    const deleted = await initialize();
    const closed = await fetch(world.url, { method: "DELETE", headers: { "mcp-session-id": deleted } });
    expect(closed.status).toBe(200);
    expectFailure(await send({ jsonrpc: "2.0", id: 3, method: "tools/list" }, { "mcp-session-id": deleted }), 404, -32000);
    const idle = await initialize();
    await new Promise((resolve) => setTimeout(resolve, 1_800));
    expectFailure(await send({ jsonrpc: "2.0", id: 3, method: "tools/list" }, { "mcp-session-id": idle }), 404, -32000);
  });

  it("410 -32004: the owner closed the visualization", async () => {
    await closePage();
    for (let i = 0; i < 100; i++) {
      const seen = await world.gql<{ vizSession: { ownerAvailable: boolean } }>(
        `query($id: ID!) { vizSession(id: $id) { ownerAvailable } }`,
        { id: world.sessionId },
        world.tokens.alice,
      );
      if (!seen.data?.vizSession.ownerAvailable) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expectFailure(await callTool("list_collections", { session_id: world.sessionId }, `Bearer ${world.keys.bob}`), 410, -32004);
    expectFailure(
      await callTool("query_graph", { session_id: world.sessionId, gfql_operations: "[]" }, `Bearer ${world.keys.alice}`),
      410,
      -32004,
    );
    closePage = await world.openOwnerPage();
  });

  it("504 -32005: a tool call past its time limit", async () => {
    const answer = await callTool(
      "query_graph",
      { session_id: world.sessionId, gfql_operations: JSON.stringify([{ type: "Node" }, { type: "Edge", hops: 3 }, { type: "Node" }]) },
      `Bearer ${world.keys.alice}`,
    );
    expectFailure(answer, 504, -32005);
    expect(answer.body.error?.message).toBe("Tool call timeout");
  });

  it("-32601: an unknown method or tool", async () => {
    const session = await initialize();
    const method = await send({ jsonrpc: "2.0", id: 4, method: "resources/teleport" }, { "mcp-session-id": session });
    expect(method.body.error?.code).toBe(-32601);
    const tool = await callTool("drop_database", {}, `Bearer ${world.keys.alice}`, session);
    expect(tool.body.error?.code).toBe(-32601);
  });

  it("notifications get 202; GET opens a stream that stays open", async () => {
    const session = await initialize();
    const note = await fetch(world.url, {
      method: "POST",
      headers: { "content-type": "application/json", "mcp-session-id": session },
      body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    });
    expect(note.status).toBe(202);
    const controller = new AbortController();
    const stream = await fetch(world.url, { headers: { "mcp-session-id": session }, signal: controller.signal });
    expect(stream.status).toBe(200);
    expect(stream.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const reader = stream.body?.getReader();
    const ended = reader?.read().then((r) => r.done);
    const still = await Promise.race([ended, new Promise((resolve) => setTimeout(() => resolve("open"), 500))]);
    expect(still).toBe("open");
    controller.abort();
    await ended?.catch(() => {});
    expectFailure(await send({ jsonrpc: "2.0", id: 5, method: "tools/list" }, {}, "GET"), 400, -32000);
  });
});

describe("tool endpoint failures of the core behind it", () => {
  const request = (body: unknown, headers: Record<string, string>) =>
    new Request("http://gateway.test/mcp", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      body: JSON.stringify(body),
    });
  const facadeWith = (execute: Parameters<typeof createMcpFacade>[0]["execute"]) =>
    createMcpFacade({ execute, idleMs: 60_000, toolTimeoutMs: 1_000, maxSessions: 10, maxBodyBytes: 1 << 20, onUnexpected: () => {} });
  const sessionOf = async (facade: ReturnType<typeof createMcpFacade>) =>
    (await facade.fetch(request(INIT, {}), { clientAddress: "t" })).headers.get("mcp-session-id") ?? "";
  const listCall = { jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "list_sessions", arguments: {} } };

  it("503 -32006 when the authorization check cannot complete", async () => {
    const facade = facadeWith(async () => {
      throw new Error("database unreachable");
    });
    const answer = await facade.fetch(request(listCall, { "mcp-session-id": await sessionOf(facade), authorization: "Bearer k:s" }), {
      clientAddress: "t",
    });
    expect(answer.status).toBe(503);
    expect(((await answer.json()) as { error: { code: number } }).error.code).toBe(-32006);
    await facade.close();
  });

  it("500 -32603 when the core answers something unexpected", async () => {
    const facade = facadeWith(async () => undefined as never);
    const answer = await facade.fetch(request(listCall, { "mcp-session-id": await sessionOf(facade), authorization: "Bearer k:s" }), {
      clientAddress: "t",
    });
    expect(answer.status).toBe(500);
    expect(((await answer.json()) as { error: { code: number } }).error.code).toBe(-32603);
    await facade.close();
  });
});
