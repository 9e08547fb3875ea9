// Compute jobs through BullMQ on the real Redis: a gateway that only queues (COMPUTE_GATEWAY_WORKER=false) and a
// separate `npm run worker` process on the same Postgres database and DATA_DIR; progress and the live session's
// new version reach the gateway's graphql-ws clients through Redis; cancel of a running and of a queued job.
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { Queue } from "bullmq";
import { createClient } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";
import { ADMIN } from "../helpers/gateway.ts";
import { bearer, type Json, postJson as post } from "../helpers/http.ts";
import { seeded } from "../helpers/seeded.ts";
import { ROOT, type ServerProcess, startServer } from "../helpers/server-process.ts";

type Worker = { child: ChildProcess; id: string; logs: string[]; stop(): Promise<void> };

/** `npm run worker` as an operator starts it, in a process group of its own (npm, its shell, node) so all of it stops. */
async function startWorker(env: Record<string, string>): Promise<Worker> {
  const child = spawn("npm", ["run", "--silent", "worker"], {
    cwd: ROOT,
    env: { ...process.env, ENV_FILE: "", LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  const logs: string[] = [];
  // "close": npm's output pipes are also node's, so this waits for node itself to end.
  const exited = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)));
  const id = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worker did not start:\n${logs.join("")}`)), 45_000);
    const onData = (chunk: Buffer) => {
      logs.push(chunk.toString());
      const ready = /"msg":"compute worker ready".*"worker":"([^"]+)"/.exec(logs.join(""));
      if (ready?.[1]) {
        clearTimeout(timer);
        resolve(ready[1]);
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`worker exited with ${code}:\n${logs.join("")}`));
    });
  });
  return {
    child,
    id,
    logs,
    async stop() {
      if (child.exitCode === null && child.pid !== undefined) process.kill(-child.pid, "SIGTERM");
      await exited;
    },
  };
}

/** A seeded random graph as CSV edges, big enough that igraph's gomory_hu_tree (n - 1 maximum flows) runs for seconds. */
function bigGraphCsv(n: number, m: number, seed: number): string {
  const rng = seeded(seed);
  const lines = ["s,d"];
  for (let i = 1; i < n; i++) lines.push(`n${i},n${rng.int(0, i - 1)}`);
  for (let e = n - 1; e < m; e++) lines.push(`n${rng.int(0, n - 1)},n${rng.int(0, n - 1)}`);
  return `${lines.join("\n")}\n`;
}

/** A graphql-ws subscription whose events are kept as they come; `until` waits for the first that passes. */
function wsSubscription(url: string, token: string, query: string, variables: Record<string, unknown>) {
  const client = createClient({ url: `${url.replace("http", "ws")}/graphql`, webSocketImpl: WebSocket, connectionParams: bearer(token) });
  const events: Json[] = [];
  let complete = false;
  let failure: unknown;
  client.subscribe(
    { query, variables },
    {
      next: (value) => {
        events.push(value);
      },
      error: (error) => {
        failure = error;
      },
      complete: () => {
        complete = true;
      },
    },
  );
  return {
    events,
    async until(pass: (event: Json, index: number) => boolean, timeoutMs = 60_000): Promise<Json[]> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const at = events.findIndex((event, index) => pass(event, index));
        if (at >= 0) return events.slice(0, at + 1);
        if (failure) throw new Error(`subscription failed: ${JSON.stringify(failure)}`);
        if (complete) throw new Error(`the subscription ended first: ${JSON.stringify(events)}`);
        if (Date.now() > deadline) throw new Error(`no such event within ${timeoutMs} ms: ${JSON.stringify(events)}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    /** Resolves with every event once the server completed the subscription. */
    async completed(timeoutMs = 60_000): Promise<Json[]> {
      const deadline = Date.now() + timeoutMs;
      while (!complete) {
        if (failure) throw new Error(`subscription failed: ${JSON.stringify(failure)}`);
        if (Date.now() > deadline) throw new Error(`not completed within ${timeoutMs} ms: ${JSON.stringify(events)}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return events;
    },
    close: () => client.dispose(),
  };
}

const PROGRESS = `subscription($id: ID!) { computeJobProgress(id: $id) { status phase iteration fraction errorCode } }`;
const RUN = `mutation($i: RunComputeJobInput!) { runComputeJob(input: $i) { id status } }`;
const JOB = `query($id: ID!) { computeJob(id: $id) { status startedAt dataVersion worker errorCode } }`;
const progressOf = (e: Json) => e?.data?.computeJobProgress;

describe("compute jobs on BullMQ, run by `npm run worker` (Postgres, Redis)", () => {
  let db: TestDatabase;
  let server: ServerProcess;
  let worker: Worker | undefined;
  let env: Record<string, string>;
  let token: string;
  let small: string;
  let big: string;

  async function graphql(query: string, variables: Record<string, unknown>): Promise<Json> {
    return (await post(server.url, "/graphql", { query, variables }, bearer(token))).body;
  }

  async function csvDataset(csv: string): Promise<string> {
    const auth = bearer(token);
    const file = (await post(server.url, "/api/v2/files/", { file_type: "csv" }, auth)).body.file_id as string;
    await fetch(`${server.url}/api/v2/upload/files/${file}`, { method: "POST", headers: auth, body: csv });
    const created = await post(
      server.url,
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
    return created.body.data.dataset_id as string;
  }

  async function nodeColumns(datasetId: string): Promise<string[]> {
    const body = await graphql(`query($id: ID!) { dataset(id: $id) { tables { nodes { dtypes } } } }`, { id: datasetId });
    return Object.keys(body.data.dataset.tables.nodes.dtypes);
  }

  beforeAll(async () => {
    db = await createTestDatabase("postgres");
    env = {
      ...db.env,
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      REDIS_URL: "redis://127.0.0.1:6379",
      // A queue of this suite's own: other suites' gateways on the same Redis must not take its jobs.
      COMPUTE_QUEUE: `compute-test-${randomBytes(6).toString("hex")}`,
      // The gateway only queues: every job here runs in the worker process, two at a time.
      COMPUTE_GATEWAY_WORKER: "false",
      COMPUTE_JOB_CONCURRENCY: "2",
    };
    server = await startServer(env);
    worker = await startWorker(env);
    token = String((await post(server.url, "/api-token-auth/", ADMIN)).body.token);
    small = await csvDataset("s,d\na,b\nb,c\nd,e\n");
    big = await csvDataset(bigGraphCsv(4_000, 16_000, 11));
  }, 120_000);
  afterAll(async () => {
    await worker?.stop();
    await server?.stop("SIGKILL");
    await db?.drop();
    // The suite's queue goes from Redis too.
    const queue = new Queue(env.COMPUTE_QUEUE as string, { connection: { url: env.REDIS_URL as string } });
    await queue.obliterate({ force: true }).finally(() => queue.close());
  });

  it("runs a job in the worker process; progress and the live session's new version reach the gateway's clients", async () => {
    const opened = await graphql(`mutation($d: ID!) { openVizSession(datasetId: $d) { id } }`, { d: small });
    const sessionId = opened.data.openVizSession.id as string;
    const session = wsSubscription(
      server.url,
      token,
      `subscription($id: ID!) { vizSessionChanged(id: $id) { kind revision { number } } }`,
      {
        id: sessionId,
      },
    );
    await new Promise((resolve) => setTimeout(resolve, 400));
    const started = await graphql(RUN, { i: { datasetId: small, label: "cc", library: "cugraph", alg: "connected_components" } });
    expect(started.data.runComputeJob.status).toBe("QUEUED");
    const id = started.data.runComputeJob.id as string;
    const progress = wsSubscription(server.url, token, PROGRESS, { id });
    const events = (await progress.completed()).map(progressOf);
    expect(events.at(-1)).toMatchObject({ status: "SUCCEEDED", fraction: 1, errorCode: null });
    await progress.close();

    const job = (await graphql(JOB, { id })).data.computeJob;
    expect(job).toMatchObject({ status: "SUCCEEDED", errorCode: null, worker: worker?.id });
    expect(job.dataVersion).toBeTruthy();
    expect(await nodeColumns(small)).toContain("cc");
    const changes = await session.until((e) => e?.data?.vizSessionChanged?.kind === "REVISION");
    expect(changes.at(-1).data.vizSessionChanged.revision.number).toBe(2);
    await session.close();
  }, 60_000);

  it("cancels a job running in the worker process from the gateway; the dataset keeps its tables", async () => {
    const before = await nodeColumns(big);
    const started = await graphql(RUN, { i: { datasetId: big, label: "gh", library: "igraph", alg: "gomory_hu_tree", directed: false } });
    const id = started.data.runComputeJob.id as string;
    const progress = wsSubscription(server.url, token, PROGRESS, { id });
    await progress.until((e) => progressOf(e)?.status === "RUNNING" && (progressOf(e)?.fraction ?? 0) > 0);
    const cancelled = await graphql(`mutation($id: ID!) { cancelComputeJob(id: $id) { status cancelRequested } }`, { id });
    expect(cancelled.data.cancelComputeJob).toEqual({ status: "RUNNING", cancelRequested: true });
    const events = (await progress.completed(30_000)).map(progressOf);
    expect(events.at(-1).status).toBe("CANCELLED");
    await progress.close();
    expect((await graphql(JOB, { id })).data.computeJob).toMatchObject({ status: "CANCELLED", dataVersion: null, worker: worker?.id });
    expect(await nodeColumns(big)).toEqual(before);
  }, 90_000);

  it("gives a running job back to the queue when its worker stops; the next worker runs it", async () => {
    const first = worker as Worker;
    const started = await graphql(RUN, { i: { datasetId: big, label: "gh", library: "igraph", alg: "gomory_hu_tree", directed: false } });
    const id = started.data.runComputeJob.id as string;
    const progress = wsSubscription(server.url, token, PROGRESS, { id });
    await progress.until((e) => progressOf(e)?.status === "RUNNING" && (progressOf(e)?.fraction ?? 0) > 0);
    await first.stop();
    worker = undefined;
    // Queued again, not failed: the stopped worker handed it back.
    const back = await progress.until((e, i) => i > 0 && progressOf(e)?.status === "QUEUED");
    expect(back.map((e) => progressOf(e)?.status)).not.toContain("FAILED");
    expect((await graphql(JOB, { id })).data.computeJob).toMatchObject({ status: "QUEUED", worker: null, startedAt: null });

    worker = await startWorker(env);
    const seen = progress.events.length;
    await progress.until((e, i) => i >= seen && progressOf(e)?.status === "RUNNING");
    expect((await graphql(JOB, { id })).data.computeJob.worker).toBe(worker.id);
    await graphql(`mutation($id: ID!) { cancelComputeJob(id: $id) { status } }`, { id });
    expect((await progress.completed(30_000)).map(progressOf).at(-1).status).toBe("CANCELLED");
    await progress.close();
  }, 120_000);

  it("runs two jobs on one dataset one after the other (the second waits in Redis), so no column is lost", async () => {
    const medium = await csvDataset(bigGraphCsv(2_500, 10_000, 3));
    const ids: string[] = [];
    for (const [label, library, alg] of [
      ["bw", "igraph", "betweenness"],
      ["cc", "cugraph", "connected_components"],
    ] as const) {
      ids.push((await graphql(RUN, { i: { datasetId: medium, label, library, alg, directed: false } })).data.runComputeJob.id);
    }
    const ends = await Promise.all(
      ids.map(async (id) => {
        const progress = wsSubscription(server.url, token, PROGRESS, { id });
        const last = (await progress.completed()).map(progressOf).at(-1)?.status;
        await progress.close();
        return last;
      }),
    );
    expect(ends).toEqual(["SUCCEEDED", "SUCCEEDED"]);
    expect(await nodeColumns(medium)).toEqual(expect.arrayContaining(["bw", "cc"]));
  }, 90_000);

  it("never runs a job cancelled while it waited in the queue; the next worker takes the jobs after it", async () => {
    const stopping = worker;
    await stopping?.stop();
    expect(stopping?.logs.join("")).toContain('"msg":"compute worker stopped"');
    worker = undefined;
    const waiting = await graphql(RUN, { i: { datasetId: small, label: "w", library: "cugraph", alg: "weakly_connected_components" } });
    const waitingId = waiting.data.runComputeJob.id as string;
    // No worker is up: it waits.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await graphql(JOB, { id: waitingId })).data.computeJob.status).toBe("QUEUED");
    const cancelled = await graphql(`mutation($id: ID!) { cancelComputeJob(id: $id) { status } }`, { id: waitingId });
    expect(cancelled.data.cancelComputeJob.status).toBe("CANCELLED");

    worker = await startWorker(env);
    const next = await graphql(RUN, { i: { datasetId: small, label: "k", library: "cugraph", alg: "core_number", directed: false } });
    const nextId = next.data.runComputeJob.id as string;
    const events = (await wsSubscription(server.url, token, PROGRESS, { id: nextId }).completed()).map(progressOf);
    expect(events.at(-1).status).toBe("SUCCEEDED");
    expect((await graphql(JOB, { id: waitingId })).data.computeJob).toMatchObject({ status: "CANCELLED", startedAt: null, worker: null });
    const columns = await nodeColumns(small);
    expect(columns).toContain("k");
    expect(columns).not.toContain("w");
  }, 90_000);
});

describe("`npm run worker` without REDIS_URL", () => {
  it("says it needs the queue on Redis and exits non-zero", async () => {
    const db = await createTestDatabase("sqlite");
    try {
      const child = spawn("npm", ["run", "--silent", "worker"], {
        cwd: ROOT,
        env: { ...process.env, ENV_FILE: "", REDIS_URL: "", ...db.env },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      child.stdout?.on("data", (chunk: Buffer) => {
        output += chunk.toString();
      });
      child.stderr?.on("data", (chunk: Buffer) => {
        output += chunk.toString();
      });
      const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
      expect(code).not.toBe(0);
      expect(output).toContain("REDIS_URL");
    } finally {
      await db.drop();
    }
  }, 60_000);
});
