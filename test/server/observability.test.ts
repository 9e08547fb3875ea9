// Access log lines with request ids, X-Request-Id echoed (sanitized), and /metrics in Prometheus text behind METRICS_TOKEN.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/config.ts";
import { createGateway, type Gateway } from "../../src/server/gateway.ts";
import { createLogger } from "../../src/server/logger.ts";
import { createMetrics } from "../../src/server/metrics.ts";
import { withObservability } from "../../src/server/observability.ts";
import { createRoutePattern } from "../../src/server/route-pattern.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";

const METRICS_TOKEN = "metrics-token-0123456789";
type Line = { msg: string; level: string; requestId?: string; [field: string]: unknown };

describe("request ids, access logs and /metrics", () => {
  const lines: string[] = [];
  const logged = (): Line[] => lines.map((line) => JSON.parse(line) as Line);
  let db: TestDatabase;
  let gateway: Gateway;
  let token = "";
  let userId = 0;
  const call = (path: string, init: RequestInit = {}) =>
    gateway.fetch(new Request(`http://t${path}`, init), { clientAddress: "127.0.0.1" });
  const auth = () => ({ authorization: `Bearer ${token}` });

  beforeAll(async () => {
    db = await createTestDatabase("sqlite");
    const config = loadConfig({ ...db.env, ADMIN_USERNAME: "root", ADMIN_PASSWORD: "root-password-1", METRICS_TOKEN, LOG_LEVEL: "info" });
    gateway = await createGateway(config, { logger: createLogger("info", (line) => lines.push(line)) });
    const login = await call("/api-token-auth/", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "root", password: "root-password-1" }),
    });
    token = ((await login.json()) as { token: string }).token;
    const me = await call("/graphql", {
      method: "POST",
      headers: { "content-type": "application/json", ...auth() },
      body: JSON.stringify({ query: "query Me { caller { id } }" }),
    });
    userId = Number(((await me.json()) as { data: { caller: { id: number } } }).data.caller.id);
  });
  afterAll(async () => {
    await gateway?.close();
    await db?.drop();
  });

  it("echoes a safe X-Request-Id and logs one line naming the route pattern, status, duration and user", async () => {
    lines.length = 0;
    const answer = await call("/api/v2/files/?page=1", { headers: { ...auth(), "x-request-id": "req-abc.123" } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("x-request-id")).toBe("req-abc.123");
    const access = logged().filter((line) => line.msg === "request");
    expect(access).toHaveLength(1);
    expect(access[0]).toMatchObject({ method: "GET", route: "/api/v2/files/", status: 200, requestId: "req-abc.123", userId });
    expect(typeof access[0]?.ms).toBe("number");
  });

  it("replaces an unsafe or overlong X-Request-Id with a fresh one, different each time", async () => {
    const ids: string[] = [];
    for (const given of ['x" level="error', "a".repeat(129), "<script>"]) {
      const answer = await call("/api/v2/files/", { headers: { ...auth(), "x-request-id": given } });
      const id = answer.headers.get("x-request-id") ?? "";
      expect(id).not.toBe(given);
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      ids.push(id);
    }
    expect(new Set(ids).size).toBe(3);
  });

  it("gives error answers their request id, and logs the route pattern, never the path's or query's values", async () => {
    lines.length = 0;
    const secret = "state-secret-4f9a0c";
    const missing = await call(`/sso/oidc/jwt/${secret}/?sst=query-secret-77`, { headers: { "x-request-id": "missing-1" } });
    expect(missing.status).toBeGreaterThanOrEqual(400);
    expect(missing.headers.get("x-request-id")).toBe("missing-1");
    const unknown = await call("/no/such/route/secret-path-part");
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const anonymous = await call("/api/v2/files/");
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("x-request-id")).toBeTruthy();
    const all = lines.join("\n");
    for (const value of [secret, "query-secret-77", "secret-path-part", "sst="]) expect(all).not.toContain(value);
    const routes = logged()
      .filter((line) => line.msg === "request")
      .map((line) => line.route);
    expect(routes).toEqual(["/sso/oidc/jwt/:state/", "unmatched", "/api/v2/files/"]);
    // Every line written while serving a request names it.
    expect(logged().filter((line) => line.requestId === "missing-1").length).toBeGreaterThan(0);
  });

  it("/metrics asks for METRICS_TOKEN and answers Prometheus text with requests, operations, uploads, queues and memory", async () => {
    expect((await call("/metrics")).status).toBe(401);
    expect((await call("/metrics", { headers: { authorization: "Bearer wrong-token-0123456789" } })).status).toBe(401);
    expect((await call("/metrics", { method: "POST", headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).status).toBe(405);
    // An upload, so the upload metrics have a sample.
    const file = (await (
      await call("/api/v2/files/", {
        method: "POST",
        headers: { "content-type": "application/json", ...auth() },
        body: JSON.stringify({ file_type: "csv" }),
      })
    ).json()) as { file_id: string };
    const uploaded = await call(`/api/v2/upload/files/${file.file_id}`, { method: "POST", headers: auth(), body: "s,d\na,b\nb,c\n" });
    expect(uploaded.status).toBeLessThan(300);

    const answer = await call("/metrics", { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toContain("text/plain");
    const text = await answer.text();
    expect(text).toMatch(/^http_requests_total\{method="GET",route="\/api\/v2\/files\/",status="200"\} [1-9]/m);
    expect(text).toMatch(/^http_request_duration_seconds_bucket\{le="\+Inf",method="GET",route="\/api\/v2\/files\/"\} [1-9]/m);
    // Named operations, from /graphql and from the REST facade alike.
    expect(text).toMatch(/^graphql_operations_total\{operation="Me",type="query",outcome="ok"\} 1$/m);
    expect(text).toMatch(/^graphql_operation_duration_seconds_count\{operation="Files",type="query"\} [1-9]/m);
    expect(text).toMatch(/^upload_bytes_count\{kind="file"\} 1$/m);
    expect(text).toMatch(/^upload_bytes_sum\{kind="file"\} 12$/m);
    expect(text).toMatch(/^upload_parse_duration_seconds_count\{kind="file"\} 1$/m);
    expect(text).toMatch(/^upload_parse_queue_size 0$/m);
    expect(text).toMatch(/^gfql_queries\{state="waiting"\} 0$/m);
    expect(text).toMatch(/^compute_jobs\{state="queued"\} 0$/m);
    expect(text).toMatch(/^process_resident_memory_bytes [1-9]/m);
    expect(text).toMatch(/^nodejs_heap_size_used_bytes [1-9]/m);
    expect(text).not.toContain(token);
  });
});

describe("/metrics without METRICS_TOKEN", () => {
  it("is off (404), and still logged and counted", async () => {
    const lines: string[] = [];
    const metrics = createMetrics();
    const handler = withObservability(async () => new Response("x"), {
      logger: createLogger("info", (line) => lines.push(line)),
      metrics,
      routePattern: createRoutePattern(),
      metricsToken: undefined,
    });
    const answer = await handler(new Request("http://t/metrics"), {});
    expect(answer.status).toBe(404);
    expect(answer.headers.get("x-request-id")).toBeTruthy();
    expect(JSON.parse(lines[0] ?? "{}")).toMatchObject({ msg: "request", route: "/metrics", status: 404 });
    expect(await metrics.registry.metrics()).toMatch(/^http_requests_total\{method="GET",route="\/metrics",status="404"\} 1$/m);
  });

  it("a handler that throws answers 500 with its request id, logged with the error", async () => {
    const lines: string[] = [];
    const handler = withObservability(
      async () => {
        throw new Error("boom");
      },
      {
        logger: createLogger("info", (line) => lines.push(line)),
        metrics: createMetrics(),
        routePattern: createRoutePattern(),
        metricsToken: undefined,
      },
    );
    const answer = await handler(new Request("http://t/api/v2/files/", { headers: { "x-request-id": "r-500" } }), {});
    expect(answer.status).toBe(500);
    expect(answer.headers.get("x-request-id")).toBe("r-500");
    expect(((await answer.json()) as { error: { code: string } }).error.code).toBe("INTERNAL");
    expect(lines.map((line) => JSON.parse(line).requestId)).toEqual(["r-500", "r-500"]);
  });

  it("a request its caller abandoned is logged as 499, not as an error", async () => {
    const lines: string[] = [];
    const caller = new AbortController();
    const handler = withObservability(
      async () => {
        caller.abort();
        throw new Error("Client connection prematurely closed.");
      },
      {
        logger: createLogger("info", (line) => lines.push(line)),
        metrics: createMetrics(),
        routePattern: createRoutePattern(),
        metricsToken: undefined,
      },
    );
    const answer = await handler(new Request("http://t/graphql", { method: "POST", body: "{}", signal: caller.signal }), {});
    expect(answer.status).toBe(499);
    expect(lines.map((line) => JSON.parse(line))).toEqual([expect.objectContaining({ level: "info", msg: "request", status: 499 })]);
  });
});
