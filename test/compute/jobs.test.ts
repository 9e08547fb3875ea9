// Compute jobs in process (no Redis), through the in-process gateway: run, progress over SSE, the new version seen by
// a live session, cancel of a running and of a queued job, access and input errors.
import { hostname } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/config.ts";
import { createGateway } from "../../src/server/gateway.ts";
import { csvEdgeDataset } from "../helpers/datasets.ts";
import { createTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { seeded } from "../helpers/seeded.ts";

type JobEvent = { status: string; phase: string | null; iteration: number | null; fraction: number | null; errorCode: string | null };

const EVENT_FIELDS = "jobId status cancelRequested phase iteration fraction errorCode error dataVersion";
const RUN = `mutation($i: RunComputeJobInput!) { runComputeJob(input: $i) { id status label library alg } }`;

/** A seeded random graph as CSV edges, big enough that igraph's gomory_hu_tree (n - 1 maximum flows) runs for seconds. */
function bigGraphCsv(n: number, m: number, seed: number): string {
  const rng = seeded(seed);
  const lines = ["s,d"];
  for (let i = 1; i < n; i++) lines.push(`n${i},n${rng.int(0, i - 1)}`);
  for (let e = n - 1; e < m; e++) lines.push(`n${rng.int(0, n - 1)},n${rng.int(0, n - 1)}`);
  return `${lines.join("\n")}\n`;
}

/** A subscription over SSE, read continuously; `until` waits for the events up to the first that passes. */
function subscribe(gw: TestGateway, token: string, query: string, variables: Record<string, unknown>) {
  const events: unknown[] = [];
  let wake: (() => void) | undefined;
  let done = false;
  const response = gw.request("/graphql", {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "text/event-stream" },
    body: JSON.stringify({ query, variables }),
  });
  const reading = (async () => {
    const reader = ((await response).body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    try {
      for (;;) {
        const { value, done: end } = await reader.read();
        if (end) break;
        buffer += decoder.decode(value, { stream: true });
        let cut = buffer.indexOf("\n\n");
        while (cut >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          for (const line of block.split("\n")) if (line.startsWith("data:") && line.length > 6) events.push(JSON.parse(line.slice(5)));
          cut = buffer.indexOf("\n\n");
        }
        wake?.();
      }
    } finally {
      done = true;
      wake?.();
      reader.releaseLock();
    }
    return reader;
  })();
  return {
    events,
    async until(pass: (event: unknown) => boolean, timeoutMs = 60_000): Promise<unknown[]> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const at = events.findIndex(pass);
        if (at >= 0) return events.slice(0, at + 1);
        if (done) throw new Error(`the subscription ended first: ${JSON.stringify(events)}`);
        if (Date.now() > deadline) throw new Error(`no such event within ${timeoutMs} ms: ${JSON.stringify(events)}`);
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 200);
        });
      }
    },
    /** Resolves once the server ended the stream. */
    ended: reading.then(() => events),
    async close() {
      (await response).body?.cancel().catch(() => {});
    },
  };
}

const progressOf = (e: unknown) => (e as { data?: { computeJobProgress?: JobEvent } }).data?.computeJobProgress;

