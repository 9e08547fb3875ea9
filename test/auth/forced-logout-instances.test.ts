// Forced logout (api/v2/logout-user/<username>/) across two gateway instances on one Postgres database with Redis:
// the user's JWTs, browser sessions, single-use links and their sessions, and live-session presence end at once on
// both, although each instance caches principals for a minute (AUTH_CACHE_SECONDS=60).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/config.ts";
import { createGateway, type Gateway } from "../../src/server/gateway.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";
import { ADMIN } from "../helpers/gateway.ts";

type Instance = {
  gateway: Gateway;
  request(path: string, init?: RequestInit & { json?: unknown }): Promise<Response>;
};

function instanceOf(gateway: Gateway): Instance {
  return {
    gateway,
    request(path, init = {}) {
      const { json, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (json !== undefined) headers.set("content-type", "application/json");
      const body = json !== undefined ? JSON.stringify(json) : rest.body;
      return gateway.fetch(new Request(`http://gateway.test${path}`, { ...rest, headers, ...(body !== undefined ? { body } : {}) }), {
        clientAddress: "127.0.0.1",
      });
    },
  };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe("forced logout on two instances (Postgres, Redis)", () => {
  let database: TestDatabase;
  let a: Instance;
  let b: Instance;
  let admin = "";
  let datasetId = "";

  async function login(on: Instance, username: string, password: string): Promise<string> {
    const response = await on.request("/api-token-auth/", { method: "POST", json: { username, password } });
    expect(response.status).toBe(200);
    return ((await response.json()) as { token: string }).token;
  }
  async function graphql(on: Instance, headers: Record<string, string>, query: string, variables: Record<string, unknown> = {}) {
    const response = await on.request("/graphql", { method: "POST", headers, json: { query, variables } });
    return {
      status: response.status,
      body: (await response.json()) as { data?: Record<string, never>; errors?: { extensions: { code: string } }[] },
    };
  }
  const me = async (on: Instance, token: string) => (await graphql(on, bearer(token), "{ me { username } }")).status;

  beforeAll(async () => {
    database = await createTestDatabase("postgres");
    const env = {
      ...database.env,
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      REDIS_URL: "redis://127.0.0.1:6379",
      AUTH_CACHE_SECONDS: "60",
      COOKIE_SECURE: "false",
      LOG_LEVEL: "silent",
    };
    a = instanceOf(await createGateway(loadConfig(env)));
    b = instanceOf(await createGateway(loadConfig(env)));
    admin = await login(a, ADMIN.username, ADMIN.password);
    for (const username of ["guest", "bob"]) {
      await graphql(a, bearer(admin), "mutation($i: CreateUserInput!) { createUser(input: $i) { id } }", {
        i: { username, password: `${username}-password` },
      });
    }
    const file = (await (
      await a.request("/api/v2/files/", { method: "POST", headers: bearer(admin), json: { file_type: "csv" } })
    ).json()) as {
      file_id: string;
    };
    await a.request(`/api/v2/upload/files/${file.file_id}`, { method: "POST", headers: bearer(admin), body: "s,d\na,b\nb,c\n" });
    const created = await a.request("/api/v2/upload/datasets/", {
      method: "POST",
      headers: bearer(admin),
      json: {
        name: "g",
        metadata: {},
        node_encodings: { bindings: {} },
        edge_encodings: { bindings: { source: "s", destination: "d" } },
        edge_files: [file.file_id],
      },
    });
    datasetId = ((await created.json()) as { data: { dataset_id: string } }).data.dataset_id;
    // Public, so the guest's own sign-in may open it too.
    await a.request("/api/v2/share/link/", {
      method: "POST",
      headers: bearer(admin),
      json: { obj_pk: datasetId, obj_type: "dataset", mode: "public", notify: false, invited_users: [], mode_action: "10" },
    });
  }, 60_000);

  afterAll(async () => {
    await a?.gateway.close();
    await b?.gateway.close();
    await database?.drop();
  });

  it("is for admins only, and names an unknown user", async () => {
    const bob = await login(b, "bob", "bob-password");
    expect((await b.request("/api/v2/logout-user/guest/", { headers: bearer(bob) })).status).toBe(403);
    expect((await b.request("/api/v2/logout-user/guest/")).status).toBe(401);
    const unknown = await b.request("/api/v2/logout-user/nobody/", { headers: bearer(admin) });
    expect(unknown.status).toBe(404);
    expect(JSON.stringify(await unknown.json())).toContain("nobody");
  });

  it("ends the user's tokens, browser sessions, single-use links and presence on both instances at once", async () => {
    // The guest's JWT (cached as good on both instances), a browser session on B, a live session they own on A,
    // a single-use link not yet opened and the session of one already opened.
    const token = await login(a, "guest", "guest-password");
    expect(await me(a, token)).toBe(200);
    expect(await me(b, token)).toBe(200);
    const form = new URLSearchParams({ username: "guest", password: "guest-password", next: "/" });
    const signedIn = await b.request("/login", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: form.toString(),
    });
    const cookie = /^(gw_session=[^;]+)/.exec(signedIn.headers.get("set-cookie") ?? "")?.[1] ?? "";
    expect(cookie).not.toBe("");
    const opened = await graphql(a, bearer(token), "mutation($d: ID!) { openVizSession(datasetId: $d) { id } }", { d: datasetId });
    const sessionId = (opened.body.data as unknown as { openVizSession: { id: string } }).openVizSession.id;
    const links: string[] = [];
    for (let i = 0; i < 2; i += 1) {
      const issued = await a.request(`/api/v2/generate/single-use-url/?username=guest&dataset_id=${datasetId}`, { headers: bearer(admin) });
      const url = new URL(((await issued.json()) as { single_use_url: string }).single_use_url);
      links.push(`${url.pathname}${url.search}`);
    }
    const granted = await b.request(links[0] ?? "");
    expect(granted.status).toBe(303);
    const grantCookie = /^(gw_session=[^;]+)/.exec(granted.headers.get("set-cookie") ?? "")?.[1] ?? "";
    expect((await b.request(`/graph/graph.html?dataset=${datasetId}`, { headers: { cookie: grantCookie } })).status).toBe(302);
    const { db } = a.gateway.services;
    // The guest's page is connected to B as the session's owner (its subscription keeps them present).
    const guestId = (await db.user.findUniqueOrThrow({ where: { username: "guest" } })).id;
    const guest = {
      userId: guestId,
      username: "guest",
      isAdmin: false,
      assistantEnabled: true,
      via: "jwt" as const,
      keyId: undefined,
      loginAt: 0,
      org: undefined,
    };
    const ownerPage = await b.gateway.services.sessions.ownerPresence(
      guest,
      sessionId,
      b.gateway.services.pubsub.subscribe("vizSession:changed", sessionId),
    );
    expect((await db.vizSession.findUniqueOrThrow({ where: { id: sessionId } })).ownerSeenAt).not.toBeNull();

    const logout = await a.request("/api/v2/logout-user/guest/", { headers: bearer(admin) });
    expect(logout.status).toBe(200);
    expect(await logout.json()).toEqual({ status: "OK", username: "guest" });

    // At once, on both: the JWT is refused (B had it cached as good for a minute).
    expect(await me(a, token)).toBe(401);
    expect(await me(b, token)).toBe(401);
    expect((await b.request("/api-token-verify/", { method: "POST", json: { token } })).status).toBe(401);
    // The browser sessions, the password one and the one the link gave, are gone.
    const page = await a.request(`/graph/graph.html?dataset=${datasetId}`, { headers: { cookie } });
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toMatch(/^\/login\?next=/);
    const grantPage = await b.request(`/graph/graph.html?dataset=${datasetId}`, { headers: { cookie: grantCookie } });
    expect(grantPage.headers.get("location")).toMatch(/^\/login\?next=/);
    // The link not yet opened no longer opens; presence is cleared.
    expect((await a.request(links[1] ?? "")).status).toBe(403);
    expect(await db.singleUseLink.count()).toBe(0);
    expect((await db.vizSession.findUniqueOrThrow({ where: { id: sessionId } })).ownerSeenAt).toBeNull();
    // B closed the owner page's subscription: it stops marking them present. (Bounded: CI once saw this test run
    // past its 30 s limit, and this is its one wait that nothing else bounds.)
    const closed = await Promise.race([
      ownerPage.next(),
      new Promise((resolve) => setTimeout(() => resolve("B had not closed the owner page's subscription 10 s later"), 10_000)),
    ]);
    expect(closed).toEqual({ done: true, value: undefined });

    // Other users are untouched; the guest signs in again afterwards and is served by both.
    expect(await me(b, admin)).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const fresh = await login(b, "guest", "guest-password");
    expect(await me(a, fresh)).toBe(200);
    expect(await me(b, fresh)).toBe(200);
  });
});
