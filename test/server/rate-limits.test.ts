// Rate limits per account and per address on login, upload and query operations, over REST, GraphQL and /mcp alike;
// 429 with Retry-After and RATE_LIMITED; shared by every instance through Redis when REDIS_URL is set (issue 18).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { startTestRedis, type TestRedis } from "../helpers/redis-server.ts";

const LIMITS = {
  RATE_LIMIT_LOGIN_PER_ACCOUNT: "3",
  RATE_LIMIT_LOGIN_PER_ADDRESS: "12",
  RATE_LIMIT_UPLOAD_PER_ACCOUNT: "2",
  RATE_LIMIT_QUERY_PER_ACCOUNT: "6",
  RATE_LIMIT_QUERY_PER_ADDRESS: "10",
};

type ErrorBody = { error?: { code: string; details?: Record<string, unknown> }; errors?: { extensions?: { code?: string } }[] };

function expectLimited(answer: { status: number; headers: Headers; body: ErrorBody }, per: "address" | "account") {
  expect(answer.status).toBe(429);
  expect(Number(answer.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  const code = answer.body.error?.code ?? answer.body.errors?.[0]?.extensions?.code;
  expect(code).toBe("RATE_LIMITED");
  if (answer.body.error) expect(answer.body.error.details).toMatchObject({ per });
}

describe("rate limits in one instance (memory)", () => {
  let t: TestGateway;
  let tokens: Record<string, string>;
  let address = 0;
  /** A fresh client address, so that each case starts with the per-address counts at zero. */
  const fresh = () => `10.0.0.${++address}`;

  const login = (username: string, from: string) =>
    t.json<ErrorBody & { token?: string }>("/api-token-auth/", {
      method: "POST",
      json: { username, password: `${username}-password` },
      address: from,
    });
  const graphql = async (query: string, token: string | undefined, from: string) => {
    const response = await t.request("/graphql", {
      method: "POST",
      json: { query },
      headers: token ? { authorization: `Bearer ${token}` } : {},
      address: from,
    });
    return { status: response.status, headers: response.headers, body: (await response.json()) as ErrorBody };
  };
  const rest = (path: string, token: string, from: string, init: RequestInit & { json?: unknown } = {}) =>
    t.json<ErrorBody & { file_id?: string }>(path, {
      ...init,
      headers: { authorization: `Bearer ${token}`, ...init.headers },
      address: from,
    });

  beforeAll(async () => {
    // The users are made by the admin, each logged in once, from addresses of their own.
    t = await createTestGateway("sqlite", LIMITS);
    const admin = await t.login();
    tokens = { admin };
    for (const name of ["alice", "bob", "carol", "dave"]) {
      const made = await graphql(
        `mutation { createUser(input: { username: "${name}", password: "${name}-password" }) { id } }`,
        admin,
        fresh(),
      );
      expect(made.body.errors).toBeUndefined();
      tokens[name] = (await login(name, fresh())).body.token as string;
    }
  });
  afterAll(async () => t?.close());

  it("logins: per account whatever the address, then per address whatever the account", async () => {
    // alice logged in once above: two more pass, the fourth is refused, from any address.
    expect((await login("alice", fresh())).status).toBe(200);
    expect((await login("alice", fresh())).status).toBe(200);
    expectLimited(await login("alice", fresh()), "account");
    // Unknown names count as accounts too (a password spray over one name).
    const from = fresh();
    for (let i = 0; i < 3; i += 1) expect((await login("nobody", from)).status).toBe(401);
    expectLimited(await login("nobody", from), "account");
    // One address signing in as many accounts stops at the per-address limit (12): each account has two left.
    const shared = fresh();
    const statuses: number[] = [];
    for (const name of ["bob", "carol", "dave"]) for (let i = 0; i < 2; i += 1) statuses.push((await login(name, shared)).status);
    for (let i = 0; i < 6; i += 1) statuses.push((await login(`stranger${i}`, shared)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 401, 401, 401, 401, 401, 401]);
    expectLimited(await login("stranger-last", shared), "address");
  });

  it("the sign-in page answers 429 with its form and Retry-After", async () => {
    // alice's login budget is spent (above).
    const response = await t.request("/login", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "username=alice&password=alice-password&next=%2F",
      address: fresh(),
    });
    expect(response.status).toBe(429);
    expect(Number(response.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(await response.text()).toContain("<form");
  });

  it("queries: one account's budget is shared by REST and GraphQL, over any address", async () => {
    const bob = tokens.bob as string;
    const answers = [];
    for (let i = 0; i < 3; i += 1) answers.push(await rest("/api/v2/files/", bob, fresh()));
    for (let i = 0; i < 3; i += 1) answers.push(await graphql("{ caller { id } }", bob, fresh()));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expectLimited(await rest("/api/v2/files/", bob, fresh()), "account");
    expectLimited(await graphql("{ caller { id } }", bob, fresh()), "account");
    // Another account is not affected.
    expect((await graphql("{ caller { id } }", tokens.carol, fresh())).status).toBe(200);
  });

  it("queries: anonymous callers are counted by address", async () => {
    const from = fresh();
    for (let i = 0; i < 10; i += 1) expect((await graphql("{ ssoProviders { name } }", undefined, from)).status).toBe(200);
    expectLimited(await graphql("{ ssoProviders { name } }", undefined, from), "address");
    expect((await graphql("{ ssoProviders { name } }", undefined, fresh())).status).toBe(200);
  });

  it("uploads have their own, smaller budget", async () => {
    const dave = tokens.dave as string;
    const from = fresh();
    const created = await rest("/api/v2/files/", dave, from, { method: "POST", json: { file_type: "csv" } });
    expect(created.status).toBeLessThan(300);
    const upload = () => rest(`/api/v2/upload/files/${created.body.file_id}`, dave, fresh(), { method: "POST", body: "s,d\na,b\n" });
    expect((await upload()).status).toBe(200);
    expect((await upload()).status).toBe(200);
    expectLimited(await upload(), "account");
  });

  it("the tool endpoint answers 429 with its own JSON-RPC code", async () => {
    const from = fresh();
    const send = (body: unknown, headers: Record<string, string> = {}) =>
      t.request("/mcp", {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
        body: JSON.stringify(body),
        address: from,
      });
    const init = await send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2024-11-05", capabilities: {}, clientInfo: { name: "test", version: "1" } },
    });
    const session = init.headers.get("mcp-session-id") ?? "";
    expect(session).not.toBe("");
    const carol = tokens.carol as string; // one query used above: five left
    for (let i = 0; i < 5; i += 1) await graphql("{ caller { id } }", carol, fresh());
    const call = await send(
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "list_sessions", arguments: {} } },
      { "mcp-session-id": session, authorization: `Bearer ${carol}` },
    );
    expect(call.status).toBe(429);
    expect(Number(call.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(((await call.json()) as { error: { code: number } }).error.code).toBe(-32007);
  });
});

describe("rate limits across instances (Redis)", () => {
  let redis: TestRedis;
  let one: TestGateway;
  let two: TestGateway;

  beforeAll(async () => {
    redis = await startTestRedis();
    const env = { REDIS_URL: redis.url, RATE_LIMIT_QUERY_PER_ADDRESS: "4" };
    one = await createTestGateway("sqlite", env);
    two = await createTestGateway("sqlite", env);
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await redis?.kill();
  });

  const ask = async (gateway: TestGateway, from: string) => {
    const response = await gateway.request("/graphql", { method: "POST", json: { query: "{ ssoProviders { name } }" }, address: from });
    return { status: response.status, headers: response.headers, body: (await response.json()) as ErrorBody };
  };

  it("one address's budget is counted once for both instances", async () => {
    const statuses = [];
    for (const gateway of [one, two, one, two]) statuses.push((await ask(gateway, "192.0.2.7")).status);
    expect(statuses).toEqual([200, 200, 200, 200]);
    expectLimited(await ask(one, "192.0.2.7"), "address");
    expectLimited(await ask(two, "192.0.2.7"), "address");
    expect((await ask(two, "192.0.2.8")).status).toBe(200);
  });

  it("while Redis is away each instance goes on counting by itself, and answers", async () => {
    await redis.kill();
    const answer = await ask(one, "192.0.2.9");
    expect(answer.status).toBe(200);
  });
});
