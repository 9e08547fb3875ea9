// Live session layouts on two gateway instances sharing Postgres and Redis: a page on instance B sees the frames
// of a job running on A, controls it through B, and a job whose instance stopped beating counts as dead.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestDatabase } from "../helpers/databases.ts";
import { bearer } from "../helpers/http.ts";
import {
  control,
  edgeDataset,
  type LiveServer,
  layoutJob,
  liveDatabase,
  login,
  openSession,
  ringWithChords,
  startLive,
  streamFrames,
} from "./layout-live-helpers.ts";

const N = 200;
const LONG = { libraries: ["cugraph"], alg: "force_atlas2", params: { max_iter: 1_000_000 } };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("live session layout across two instances (Postgres, Redis)", () => {
  let db: TestDatabase;
  let a: LiveServer;
  let b: LiveServer;
  let token: string;
  let datasetId: string;

  beforeAll(async () => {
    db = await liveDatabase("postgres");
    const env = { ...db.env, REDIS_URL: "redis://127.0.0.1:6379", LAYOUT_FRAME_MS: "50" };
    a = await startLive(env);
    b = await startLive(env);
    token = await login(a.url);
    datasetId = await edgeDataset(a.url, token, ringWithChords(N, 100));
  }, 90_000);
  afterAll(async () => {
    await Promise.allSettled([a?.stop(), b?.stop()]);
    await db?.drop();
  });

  it("streams a job running on A to a page on B, which pauses, changes and stops it", async () => {
    const sessionId = await openSession(a.url, token, datasetId);
    const onB = await streamFrames(b.url, sessionId, bearer(token));
    try {
      const started = await control(a.url, token, sessionId, "START", LONG);
      expect(started.data.controlSessionLayout.state).toBe("RUNNING");
      const first = await onB.next((f) => f.state === "RUNNING" && f.iteration > 0);
      expect(first.nodeCount).toBe(N);
      expect(first.positions.every(Number.isFinite)).toBe(true);
      await onB.next((f) => f.iteration > first.iteration);

      // A page opening on B while it runs gets a frame at once (asked of A).
      const late = await streamFrames(b.url, sessionId, bearer(token));
      await late.next(() => true, 0, 5_000);
      late.close();

      const paused = await control(b.url, token, sessionId, "PAUSE");
      expect(paused.data.controlSessionLayout.state).toBe("PAUSED");
      const pauseFrame = await onB.next((f) => f.state === "PAUSED");
      await sleep(300);
      const count = onB.frames.length;
      await sleep(400);
      expect(onB.frames.length).toBe(count);
      expect((await layoutJob(a.url, token, sessionId)).state).toBe("PAUSED");

      const changed = await control(b.url, token, sessionId, "SET_PARAMS", { params: { scaling_ratio: 7 } });
      expect(changed.data.controlSessionLayout.params.scaling_ratio).toBe(7);
      expect((await layoutJob(a.url, token, sessionId)).params.scaling_ratio).toBe(7);

      const resumed = await control(b.url, token, sessionId, "RESUME");
      expect(resumed.data.controlSessionLayout.state).toBe("RUNNING");
      await onB.next((f) => f.state === "RUNNING" && f.iteration > pauseFrame.iteration, count);

      const stopped = await control(b.url, token, sessionId, "STOP");
      expect(stopped.data.controlSessionLayout.state).toBe("STOPPED");
      const last = await onB.next((f) => f.state === "STOPPED");
      const response = await fetch(`${b.url}/graph/data/${sessionId}/layout`, { headers: bearer(token) });
      const bytes = new Uint8Array(await response.arrayBuffer());
      const stored = new Float32Array(bytes.byteLength / 4);
      new Uint8Array(stored.buffer).set(bytes);
      expect(stored).toEqual(last.positions);
    } finally {
      onB.close();
    }
  });

  it("streams to a page that opens on B after the job ran a while on A with nobody else watching", async () => {
    const sessionId = await openSession(a.url, token, datasetId);
    await control(a.url, token, sessionId, "START", LONG);
    await sleep(1_500);
    const onB = await streamFrames(b.url, sessionId, bearer(token));
    try {
      const first = await onB.next(() => true, 0, 5_000);
      const later = await onB.next((f) => f.iteration > first.iteration + 2, 1);
      expect(later.state).toBe("RUNNING");
    } finally {
      onB.close();
      await control(b.url, token, sessionId, "STOP");
    }
  });

  it("restarts on START a RUNNING job whose instance stopped beating for 10 s", async () => {
    const sessionId = await openSession(a.url, token, datasetId);
    const client = new pg.Client({ connectionString: db.env.DATABASE_URL });
    await client.connect();
    try {
      await client.query(
        `INSERT INTO session_layout_jobs (session_id, state, library, algorithm, params, iteration, max_iter, node_count, instance_id, heartbeat_at, updated_at)
         VALUES ($1, 'RUNNING', 'cugraph', 'force_atlas2', '{}', 17, 500, $2, 'gone', now() - interval '11 seconds', now())`,
        [sessionId, N],
      );
      // No thread runs it: it reads STOPPED, saying why.
      const shown = await layoutJob(b.url, token, sessionId);
      expect(shown.state).toBe("STOPPED");
      expect(shown.error).toMatch(/stopped/);
      // Alive (heartbeat fresh) it would be answered unchanged; this one is dead.
      const started = await control(b.url, token, sessionId, "START", LONG);
      expect(started.data.controlSessionLayout).toMatchObject({ state: "RUNNING", iteration: 0, maxIter: 1_000_000 });
      const onA = await streamFrames(a.url, sessionId, bearer(token));
      try {
        await onA.next((f) => f.state === "RUNNING" && f.iteration > 0);
      } finally {
        onA.close();
      }
      const row = await client.query("SELECT instance_id FROM session_layout_jobs WHERE session_id = $1", [sessionId]);
      expect(row.rows[0]?.instance_id).not.toBe("gone");
    } finally {
      await client.end();
      await control(a.url, token, sessionId, "STOP");
    }
  });
});
