// The same sources under Deno 2: `deno task start` answers health checks, logins, GET bodies, graphql-ws.
import { request as httpRequest } from "node:http";
import { createClient } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";
import { ADMIN } from "../helpers/gateway.ts";
import { findDeno, type ServerProcess, startServer } from "../helpers/server-process.ts";

// CI installs Deno (.ci/run); elsewhere the suite says plainly that it was skipped.
const deno = findDeno();
if (!deno && process.env.CI) throw new Error("CI must provide Deno (.tools/ or DENO_BIN)");

async function post(base: string, path: string, body: unknown, token?: string) {
  const response = await fetch(`${base}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return (await response.json()) as Record<string, never>;
}

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
    const body = JSON.stringify({ org_name: "dorg" });
    const answer = await new Promise<Record<string, unknown>>((resolve, reject) => {
      const req = httpRequest(
        `${server.url}/api/v2/auth/pkey/jwt/`,
        {
          method: "GET",
          headers: {
            authorization: `PersonalKey ${key.data.createPersonalKey.credential}`,
            "content-type": "application/json",
            "content-length": String(body.length),
          },
        },
        (res) => {
          let text = "";
          res.on("data", (chunk) => {
            text += chunk;
          });
          res.on("end", () => resolve(JSON.parse(text)));
        },
      );
      req.on("error", reject);
      req.end(body);
    });
    expect(answer.active_organization).toEqual({ slug: "dorg", is_found: true, is_member: true });
  });

  it("delivers graphql-ws subscriptions", async () => {
    const client = createClient({
      url: `${server.url.replace("http", "ws")}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${token}` },
    });
    const received = new Promise<unknown>((resolve, reject) => {
      client.subscribe({ query: "subscription { personalKeyEvents { kind } }" }, { next: resolve, error: reject, complete: () => {} });
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await post(server.url, "/graphql", { query: "mutation { createPersonalKey { key { id } } }" }, token);
    expect(await received).toEqual({ data: { personalKeyEvents: { kind: "CREATED" } } });
    await client.dispose();
  });

  it("drains and exits 0 on SIGTERM", async () => {
    expect(await server.stop("SIGTERM")).toBe(0);
  });
});
