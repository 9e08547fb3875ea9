// Redis killed and started again under two live gateway processes: they stay up, answer 503 on what needs Redis
// (and health names it), no request hangs, and afterwards subscribers catch up, presence holds and jobs run again.
import { createClient } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";
import { ADMIN } from "../helpers/gateway.ts";
import { bearer, type Json } from "../helpers/http.ts";
import { startTestRedis, type TestRedis } from "../helpers/redis-server.ts";
import { type ServerProcess, startServer } from "../helpers/server-process.ts";

/** Far past any bounded wait in the service: a request still unanswered then is hanging. */
const HANG_MS = 15_000;

const CHANGED = `subscription($id: ID!, $since: Int) { vizSessionChanged(id: $id, since: $since) { kind revision { number } } }`;
const CREATE = `mutation($s: ID!, $n: String!) { createCollection(input: { sessionId: $s, name: $n, query: "[{\\"type\\":\\"Node\\"}]" }) { id } }`;
const SESSION = `query($id: ID!) { vizSession(id: $id) { revision { number } ownerAvailable collections { name } } }`;
const RUN = `mutation($i: RunComputeJobInput!) { runComputeJob(input: $i) { id status } }`;
const JOB = `query($id: ID!) { computeJob(id: $id) { status errorCode } }`;
const PROGRESS = `subscription($id: ID!) { computeJobProgress(id: $id) { status } }`;
/** A layout job that runs until cancelled (it checks for that every iteration). */
const ENDLESS = { label: "fa2", library: "cugraph", alg: "force_atlas2", params: { max_iter: 1_000_000_000 } };

async function request(url: string, path: string, init: RequestInit = {}) {
  const response = await fetch(`${url}${path}`, { ...init, signal: AbortSignal.timeout(HANG_MS) });
  const text = await response.text();
  let body: Json = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: kept as text
  }
  return { status: response.status, body };
}

function post(url: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  return request(url, path, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
}

const mcp = (url: string, session: string, body: Record<string, unknown>) =>
  post(url, "/mcp", { jsonrpc: "2.0", ...body }, { "mcp-session-id": session, accept: "application/json, text/event-stream" });

/** Every event of one subscription (its first data field, or the whole message), kept as they come. */
function subscribe(url: string, token: string, variables: Record<string, unknown>, query = CHANGED) {
  const client = createClient({ url: `${url.replace("http", "ws")}/graphql`, webSocketImpl: WebSocket, connectionParams: bearer(token) });
  const events: Json[] = [];
  let failure: unknown;
  let complete = false;
  client.subscribe(
    { query, variables },
    {
      next: (value) => void events.push(value.data ? Object.values(value.data)[0] : value),
      error: (error) => (failure = error),
      complete: () => (complete = true),
    },
  );
  return {
    events,
    completed: () => complete,
    /** The first event from `from` on that passes. */
    async until(pass: (event: Json) => boolean, from = 0, timeoutMs = 30_000): Promise<Json> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = events.slice(from).find(pass);
        if (found) return found;
        if (failure) throw new Error(`subscription failed: ${JSON.stringify(failure)}`);
        if (Date.now() > deadline) throw new Error(`no such event within ${timeoutMs} ms: ${JSON.stringify(events)}`);
        await sleep(50);
      }
    },
    close: () => client.dispose(),
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function eventually<T>(read: () => Promise<T>, pass: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (pass(value) || Date.now() > deadline) return value;
    await sleep(200);
  }
}