describe("compute jobs in process", () => {
  let gw: TestGateway;
  let alice: string;
  let bob: string;
  let small: string;
  let big: string;

  beforeAll(async () => {
    gw = await createTestGateway("sqlite");
    ({ alice, bob } = (await gw.users("alice", "bob")) as { alice: string; bob: string });
    small = await csvEdgeDataset(gw, alice, "s,d\na,b\nb,c\nd,e\n");
    big = await csvEdgeDataset(gw, alice, bigGraphCsv(4_000, 16_000, 7));
  }, 120_000);
  afterAll(async () => {
    await gw?.close();
  });

  const run = async (input: Record<string, unknown>, token = alice) =>
    gw.graphql<{ runComputeJob: { id: string; status: string } }>(RUN, { i: input }, token);
  const job = async (id: string, token = alice) =>
    (
      await gw.graphql<{ computeJob: { status: string; startedAt: string | null; dataVersion: string | null; errorCode: string | null } }>(
        `query($id: ID!) { computeJob(id: $id) { status startedAt dataVersion errorCode } }`,
        { id },
        token,
      )
    ).body;
  const nodeColumns = async (datasetId: string) => {
    const { body } = await gw.graphql<{ dataset: { tables: { nodes: { dtypes: Record<string, string> } } } }>(
      `query($id: ID!) { dataset(id: $id) { tables { nodes { dtypes } } } }`,
      { id: datasetId },
      alice,
    );
    return Object.keys(body.data?.dataset.tables.nodes.dtypes ?? {});
  };

  it("runs a job, publishes its progress until it ends, and a live session moves to the new version", async () => {
    const opened = await gw.graphql<{ openVizSession: { id: string } }>(
      `mutation($d: ID!) { openVizSession(datasetId: $d) { id revision { number } } }`,
      { d: small },
      alice,
    );
    const sessionId = opened.body.data?.openVizSession.id as string;
    const session = subscribe(
      gw,
      alice,
      `subscription($id: ID!) { vizSessionChanged(id: $id) { kind revision { number dataset { tables { nodes { dtypes } } } } } }`,
      {
        id: sessionId,
      },
    );
    await new Promise((resolve) => setTimeout(resolve, 200));

    const started = await run({ datasetId: small, label: "cc", library: "cugraph", alg: "connected_components", directed: false });
    expect(started.body.errors).toBeUndefined();
    const { id, status } = started.body.data?.runComputeJob ?? { id: "", status: "" };
    expect(status).toBe("QUEUED");

    const progress = subscribe(gw, alice, `subscription($id: ID!) { computeJobProgress(id: $id) { ${EVENT_FIELDS} } }`, { id });
    // The stream ends by itself once the job is finished, with the finished state last.
    const events = (await progress.ended).map(progressOf);
    const last = events.at(-1);
    expect(last).toMatchObject({ status: "SUCCEEDED", fraction: 1, errorCode: null });
    expect(events.slice(0, -1).every((e) => e?.status === "QUEUED" || e?.status === "RUNNING")).toBe(true);

    const read = await job(id);
    expect(read.data?.computeJob).toMatchObject({ status: "SUCCEEDED", errorCode: null });
    expect(read.data?.computeJob.dataVersion).toBeTruthy();
    expect(await nodeColumns(small)).toContain("cc");
    // The stored values are the components: {a, b, c} and {d, e}.
    const rows = await gw.graphql<{ gfql: { nodes: { node: string; cc: number }[] } }>(
      `query($d: ID!) { gfql(datasetId: $d, query: [{type: "Node"}], output: nodes, nodeColumns: ["node", "cc"]) { nodes } }`,
      { d: small },
      alice,
    );
    const cc = Object.fromEntries((rows.body.data?.gfql.nodes ?? []).map((r) => [r.node, r.cc]));
    expect(cc.a).toBe(cc.b);
    expect(cc.b).toBe(cc.c);
    expect(cc.d).toBe(cc.e);
    expect(cc.a).not.toBe(cc.d);

    // The live session got a REVISION whose dataset already has the new column.
    const changes = await session.until((e) => JSON.stringify(e).includes('"REVISION"'));
    const revision = (changes.at(-1) as { data: { vizSessionChanged: { revision: { number: number; dataset: unknown } } } }).data
      .vizSessionChanged.revision;
    expect(revision.number).toBe(2);
    expect(JSON.stringify(revision.dataset)).toContain('"cc"');
    await session.close();
  }, 60_000);

  it("cancels a running job between iterations; the dataset keeps its tables; a queued job never runs", async () => {
    const before = await nodeColumns(big);
    const long = await run({ datasetId: big, label: "gh", library: "igraph", alg: "gomory_hu_tree", directed: false });
    const longId = long.body.data?.runComputeJob.id as string;
    const progress = subscribe(gw, alice, `subscription($id: ID!) { computeJobProgress(id: $id) { ${EVENT_FIELDS} } }`, { id: longId });
    // Running, and reporting how far it is.
    await progress.until((e) => (progressOf(e)?.fraction ?? 0) > 0 && progressOf(e)?.status === "RUNNING");

    // One job at a time here: this one waits behind the long one, and is cancelled while it waits.
    const queued = await run({ datasetId: big, label: "cc", library: "cugraph", alg: "connected_components" });
    const queuedId = queued.body.data?.runComputeJob.id as string;
    const cancelQueued = await gw.graphql<{ cancelComputeJob: { status: string } }>(
      `mutation($id: ID!) { cancelComputeJob(id: $id) { status } }`,
      { id: queuedId },
      alice,
    );
    expect(cancelQueued.body.data?.cancelComputeJob.status).toBe("CANCELLED");

    const cancel = await gw.graphql<{ cancelComputeJob: { status: string; cancelRequested: boolean } }>(
      `mutation($id: ID!) { cancelComputeJob(id: $id) { status cancelRequested } }`,
      { id: longId },
      alice,
    );
    expect(cancel.body.data?.cancelComputeJob).toEqual({ status: "RUNNING", cancelRequested: true });
    const events = (await progress.ended).map(progressOf);
    expect(events.at(-1)?.status).toBe("CANCELLED");
    const fractions = events.map((e) => e?.fraction ?? 0);
    expect(Math.max(...fractions)).toBeLessThan(1);

    expect((await job(longId)).data?.computeJob).toMatchObject({ status: "CANCELLED", dataVersion: null });
    // The queued one never started, not even after the long one made room.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await job(queuedId)).data?.computeJob).toMatchObject({ status: "CANCELLED", startedAt: null, dataVersion: null });
    expect(await nodeColumns(big)).toEqual(before);
  }, 120_000);

  it("lets viewers of the dataset read its jobs, and only those who may change it run and cancel them", async () => {
    const denied = await run({ datasetId: small, library: "cugraph", alg: "connected_components" }, bob);
    expect(denied.body.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    const mine = await run({ datasetId: small, library: "cugraph", alg: "weakly_connected_components" });
    const id = mine.body.data?.runComputeJob.id as string;
    expect((await job(id, bob)).errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    const cancel = await gw.graphql(`mutation($id: ID!) { cancelComputeJob(id: $id) { status } }`, { id }, bob);
    expect(cancel.body.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    const list = await gw.graphql(`query($d: ID!) { computeJobs(datasetId: $d) { id } }`, { d: small }, bob);
    expect(list.body.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    const listed = await gw.graphql<{ computeJobs: { id: string }[] }>(
      `query($d: ID!) { computeJobs(datasetId: $d) { id } }`,
      { d: small },
      alice,
    );
    expect(listed.body.data?.computeJobs.map((j) => j.id)).toContain(id);
    // Shared publicly, bob may see it, and so its jobs, but neither run nor cancel any: they write its tables.
    await gw.graphql(`mutation($d: ID!) { shareDataset(datasetId: $d, mode: "public") }`, { d: small }, alice);
    expect((await job(id, bob)).data?.computeJob.status).toBeTruthy();
    const listedByBob = await gw.graphql<{ computeJobs: { id: string }[] }>(
      `query($d: ID!) { computeJobs(datasetId: $d) { id } }`,
      { d: small },
      bob,
    );
    expect(listedByBob.body.data?.computeJobs.map((j) => j.id)).toContain(id);
    const runByBob = await run({ datasetId: small, library: "cugraph", alg: "connected_components" }, bob);
    expect(runByBob.body.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    const cancelByBob = await gw.graphql(`mutation($id: ID!) { cancelComputeJob(id: $id) { status } }`, { id }, bob);
    expect(cancelByBob.body.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    // An admin may.
    const admin = await gw.login();
    expect((await gw.graphql(`mutation($id: ID!) { cancelComputeJob(id: $id) { id } }`, { id }, admin)).body.errors).toBeUndefined();
    expect((await gw.graphql(`query { computeJob(id: "nope") { id } }`, {}, alice)).body.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
  });

  it("refuses bad entries with INVALID_INPUT naming the field, before anything is queued", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ library: "networkx", alg: "pagerank" }, "input.library"],
      [{ library: "cugraph", alg: "no_such_algorithm" }, "input.alg"],
      [{ library: "cugraph", alg: "connected_components", params: { nope: 1 } }, "input.params.nope"],
      [{ library: "cugraph", alg: "connected_components", params: { connection: "sideways" } }, "input.params.connection"],
      [{ library: "igraph", alg: "gomory_hu_tree", directed: true }, "input.directed"],
    ];
    for (const [entry, field] of cases) {
      const { body } = await gw.graphql(RUN, { i: { datasetId: small, ...entry } }, alice);
      const error = body.errors?.[0] as { extensions?: { code?: string; field?: string; details?: { field?: string } } } | undefined;
      expect(error?.extensions?.code, JSON.stringify(entry)).toBe("INVALID_INPUT");
      expect(JSON.stringify(error?.extensions), JSON.stringify(entry)).toContain(field);
    }
    const missing = await run({ datasetId: "nope", library: "cugraph", alg: "connected_components" });
    expect(missing.body.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
  });

  it("records a failure the tables cause (a node id that is not there) as FAILED with INVALID_INPUT", async () => {
    const started = await run({ datasetId: small, library: "cugraph", alg: "bfs", params: { start: "zz" } });
    const id = started.body.data?.runComputeJob.id as string;
    expect(started.body.errors).toBeUndefined();
    const events = (
      await subscribe(gw, alice, `subscription($id: ID!) { computeJobProgress(id: $id) { ${EVENT_FIELDS} } }`, { id }).ended
    ).map(progressOf);
    expect(events.at(-1)).toMatchObject({ status: "FAILED", errorCode: "INVALID_INPUT" });
  });

  it("ends a running job whose dataset is deleted, and tells those following it", async () => {
    const long = await run({ datasetId: big, label: "gh2", library: "igraph", alg: "gomory_hu_tree", directed: false });
    const id = long.body.data?.runComputeJob.id as string;
    const progress = subscribe(gw, alice, `subscription($id: ID!) { computeJobProgress(id: $id) { ${EVENT_FIELDS} } }`, { id });
    await progress.until((e) => progressOf(e)?.status === "RUNNING" && (progressOf(e)?.fraction ?? 0) > 0);
    const deleted = await gw.graphql(`mutation($id: ID!) { deleteDataset(id: $id) }`, { id: big }, alice);
    expect(deleted.body.errors).toBeUndefined();
    const events = (await progress.ended).map(progressOf);
    expect(events.at(-1)).toMatchObject({ status: "FAILED", errorCode: "NOT_FOUND" });
    expect((await job(id)).errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
  }, 60_000);
});

describe("compute jobs on one dataset, two workers free", () => {
  it("runs them one after the other, so each builds on the other's version and no column is lost", async () => {
    const gw = await createTestGateway("sqlite", { COMPUTE_JOB_CONCURRENCY: "2" });
    try {
      const { alice } = (await gw.users("alice")) as { alice: string };
      const datasetId = await csvEdgeDataset(gw, alice, bigGraphCsv(2_500, 10_000, 5));
      const slow = await gw.graphql<{ runComputeJob: { id: string } }>(
        RUN,
        { i: { datasetId, label: "bw", library: "igraph", alg: "betweenness", directed: false } },
        alice,
      );
      const fast = await gw.graphql<{ runComputeJob: { id: string } }>(
        RUN,
        { i: { datasetId, label: "cc", library: "cugraph", alg: "connected_components" } },
        alice,
      );
      const ids = [slow.body.data?.runComputeJob.id as string, fast.body.data?.runComputeJob.id as string];
      const ends = await Promise.all(
        ids.map(
          async (id) =>
            (await subscribe(gw, alice, `subscription($id: ID!) { computeJobProgress(id: $id) { ${EVENT_FIELDS} } }`, { id }).ended)
              .map(progressOf)
              .at(-1)?.status,
        ),
      );
      expect(ends).toEqual(["SUCCEEDED", "SUCCEEDED"]);
      const { body } = await gw.graphql<{ dataset: { tables: { nodes: { dtypes: Record<string, string> } } } }>(
        `query($id: ID!) { dataset(id: $id) { tables { nodes { dtypes } } } }`,
        { id: datasetId },
        alice,
      );
      expect(Object.keys(body.data?.dataset.tables.nodes.dtypes ?? {})).toEqual(expect.arrayContaining(["bw", "cc"]));
    } finally {
      await gw.close();
    }
  }, 90_000);
});

describe("compute jobs left by a stopped server", () => {
  it("runs again at the next start: queued ones, and running ones whose process of this host is gone", async () => {
    const gw = await createTestGateway("sqlite");
    try {
      const { alice } = (await gw.users("alice")) as { alice: string };
      const datasetId = await csvEdgeDataset(gw, alice, "s,d\na,b\nc,d\n");
      const other = await csvEdgeDataset(gw, alice, "s,d\na,b\n");
      const db = gw.gateway.services.db;
      const owner = (await db.user.findUniqueOrThrow({ where: { username: "alice" } })).id;
      // A process id that is not running here.
      let dead = 4_000_000;
      while (isAlive(dead)) dead--;
      const left = { datasetId, ownerId: owner, library: "cugraph", alg: "connected_components", params: "{}", directed: true };
      await db.computeJob.create({ data: { ...left, id: "leftqueued", label: "q" } });
      await db.computeJob.create({
        data: { ...left, id: "leftrunning", label: "r", status: "RUNNING", workerId: `${hostname()}:${dead}` },
      });
      // (One job runs on a dataset at a time: this one is on another.)
      await db.computeJob.create({
        data: { ...left, datasetId: other, id: "elsewhere", label: "e", status: "RUNNING", workerId: "another-host:1" },
      });

      const restarted = await createGateway(loadConfig(gw.env));
      try {
        const jobs = restarted.services.db.computeJob;
        for (let i = 0; i < 200; i++) {
          const done = await jobs.count({ where: { id: { in: ["leftqueued", "leftrunning"] }, status: "SUCCEEDED" } });
          if (done === 2) break;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        expect((await jobs.findUniqueOrThrow({ where: { id: "leftqueued" } })).status).toBe("SUCCEEDED");
        expect((await jobs.findUniqueOrThrow({ where: { id: "leftrunning" } })).status).toBe("SUCCEEDED");
        // Another host's job may still be running there: left alone.
        expect((await jobs.findUniqueOrThrow({ where: { id: "elsewhere" } })).status).toBe("RUNNING");
      } finally {
        await restarted.close();
      }
    } finally {
      await gw.close();
    }
  }, 60_000);
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

describe("compute jobs through BullMQ in a single gateway (REDIS_URL, the gateway's own worker)", () => {
  it("queues on Redis and runs the job in the gateway itself", async () => {
    const queueName = `compute-test-${process.pid}-${Date.now().toString(36)}`;
    const gw = await createTestGateway("sqlite", { REDIS_URL: "redis://127.0.0.1:6379", COMPUTE_QUEUE: queueName });
    try {
      const { alice } = (await gw.users("alice")) as { alice: string };
      const datasetId = await csvEdgeDataset(gw, alice, "s,d\na,b\nb,c\nd,e\n");
      const started = await gw.graphql<{ runComputeJob: { id: string } }>(
        RUN,
        { i: { datasetId, label: "wcc", library: "cugraph", alg: "weakly_connected_components" } },
        alice,
      );
      const id = started.body.data?.runComputeJob.id as string;
      const events = (
        await subscribe(gw, alice, `subscription($id: ID!) { computeJobProgress(id: $id) { ${EVENT_FIELDS} } }`, { id }).ended
      ).map(progressOf);
      expect(events.at(-1)).toMatchObject({ status: "SUCCEEDED" });
      // It went through the queue on Redis: BullMQ kept the finished entry under the queue's name.
      const { Queue } = await import("bullmq");
      const queue = new Queue(queueName, { connection: { url: "redis://127.0.0.1:6379" } });
      try {
        expect(await queue.getJobCounts("completed")).toEqual({ completed: 1 });
        await queue.obliterate({ force: true });
      } finally {
        await queue.close();
      }
    } finally {
      await gw.close();
    }
  }, 60_000);
});
