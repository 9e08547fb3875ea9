// The same sources under Deno 2: `deno task start` answers health checks, logins and GraphQL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";
import { ADMIN } from "../helpers/gateway.ts";
import { findDeno, type ServerProcess, startServer } from "../helpers/server-process.ts";

// CI installs Deno (.ci/run); elsewhere the suite says plainly that it was skipped.
const deno = findDeno();
if (!deno && process.env.CI) throw new Error("CI must provide Deno (.tools/ or DENO_BIN)");

describe.skipIf(!deno)("deno task start", () => {
  let db: TestDatabase;
  let server: ServerProcess;

  beforeAll(async () => {
    db = await createTestDatabase("sqlite");
    server = await startServer({ ...db.env, ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password }, "deno");
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
    const login = await fetch(`${server.url}/api-token-auth/`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(ADMIN),
    });
    expect(login.status).toBe(200);
    const { token } = (await login.json()) as { token: string };
    const me = await fetch(`${server.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ query: "{ me { username isAdmin } }" }),
    });
    expect(await me.json()).toEqual({ data: { me: { username: "admin", isAdmin: true } } });
  });
});