describe("a Redis outage under two gateway processes on one Postgres database", () => {
  let redis: TestRedis;
  let db: TestDatabase;
  let a: ServerProcess;
  let b: ServerProcess;
  let auth: Record<string, string>;
  let token: string;
  let datasetId: string;
  let sessionId: string;
  let owner: ReturnType<typeof subscribe>;
  let viewer: ReturnType<typeof subscribe>;
  let progress: ReturnType<typeof subscribe>;
  let endless: string;
  let waiting: string;
  let mcpSession: string;

  const graphql = async (url: string, query: string, variables: Record<string, unknown> = {}) =>
    post(url, "/graphql", { query, variables }, auth);
  const revision = async () => (await graphql(a.url, SESSION, { id: sessionId })).body.data.vizSession.revision.number as number;

  beforeAll(async () => {
    redis = await startTestRedis();
    db = await createTestDatabase("postgres");
    const env = { ...db.env, ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, REDIS_URL: redis.url };
    a = await startServer(env);
    b = await startServer(env);
    token = String((await post(a.url, "/api-token-auth/", ADMIN)).body.token);
    auth = bearer(token);
    const file = (await post(b.url, "/api/v2/files/", { file_type: "json" }, auth)).body.file_id as string;
    await post(b.url, `/api/v2/upload/files/${file}?erase=true`, { s: ["a", "b", "c"], d: ["b", "c", "a"] }, auth);
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
    datasetId = dataset.body.data.dataset_id as string;
    sessionId = (await graphql(a.url, `mutation($d: ID!) { openVizSession(datasetId: $d) { id } }`, { d: datasetId })).body.data
      .openVizSession.id as string;
    // The owner's page on a, another page of the session on b.
    owner = subscribe(a.url, token, { id: sessionId });
    viewer = subscribe(b.url, token, { id: sessionId });
    await sleep(500);
  }, 120_000);

  afterAll(async () => {
    await Promise.allSettled([owner?.close(), viewer?.close(), progress?.close()]);
    await Promise.allSettled([a?.stop("SIGKILL"), b?.stop("SIGKILL")]);
    await redis?.kill();
    await db?.drop();
  });

  it("fans a change out across the processes while Redis is up", async () => {
    const from = owner.events.length;
    expect((await graphql(b.url, CREATE, { s: sessionId, n: "before" })).body.data.createCollection.id).toBeTruthy();
    expect(await owner.until((e) => e.kind === "COLLECTIONS", from)).toMatchObject({ revision: { number: await revision() } });
    // A tool session opened on a, known to b through Redis.
    const init = await fetch(`${a.url}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2024-11-05", capabilities: {}, clientInfo: { name: "t", version: "1" } },
      }),
      signal: AbortSignal.timeout(HANG_MS),
    });
    mcpSession = init.headers.get("mcp-session-id") ?? "";
    expect(mcpSession).not.toBe("");
    // A job that runs until cancelled, followed from a: it will be cancelled, and end, while Redis is away.
    endless = (await graphql(b.url, RUN, { i: { datasetId, ...ENDLESS } })).body.data.runComputeJob.id as string;
    progress = subscribe(a.url, token, { id: endless }, PROGRESS);
    await progress.until((e) => e.status === "RUNNING");
    // A job on the same dataset waits its turn, in Redis (which will restart without its data).
    waiting = (await graphql(b.url, RUN, { i: { datasetId, label: "cc0", library: "cugraph", alg: "connected_components" } })).body.data
      .runComputeJob.id as string;
  });

  it("with Redis killed, stays up: health is 503 naming redis, what needs Redis is 503, the rest works, nothing hangs", async () => {
    // An upload is under way on b when Redis dies.
    const big = (await post(b.url, "/api/v2/files/", { file_type: "json" }, auth)).body.file_id as string;
    const rows = Array.from({ length: 100_000 }, (_, i) => String(i));
    const inFlight = post(b.url, `/api/v2/upload/files/${big}?erase=true`, { s: rows, d: rows.slice(1).concat("0") }, auth);
    await redis.kill();
    expect((await inFlight).status).toBe(200);
    for (const server of [a, b]) {
      const health = await request(server.url, "/vizsvc-sessions/health");
      expect({ status: health.status, failing: health.body.failing }).toEqual({ status: 503, failing: ["redis"] });
      // What needs no Redis still answers.
      expect((await request(server.url, "/healthz")).status).toBe(200);
    }
    // A collection changes (on both processes): stored, answered; its events wait for Redis.
    expect((await graphql(b.url, CREATE, { s: sessionId, n: "during-b" })).body.data.createCollection.id).toBeTruthy();
    expect((await graphql(a.url, CREATE, { s: sessionId, n: "during-a" })).body.data.createCollection.id).toBeTruthy();
    // An upload needs no Redis.
    const file = (await post(a.url, "/api/v2/files/", { file_type: "json" }, auth)).body.file_id as string;
    expect((await post(a.url, `/api/v2/upload/files/${file}?erase=true`, { s: ["x"], d: ["y"] }, auth)).status).toBe(200);
    // A compute job needs the queue in Redis: 503 UNAVAILABLE, within a bounded wait.
    const run = await graphql(a.url, RUN, { i: { datasetId, label: "cc", library: "cugraph", alg: "connected_components" } });
    expect({ status: run.status, code: run.body.errors?.[0]?.extensions?.code }).toEqual({ status: 503, code: "UNAVAILABLE" });
    // A running job is cancelled (the request and the worker's check go through the database) and ends.
    expect((await graphql(b.url, `mutation($id: ID!) { cancelComputeJob(id: $id) { id } }`, { id: endless })).status).toBe(200);
    const cancelled = await eventually(
      () => graphql(b.url, JOB, { id: endless }),
      (r) => r.body.data.computeJob.status === "CANCELLED",
    );
    expect(cancelled.body.data.computeJob.status).toBe("CANCELLED");
    // The tool session: served where it lives; elsewhere its directory cannot be read, a 503 to retry (not "unknown").
    expect((await mcp(a.url, mcpSession, { id: 2, method: "tools/list" })).status).toBe(200);
    const elsewhere = await mcp(b.url, mcpSession, { id: 3, method: "tools/list" });
    expect({ status: elsewhere.status, code: elsewhere.body.error?.code }).toEqual({ status: 503, code: -32006 });
    // Signing in and reading work; a JWT check reads forced-logout marks in Redis and goes on without them.
    expect((await post(b.url, "/api-token-auth/", ADMIN)).status).toBe(200);
    expect((await graphql(b.url, SESSION, { id: sessionId })).body.data.vizSession.collections).toHaveLength(3);
    // The process used to end about 5 s after a change with Redis away: both are still up well after.
    await sleep(7_000);
    expect([a.child.exitCode, b.child.exitCode]).toEqual([null, null]);
    // The operator is told once, not on every reconnect attempt.
    expect(a.logs.join("").match(/redis unreachable/g)).toHaveLength(1);
    expect((await request(b.url, "/healthz")).status).toBe(200);
  }, 90_000);

  it("with Redis back: subscribers catch up (RESYNC at the stored revision), fan-out, health, presence and jobs recover", async () => {
    const from = { owner: owner.events.length, viewer: viewer.events.length };
    const afterOutage = await revision();
    await redis.start();
    // Both pages missed the outage's changes: each gets a RESYNC carrying the stored revision, which has them all (or
    // a later one: the job that waited in Redis runs again now, and moves the revision on when it ends).
    for (const [page, start] of [
      [owner, from.owner],
      [viewer, from.viewer],
    ] as const) {
      const resync = await page.until((e) => e.kind === "RESYNC", start);
      expect(resync.revision.number).toBeGreaterThanOrEqual(afterOutage);
    }
    for (const server of [a, b]) {
      const health = await eventually(
        () => request(server.url, "/vizsvc-sessions/health"),
        (h) => h.status === 200,
      );
      expect(health.status).toBe(200);
    }
    expect(a.logs.join("")).toContain("redis is back");
    // Fan-out works again, both ways.
    const again = viewer.events.length;
    await graphql(a.url, CREATE, { s: sessionId, n: "after" });
    expect((await viewer.until((e) => e.kind === "COLLECTIONS", again)).revision.number).toBeGreaterThan(afterOutage);
    // The owner's page stayed connected through it all: still present.
    expect((await graphql(b.url, SESSION, { id: sessionId })).body.data.vizSession.ownerAvailable).toBe(true);
    // The tool session outlived Redis' restart (empty: it keeps no data): the instances serving it wrote it back.
    expect((await mcp(b.url, mcpSession, { id: 4, method: "tools/list" })).status).toBe(200);
    expect((await mcp(a.url, mcpSession, { id: 5, method: "tools/list" })).status).toBe(200);
    // The job that ended during the outage: its follower hears of it now, and the subscription completes.
    expect(await progress.until((e) => e.status === "CANCELLED")).toEqual({ status: "CANCELLED" });
    await eventually(
      async () => progress.completed(),
      (done) => done,
    );
    expect(progress.completed()).toBe(true);
    // The job that was waiting in the Redis that lost its data is queued again, and runs.
    const waited = await eventually(
      () => graphql(a.url, JOB, { id: waiting }),
      (r) => ["SUCCEEDED", "FAILED", "CANCELLED"].includes(r.body.data.computeJob.status),
      60_000,
    );
    expect(waited.body.data.computeJob).toEqual({ status: "SUCCEEDED", errorCode: null });
    // The job queue works again: a job queued on b runs (on either process) to its end.
    const run = await eventually(
      () => graphql(b.url, RUN, { i: { datasetId, label: "cc", library: "cugraph", alg: "connected_components" } }),
      (r) => r.status === 200,
    );
    expect(run.body.data.runComputeJob.status).toBe("QUEUED");
    const job = await eventually(
      () => graphql(a.url, JOB, { id: run.body.data.runComputeJob.id }),
      (r) => ["SUCCEEDED", "FAILED", "CANCELLED"].includes(r.body.data.computeJob.status),
      60_000,
    );
    expect(job.body.data.computeJob).toEqual({ status: "SUCCEEDED", errorCode: null });
  }, 120_000);

  it("gives a client resubscribing with `since` a RESYNC first when the session moved past it, and none when not", async () => {
    const current = await revision();
    const behind = subscribe(b.url, token, { id: sessionId, since: current - 2 });
    const upToDate = subscribe(a.url, token, { id: sessionId, since: current });
    try {
      expect(await behind.until(() => true)).toEqual({ kind: "RESYNC", revision: { number: current } });
      await sleep(500);
      await graphql(b.url, CREATE, { s: sessionId, n: "resubscribed" });
      expect(await upToDate.until(() => true)).toEqual({ kind: "COLLECTIONS", revision: { number: current + 1 } });
      expect(await behind.until((e) => e.kind === "COLLECTIONS")).toEqual({ kind: "COLLECTIONS", revision: { number: current + 1 } });
    } finally {
      await Promise.allSettled([behind.close(), upToDate.close()]);
    }
  }, 60_000);
});
