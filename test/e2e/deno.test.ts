// The same sources under Deno 2: `deno task start` answers health checks, logins, GET bodies, graphql-ws.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";
import { ADMIN } from "../helpers/gateway.ts";
import { bearer, firstEvent, getWithBody, postJson } from "../helpers/http.ts";
import { findDeno, type ServerProcess, startServer } from "../helpers/server-process.ts";

// npm ci installs Deno (the `deno` devDependency); without it the suite says plainly that it was skipped.
const deno = findDeno();
if (!deno && process.env.CI) throw new Error("CI must provide Deno (node_modules/.bin/deno from npm ci, or DENO_BIN)");

const post = async (base: string, path: string, body: unknown, token?: string) =>
  (await postJson(base, path, body, token ? bearer(token) : {})).body;

describe.skipIf(!deno)("deno task start", () => {
  let db: TestDatabase;
  let server: ServerProcess;
  let token: string;

  beforeAll(async () => {
    db = await createTestDatabase("sqlite");
    server = await startServer({ ...db.env, ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password }, "deno");
    token = String((await post(server.url, "/api-token-auth/", ADMIN)).token);
  }, 90_000);
  afterAll(async () => {
    await server?.stop("SIGKILL");
    await db?.drop();
  });

  it("answers healthz", async () => {
    const response = await fetch(`${server.url}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: "ok" });
  });

  it("logs in and serves GraphQL with the token", async () => {
    expect(await post(server.url, "/graphql", { query: "{ me { username isAdmin } }" }, token)).toEqual({
      data: { me: { username: "admin", isAdmin: true } },
    });
  });

  it("reads org_name from the body of a GET to api/v2/auth/pkey/jwt/", async () => {
    await post(
      server.url,
      "/graphql",
      { query: 'mutation { createUser(input: {username: "d", password: "d-password", org: "dorg"}) { id } }' },
      token,
    );
    const userToken = String((await post(server.url, "/api-token-auth/", { username: "d", password: "d-password" })).token);
    const key = (await post(server.url, "/graphql", { query: "mutation { createPersonalKey { credential } }" }, userToken)) as unknown as {
      data: { createPersonalKey: { credential: string } };
    };
    const answer = (
      await getWithBody(`${server.url}/api/v2/auth/pkey/jwt/`, JSON.stringify({ org_name: "dorg" }), {
        authorization: `PersonalKey ${key.data.createPersonalKey.credential}`,
      })
    ).body;
    expect(answer.active_organization).toEqual({ slug: "dorg", is_found: true, is_member: true });
  });

  it("delivers graphql-ws subscriptions", async () => {
    const event = await firstEvent(server.url, token, "subscription { personalKeyEvents { kind } }", () =>
      post(server.url, "/graphql", { query: "mutation { createPersonalKey { key { id } } }" }, token),
    );
    expect(event).toEqual({ data: { personalKeyEvents: { kind: "CREATED" } } });
  });

  it("serves the /mcp tool endpoint through the MCP SDK client", async () => {
    const client = new Client({ name: "deno-check", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
    );
    expect((await client.listTools()).tools).toHaveLength(9);
    const listed = await client.callTool({ name: "list_sessions", arguments: {} });
    expect(JSON.parse((listed.content as { text: string }[])[0]?.text ?? "")).toEqual({ sessions: [], count: 0 });
    await client.close();
  });

  it("drains and exits 0 on SIGTERM", async () => {
    expect(await server.stop("SIGTERM")).toBe(0);
  });
});
