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
    let keyId = "";
    const event = await firstEvent(a.url, token, "subscription { personalKeyEvents { kind keyId } }", async () => {
      keyId = (await post(b.url, "/graphql", { query: "mutation { createPersonalKey { key { id } } }" }, bearer(token))).body.data
        .createPersonalKey.key.id;
    });
    expect(event).toEqual({ data: { personalKeyEvents: { kind: "CREATED", keyId } } });
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
});
