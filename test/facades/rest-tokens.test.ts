// The token routes of spec 4.1 and the client aliases, on SQLite and on Postgres.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROVIDERS } from "../helpers/databases.ts";
import { ADMIN, createTestGateway, type TestGateway } from "../helpers/gateway.ts";

const CREATE_USER = `mutation($input: CreateUserInput!) { createUser(input: $input) { id } }`;
const CREATE_KEY = `mutation { createPersonalKey(name: "test") { credential key { id } } }`;

describe.each(PROVIDERS)("token routes on %s", (provider) => {
  let gw: TestGateway;
  let adminToken: string;

  beforeAll(async () => {
    gw = await createTestGateway(provider);
    adminToken = await gw.login();
    const created = await gw.graphql(
      CREATE_USER,
      { input: { username: "alice", password: "alice-password", email: "a@example.com", org: "acme" } },
      adminToken,
    );
    expect(created.body.errors).toBeUndefined();
  });
  afterAll(() => gw?.close());

  it("logs in at api-token-auth/ with token, pk and user", async () => {
    const { status, body } = await gw.json("/api-token-auth/", { method: "POST", json: { username: "alice", password: "alice-password" } });
    expect(status).toBe(200);
    expect(typeof body.token).toBe("string");
    expect(body.pk).toEqual(expect.any(Number));
    expect(body.user).toEqual({ name: "", username: "alice", email: "a@example.com", id: body.pk });
  });

  it("logs in at the JS client's api/v2/auth/token/generate with the same answer", async () => {
    const { status, body } = await gw.json("/api/v2/auth/token/generate", {
      method: "POST",
      json: { username: "alice", password: "alice-password" },
    });
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(["pk", "token", "user"]);
  });

  it("accepts form-encoded credentials as DRF does", async () => {
    const response = await gw.request("/api-token-auth/", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "username=alice&password=alice-password",
    });
    expect(response.status).toBe(200);
  });

  it("reports the active organization when org_name is given, and refuses a foreign one", async () => {
    const ok = await gw.json("/api-token-auth/", {
      method: "POST",
      json: { username: "alice", password: "alice-password", org_name: "acme" },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.active_organization).toEqual({ slug: "acme", is_found: true, is_member: true });
    const foreign = await gw.json("/api-token-auth/", {
      method: "POST",
      json: { username: "alice", password: "alice-password", org_name: "other" },
    });
    expect(foreign.status).toBe(403);
  });

  it("answers wrong password, unknown user and disabled user alike", async () => {
    await gw.graphql(CREATE_USER, { input: { username: "dora", password: "dora-password" } }, adminToken);
    const dora = await gw.graphql<{ user: { id: number } }>(`{ users(limit: 100) { items { id username } } }`, {}, adminToken);
    const doraId = (dora.body.data as unknown as { users: { items: { id: number; username: string }[] } }).users.items.find(
      (u) => u.username === "dora",
    )?.id;
    await gw.graphql(`mutation($id: Int!) { updateUser(id: $id, input: { isActive: false }) { id } }`, { id: doraId }, adminToken);
    const answers = await Promise.all([
      gw.json("/api-token-auth/", { method: "POST", json: { username: "alice", password: "wrong-password" }, address: "10.0.0.1" }),
      gw.json("/api-token-auth/", { method: "POST", json: { username: "nobody", password: "wrong-password" }, address: "10.0.0.2" }),
      gw.json("/api-token-auth/", { method: "POST", json: { username: "dora", password: "dora-password" }, address: "10.0.0.3" }),
    ]);
    for (const answer of answers) {
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual(answers[0]?.body);
    }
  });

  it("names the problem in bad request bodies", async () => {
    const missing = await gw.json("/api-token-auth/", { method: "POST", json: { username: "alice" } });
    expect(missing.status).toBe(400);
    expect((missing.body.error as { details: { field: string } }).details.field).toBe("password");
    const malformed = await gw.json("/api-token-auth/", {
      method: "POST",
      body: "{not json",
      headers: { "content-type": "application/json" },
    });
    expect(malformed.status).toBe(400);
    expect((malformed.body.error as { code: string }).code).toBe("INVALID_INPUT");
    const wrongType = await gw.json("/api-token-auth/", { method: "POST", body: "<xml/>", headers: { "content-type": "application/xml" } });
    expect(wrongType.status).toBe(400);
    const wrongField = await gw.json("/api-token-auth/", { method: "POST", json: { username: 5, password: "x" } });
    expect(wrongField.status).toBe(400);
    const array = await gw.json("/api-token-auth/", { method: "POST", json: [1, 2] });
    expect(array.status).toBe(400);
  });

  it("refuses bodies over the limit with 413", async () => {
    const { status, body } = await gw.json("/api-token-auth/", {
      method: "POST",
      json: { username: "a".repeat(2_000_000), password: "x" },
    });
    expect(status).toBe(413);
    expect((body.error as { code: string }).code).toBe("PAYLOAD_TOO_LARGE");
  });

  it("refreshes at api-token-refresh/ and pygraphistry's api/v2/auth/token/refresh", async () => {
    const token = await gw.login("alice", "alice-password");
    for (const path of ["/api-token-refresh/", "/api/v2/auth/token/refresh"]) {
      const { status, body } = await gw.json<{ token: string }>(path, { method: "POST", json: { token } });
      expect(status).toBe(200);
      const check = await gw.json("/api-token-verify/", { method: "POST", json: { token: body.token } });
      expect(check.status).toBe(200);
    }
  });

  it("verifies tokens: 200 when valid, 401 with a reason when not", async () => {
    const token = await gw.login("alice", "alice-password");
    expect((await gw.request("/api-token-verify/", { method: "POST", json: { token } })).status).toBe(200);
    const forged = `${token.slice(0, -4)}AAAA`;
    const bad = await gw.json("/api-token-verify/", { method: "POST", json: { token: forged } });
    expect(bad.status).toBe(401);
    expect(bad.body.detail).toEqual(expect.any(String));
    expect((await gw.request("/api-token-verify/", { method: "POST", json: { token: "garbage" } })).status).toBe(401);
  });

  it("exchanges a personal key for a JWT by POST and by GET, with org_name in body or query", async () => {
    const alice = await gw.login("alice", "alice-password");
    const created = await gw.graphql<{ createPersonalKey: { credential: string } }>(CREATE_KEY, {}, alice);
    const credential = created.body.data?.createPersonalKey.credential ?? "";
    const headers = { authorization: `PersonalKey ${credential}` };
    const post = await gw.json<{ token: string }>("/api/v2/auth/pkey/jwt/", { method: "POST", headers });
    expect(post.status).toBe(200);
    expect((await gw.request("/api-token-verify/", { method: "POST", json: { token: post.body.token } })).status).toBe(200);
    const get = await gw.json("/api/v2/auth/pkey/jwt/?org_name=acme", { method: "GET", headers });
    expect(get.status).toBe(200);
    expect(get.body.active_organization).toEqual({ slug: "acme", is_found: true, is_member: true });
    const postOrg = await gw.json("/api/v2/auth/pkey/jwt/", { method: "POST", headers, json: { org_name: "acme" } });
    expect(postOrg.status).toBe(200);
    const wrong = await gw.json("/api/v2/auth/pkey/jwt/", { method: "POST", headers: { authorization: `PersonalKey ${credential}x` } });
    expect(wrong.status).toBe(401);
    const none = await gw.json("/api/v2/auth/pkey/jwt/", { method: "POST" });
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toContain("Bearer");
  });

  it("stops a revoked key, and the tokens minted from it", async () => {
    const alice = await gw.login("alice", "alice-password");
    const created = await gw.graphql<{ createPersonalKey: { credential: string; key: { id: string } } }>(CREATE_KEY, {}, alice);
    const { credential, key } = created.body.data?.createPersonalKey ?? { credential: "", key: { id: "" } };
    const minted = await gw.json<{ token: string }>("/api/v2/auth/pkey/jwt/", {
      method: "POST",
      headers: { authorization: `PersonalKey ${credential}` },
    });
    const revoked = await gw.graphql(`mutation($id: ID!) { revokePersonalKey(id: $id) { isActive } }`, { id: key.id }, alice);
    expect(revoked.body.data).toEqual({ revokePersonalKey: { isActive: false } });
    const again = await gw.json("/api/v2/auth/pkey/jwt/", { method: "POST", headers: { authorization: `PersonalKey ${credential}` } });
    expect(again.status).toBe(401);
    const verify = await gw.json("/api-token-verify/", { method: "POST", json: { token: minted.body.token } });
    expect(verify.status).toBe(401);
  });

  it("ends a deleted user's tokens", async () => {
    await gw.graphql(CREATE_USER, { input: { username: "eve", password: "eve-password" } }, adminToken);
    const eve = await gw.login("eve", "eve-password");
    const me = await gw.graphql<{ me: { id: number } }>(`{ me { id } }`, {}, eve);
    const eveId = me.body.data?.me.id;
    await gw.graphql(`mutation($id: Int!) { deleteUser(id: $id) }`, { id: eveId }, adminToken);
    expect((await gw.request("/api-token-verify/", { method: "POST", json: { token: eve } })).status).toBe(401);
    expect((await gw.request("/api-token-refresh/", { method: "POST", json: { token: eve } })).status).toBe(401);
  });

  it("answers 401 on protected operations without or with bad credentials", async () => {
    const anonymous = await gw.graphql(`{ myPersonalKeys { id } }`);
    expect(anonymous.body.errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
    const bad = await gw.graphql(`{ myPersonalKeys { id } }`, {}, "not-a-token");
    expect(bad.body.errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
    const switched = await gw.json("/api/v2/o/acme/switch/", { method: "POST" });
    expect(switched.status).toBe(401);
  });

  it("keeps user administration to admins", async () => {
    const alice = await gw.login("alice", "alice-password");
    const denied = await gw.graphql(`{ users { count } }`, {}, alice);
    expect(denied.body.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    const allowed = await gw.graphql<{ users: { count: number } }>(`{ users { count } }`, {}, adminToken);
    expect(allowed.body.data?.users.count).toBeGreaterThanOrEqual(2);
    expect(ADMIN.username).toBe("admin");
  });

  it("answers unknown routes with a JSON 404 and wrong methods with 405", async () => {
    const missing = await gw.json("/api/v2/nothing-here/");
    expect(missing.status).toBe(404);
    expect((missing.body.error as { code: string }).code).toBe("NOT_FOUND");
    const slash = await gw.json("/api-token-auth", { method: "POST", json: {} });
    expect(slash.status).toBe(404);
    const method = await gw.request("/api-token-auth/", { method: "GET" });
    expect(method.status).toBe(405);
    expect(method.headers.get("allow")).toBe("POST");
  });
});

describe("token refresh window", () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await createTestGateway("sqlite", { TOKEN_REFRESH_WINDOW_SECONDS: "1" });
  });
  afterAll(() => gw?.close());

  it("refuses to refresh past the window with 401 and asks for full credentials", async () => {
    const token = await gw.login();
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const { status, body } = await gw.json("/api/v2/auth/token/refresh", { method: "POST", json: { token } });
    expect(status).toBe(401);
    expect((body.error as { code: string }).code).toBe("TOKEN_EXPIRED");
    // pygraphistry re-logs in when non_field_errors says exactly this.
    expect(body.non_field_errors).toEqual(["Token has expired."]);
    // The token itself is still valid for other calls until it expires.
    expect((await gw.request("/api-token-verify/", { method: "POST", json: { token } })).status).toBe(200);
  });
});

describe("token lifetime", () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await createTestGateway("sqlite", { TOKEN_TTL_SECONDS: "1" });
  });
  afterAll(() => gw?.close());

  it("expires tokens after the configured lifetime", async () => {
    const token = await gw.login();
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const { status, body } = await gw.json("/api-token-verify/", { method: "POST", json: { token } });
    expect(status).toBe(401);
    expect((body.error as { code: string }).code).toBe("TOKEN_EXPIRED");
  });
});
