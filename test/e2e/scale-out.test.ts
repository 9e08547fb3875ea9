// Several gateway processes on one database: racing start-up, shared auth state, Redis fan-out.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, PROVIDERS, type TestDatabase } from "../helpers/databases.ts";
import { ADMIN } from "../helpers/gateway.ts";
import { bearer, firstEvent, postJson as post } from "../helpers/http.ts";
import { type ServerProcess, startServer } from "../helpers/server-process.ts";

describe.each(PROVIDERS)("two processes on one %s database with Redis", (provider) => {
  let db: TestDatabase;
  let servers: ServerProcess[] = [];

  beforeAll(async () => {
    db = await createTestDatabase(provider);
    const env = {
      ...db.env,
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      REDIS_URL: "redis://127.0.0.1:6379",
      AUTH_CACHE_SECONDS: "1",
    };
    // Started together: both migrate, both try to create the admin, both create the JWT secret.
    servers = await Promise.all([startServer(env), startServer(env)]);
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop("SIGKILL")));
    await db?.drop();
  });

  it("starts both, and a token from one is good on the other", async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const login = await post(a.url, "/api-token-auth/", ADMIN);
    expect(login.status).toBe(200);
    expect((await post(b.url, "/api-token-verify/", { token: login.body.token })).status).toBe(200);
    const users = await post(b.url, "/graphql", { query: "{ users { count } }" }, { authorization: `Bearer ${login.body.token}` });
    expect(users.body.data).toEqual({ users: { count: 1 } });
  });

  it("fans a subscription event out from one process to a client of the other", async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const token = String((await post(a.url, "/api-token-auth/", ADMIN)).body.token);
    const keyIds: string[] = [];
    const event = await firstEvent(a.url, token, "subscription { personalKeyEvents { kind keyId } }", async () => {
      keyIds.push(
        (await post(b.url, "/graphql", { query: "mutation { createPersonalKey { key { id } } }" }, bearer(token))).body.data
          .createPersonalKey.key.id,
      );
    });
    expect(event).toEqual({ data: { personalKeyEvents: { kind: "CREATED", keyId: expect.any(String) } } });
    expect(keyIds).toContain((event as { data: { personalKeyEvents: { keyId: string } } }).data.personalKeyEvents.keyId);
  });

  it("stops a key revoked on one process on the other within the auth cache TTL", async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const token = String((await post(a.url, "/api-token-auth/", ADMIN)).body.token);
    const created = await post(
      a.url,
      "/graphql",
      { query: "mutation { createPersonalKey { credential key { id } } }" },
      { authorization: `Bearer ${token}` },
    );
    const { credential, key } = (created.body.data as unknown as { createPersonalKey: { credential: string; key: { id: string } } })
      .createPersonalKey;
    const pkey = { authorization: `PersonalKey ${credential}` };
    expect((await post(b.url, "/api/v2/auth/pkey/jwt/", {}, pkey)).status).toBe(200);
    await post(
      a.url,
      "/graphql",
      { query: `mutation { revokePersonalKey(id: "${key.id}") { id } }` },
      { authorization: `Bearer ${token}` },
    );
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect((await post(b.url, "/api/v2/auth/pkey/jwt/", {}, pkey)).status).toBe(401);
  });

  it("serves an MCP session on either process, and publishes its collection to the owner's page on the other", async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const token = String((await post(a.url, "/api-token-auth/", ADMIN)).body.token);
    const auth = bearer(token);
    const file = (await post(b.url, "/api/v2/files/", { file_type: "json" }, auth)).body.file_id as string;
    await post(b.url, `/api/v2/upload/files/${file}?erase=true`, { s: ["a", "b"], d: ["b", "c"] }, auth);
    const dataset = await post(
      b.url,
      "/api/v2/upload/datasets/",
      {
        name: "g",
        metadata: {},
        node_encodings: { bindings: {} },
        edge_encodings: { bindings: { source: "s", destination: "d" } },
        edge_files: [file],
      },
      auth,
    );
    const datasetId = (dataset.body.data as { dataset_id: string }).dataset_id;
    const opened = await post(a.url, "/graphql", { query: `mutation { openVizSession(datasetId: "${datasetId}") { id } }` }, auth);
    const sessionId = (opened.body.data as { openVizSession: { id: string } }).openVizSession.id;
    // Initialized on a, used on b: the session is known through Redis, no sticky routing needed.
    const init = await fetch(`${a.url}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2024-11-05", capabilities: {}, clientInfo: { name: "t", version: "1" } },
      }),
    });
    const mcpSession = init.headers.get("mcp-session-id") ?? "";
    let answer: { status: number; body: Record<string, unknown> } = { status: 0, body: {} };
    const event = await firstEvent(a.url, token, `subscription { vizSessionChanged(id: "${sessionId}") { kind } }`, async () => {
      const call = {
        name: "create_collection",
        arguments: { session_id: sessionId, name: "from b", gfql_operations: '[{"type":"Node","filter_dict":{"node":"b"}}]' },
      };
      answer = await post(
        b.url,
        "/mcp",
        { jsonrpc: "2.0", id: 2, method: "tools/call", params: call },
        { ...auth, "mcp-session-id": mcpSession },
      );
    });
    expect(answer.status).toBe(200);
    expect(event).toEqual({ data: { vizSessionChanged: { kind: "COLLECTIONS" } } });
    const listed = await post(a.url, "/graphql", { query: `{ vizSession(id: "${sessionId}") { collections { name matchCount } } }` }, auth);
    // (one collection per run of the trigger: firstEvent runs it again when the event is slow to come)
    const collections = listed.body.data.vizSession.collections as unknown[];
    expect(collections.length).toBeGreaterThan(0);
    for (const collection of collections) expect(collection).toEqual({ name: "from b", matchCount: 1 });
    const toolsList = (url: string) => post(url, "/mcp", { jsonrpc: "2.0", id: 3, method: "tools/list" }, { "mcp-session-id": mcpSession });
    expect((await toolsList(a.url)).status).toBe(200);
    // Closed on b: gone on a too.
    expect((await fetch(`${b.url}/mcp`, { method: "DELETE", headers: { "mcp-session-id": mcpSession } })).status).toBe(200);
    const after = await toolsList(a.url);
    expect({ status: after.status, code: (after.body.error as { code: number }).code }).toEqual({ status: 404, code: -32000 });
  });
});
