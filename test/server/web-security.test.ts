// Browser-facing rules: CORS only for the service's own origin and CORS_ORIGINS, no state change from another site's
// page (the cookie that page's browser holds must not drive /graphql), no foreign WebSocket, safe `next` redirects,
// and security headers on the pages.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { safeNext } from "../../src/http/safe-next.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";
import { ADMIN, createTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { type ServerProcess, startServer } from "../helpers/server-process.ts";

const APP = "https://app.example.com";
const EVIL = "https://evil.example";

describe("origins and CORS (in-process gateway)", () => {
  let t: TestGateway;
  let cookie: string;
  beforeAll(async () => {
    t = await createTestGateway("sqlite", { CORS_ORIGINS: APP });
    const signIn = await t.request("/login", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ username: ADMIN.username, password: ADMIN.password, next: "/" }).toString(),
    });
    const setCookie = signIn.headers.get("set-cookie") ?? "";
    cookie = setCookie.split(";")[0] ?? "";
    expect(cookie).toMatch(/=/);
    // HttpOnly (no script reads it), SameSite=Lax (no cross-site subrequest carries it), Secure (COOKIE_SECURE's default)
    expect(setCookie).toMatch(/; HttpOnly/);
    expect(setCookie).toMatch(/; SameSite=Lax/);
    expect(setCookie).toMatch(/; Secure/);
  });
  afterAll(async () => t?.close());

  const createKey = (origin: string | undefined, extra: Record<string, string> = {}) =>
    t.request("/graphql", {
      method: "POST",
      json: { query: "mutation { createPersonalKey { key { id } } }" },
      headers: { cookie, ...(origin ? { origin } : {}), ...extra },
    });

  it("refuses a foreign page's credentialed mutation (the cookie would have made a key)", async () => {
    const answer = await createKey(EVIL);
    expect(answer.status).toBe(403);
    expect(answer.headers.get("access-control-allow-origin")).toBeNull();
    expect(((await answer.json()) as { error: { code: string } }).error.code).toBe("ORIGIN_NOT_ALLOWED");
    const keys = await t.graphql<{ me: { personalKeys: unknown[] } }>("{ me { personalKeys { id } } }", {}, await t.login());
    expect(keys.body.data?.me.personalKeys ?? []).toHaveLength(0);
  });

  it("refuses a foreign preflight, and the sandboxed 'null' origin", async () => {
    for (const origin of [EVIL, "null"]) {
      const answer = await t.request("/graphql", {
        method: "OPTIONS",
        headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "content-type" },
      });
      expect(answer.status).toBe(403);
      expect(answer.headers.get("access-control-allow-origin")).toBeNull();
    }
  });

  it("lets a foreign page read nothing: a GET answers without CORS headers", async () => {
    const answer = await t.request("/healthz", { headers: { origin: EVIL } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("access-control-allow-origin")).toBeNull();
    expect(answer.headers.get("vary")).toContain("Origin");
  });

  it("allows a listed origin with credentials, preflight included", async () => {
    const pre = await t.request("/graphql", {
      method: "OPTIONS",
      headers: { origin: APP, "access-control-request-method": "POST", "access-control-request-headers": "content-type, authorization" },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBe(APP);
    expect(pre.headers.get("access-control-allow-credentials")).toBe("true");
    expect(pre.headers.get("access-control-allow-headers")).toBe("content-type, authorization");
    const answer = await createKey(APP);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("access-control-allow-origin")).toBe(APP);
  });

  it("allows the service's own pages and programs that send no Origin", async () => {
    const own = await createKey("http://gateway.test");
    expect(own.status).toBe(200);
    expect(own.headers.get("access-control-allow-origin")).toBeNull();
    const program = await t.graphql("{ me { username } }", {}, await t.login());
    expect(program.body).toEqual({ data: { me: { username: "admin" } } });
  });

  it("puts nosniff on every answer and a CSP with frame-ancestors on pages", async () => {
    const page = await t.request("/login");
    expect(page.headers.get("content-type")).toContain("text/html");
    const csp = page.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("frame-ancestors 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain("unsafe-eval");
    expect(page.headers.get("x-content-type-options")).toBe("nosniff");
    expect(page.headers.get("referrer-policy")).toBe("same-origin");
    const api = await t.request("/healthz");
    expect(api.headers.get("x-content-type-options")).toBe("nosniff");
    expect(api.headers.get("content-security-policy")).toBeNull();
  });

  it("sends the browser back only to a path of this site after signing in", async () => {
    for (const next of [
      "/\t/evil.example:80/x",
      "/\n/x",
      "//evil.example",
      "/\\evil.example",
      "https://evil.example/",
      "/%0d%0aSet-Cookie:x",
    ]) {
      const answer = await t.request("/login", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ username: ADMIN.username, password: ADMIN.password, next }).toString(),
      });
      expect(answer.status, JSON.stringify(next)).toBe(303);
      const location = answer.headers.get("location") ?? "";
      expect(new URL(location, "http://gateway.test/").host, JSON.stringify(next)).toBe("gateway.test");
    }
  });
});

describe("safeNext", () => {
  it("keeps same-site paths and drops everything else", () => {
    expect(safeNext("/graph/graph.html?dataset=a#x")).toBe("/graph/graph.html?dataset=a#x");
    expect(safeNext("/account")).toBe("/account");
    for (const bad of ["//x.example", "/\\x.example", "/\t/x.example", "/\n/x", "x", "", undefined, 3, "/\u0000"]) {
      expect(safeNext(bad), JSON.stringify(bad)).toBe("/");
    }
  });
});

describe("WebSocket upgrades (real server)", () => {
  let db: TestDatabase;
  let server: ServerProcess;
  beforeAll(async () => {
    db = await createTestDatabase("sqlite");
    server = await startServer({ ...db.env, ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, CORS_ORIGINS: APP });
  });
  afterAll(async () => {
    await server?.stop("SIGKILL");
    await db?.drop();
  });

  /** Resolves with the HTTP status of a refused upgrade, or 101 once the socket opens. */
  const upgrade = (path: string, origin?: string) =>
    new Promise<number>((resolve, reject) => {
      const socket = new WebSocket(`${server.url.replace("http", "ws")}${path}`, "graphql-transport-ws", origin ? { origin } : {});
      socket.once("open", () => {
        socket.close();
        resolve(101);
      });
      socket.once("unexpected-response", (_request, response) => resolve(response.statusCode ?? 0));
      socket.once("error", reject);
    });

  it("refuses another site's page and accepts the own origin, a listed one and programs", async () => {
    expect(await upgrade("/graphql", EVIL)).toBe(403);
    expect(await upgrade("/graph/data/some-session/layout/stream", EVIL)).toBe(403);
    expect(await upgrade("/graphql", server.url)).toBe(101);
    expect(await upgrade("/graphql", APP)).toBe(101);
    expect(await upgrade("/graphql")).toBe(101);
  });
});
