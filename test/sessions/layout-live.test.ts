// Live session layouts on one server: START streams ForceAtlas2 frames to a page-less WebSocket client; PAUSE,
// RESUME, SET_PARAMS and STOP through GraphQL; positions stored on STOP and DONE (DONE also as the dataset's
// default); one job for two STARTs; strangers refused.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestDatabase } from "../helpers/databases.ts";
import { bearer, firstEvent } from "../helpers/http.ts";
import {
  control,
  createUser,
  edgeDataset,
  type LiveServer,
  layoutJob,
  liveDatabase,
  login,
  openSession,
  ringWithChords,
  startLive,
  streamFrames,
  waitForJob,
} from "./layout-live-helpers.ts";

const N = 300;
/** Long enough to pause and change mid-run. */
const LONG = { libraries: ["cugraph"], alg: "force_atlas2", params: { max_iter: 1_000_000 } };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function storedLayout(url: string, token: string, sessionId: string): Promise<{ status: number; values: Float32Array }> {
  const response = await fetch(`${url}/graph/data/${sessionId}/layout`, { headers: bearer(token) });
  const bytes = new Uint8Array(await response.arrayBuffer());
  const values = new Float32Array(bytes.byteLength / 4);
  new Uint8Array(values.buffer).set(bytes);
  return { status: response.status, values };
}

describe("live session layout on one server", () => {
  let db: TestDatabase;
  let server: LiveServer;
  let url: string;
  let token: string;
  let datasetId: string;

  beforeAll(async () => {
    db = await liveDatabase("sqlite");
    server = await startLive({ ...db.env, LAYOUT_FRAME_MS: "50" });
    url = server.url;
    token = await login(url);
    datasetId = await edgeDataset(url, token, ringWithChords(N, 150));
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await db?.drop();
  });

  it("streams frames with the header, finite positions and growing iterations; the job reads RUNNING", async () => {
    const sessionId = await openSession(url, token, datasetId);
    expect(await layoutJob(url, token, sessionId)).toBeNull();
    const client = await streamFrames(url, sessionId, bearer(token));
    try {
      const started = await control(url, token, sessionId, "START", LONG);
      expect(started.errors).toBeUndefined();
      expect(started.data.controlSessionLayout).toMatchObject({
        state: "RUNNING",
        library: "cugraph",
        algorithm: "force_atlas2",
        maxIter: 1_000_000,
        nodeCount: N,
      });
      // defaults filled
      expect(started.data.controlSessionLayout.params).toMatchObject({ max_iter: 1_000_000, gravity: 1, scaling_ratio: 2 });
      await client.next(() => client.frames.length >= 4);
      const frames = client.frames.slice(0, 4);
      for (const frame of frames) {
        expect(frame).toMatchObject({ nodeCount: N, dims: 2, maxIter: 1_000_000, state: "RUNNING" });
        expect(frame.positions.every(Number.isFinite)).toBe(true);
      }
      for (let i = 1; i < frames.length; i++) {
        expect((frames[i] as { seq: number }).seq).toBeGreaterThan((frames[i - 1] as { seq: number }).seq);
        expect((frames[i] as { iteration: number }).iteration).toBeGreaterThan((frames[i - 1] as { iteration: number }).iteration);
      }
      // the positions move
      expect(frames[3]?.positions).not.toEqual(frames[0]?.positions);
      expect((await layoutJob(url, token, sessionId)).state).toBe("RUNNING");
    } finally {
      client.close();
      await control(url, token, sessionId, "STOP");
    }
  });

  it("pauses (frames stop, the positions are stored) and resumes (frames again)", async () => {
    const sessionId = await openSession(url, token, datasetId);
    await control(url, token, sessionId, "START", LONG);
    const client = await streamFrames(url, sessionId, bearer(token));
    try {
      await client.next((f) => f.state === "RUNNING" && f.iteration > 0);
      const paused = await control(url, token, sessionId, "PAUSE");
      expect(paused.data.controlSessionLayout.state).toBe("PAUSED");
      const pauseFrame = await client.next((f) => f.state === "PAUSED");
      await sleep(200);
      const count = client.frames.length;
      await sleep(400);
      expect(client.frames.length).toBe(count);
      const stored = await storedLayout(url, token, sessionId);
      expect(stored.status).toBe(200);
      expect(stored.values).toEqual(pauseFrame.positions);

      const resumed = await control(url, token, sessionId, "RESUME");
      expect(resumed.data.controlSessionLayout.state).toBe("RUNNING");
      const again = await client.next((f) => f.state === "RUNNING" && f.iteration > pauseFrame.iteration, count);
      expect(again.iteration).toBeGreaterThan(pauseFrame.iteration);
    } finally {
      client.close();
      await control(url, token, sessionId, "STOP");
    }
  });

  it("changes live parameters, seen in layoutJob and by another client's subscription; others are refused with the field", async () => {
    const sessionId = await openSession(url, token, datasetId);
    await control(url, token, sessionId, "START", LONG);
    try {
      const event = await firstEvent(url, token, `subscription { vizSessionChanged(id: "${sessionId}") { kind } }`, () =>
        control(url, token, sessionId, "SET_PARAMS", { params: { gravity: 5, lin_log_mode: true } }),
      );
      expect(event).toEqual({ data: { vizSessionChanged: { kind: "LAYOUT_JOB" } } });
      const job = await layoutJob(url, token, sessionId);
      expect(job.params).toMatchObject({ gravity: 5, lin_log_mode: true, scaling_ratio: 2 });
      expect(job.state).toBe("RUNNING");

      const refused = await control(url, token, sessionId, "SET_PARAMS", { params: { random_state: 3 } });
      expect(refused.errors?.[0]?.extensions).toMatchObject({ code: "INVALID_INPUT", details: { field: "layout.params.random_state" } });
      const bad = await control(url, token, sessionId, "SET_PARAMS", { params: { gravity: "strong" } });
      expect(bad.errors?.[0]?.extensions).toMatchObject({ code: "INVALID_INPUT", details: { field: "layout.params.gravity" } });
    } finally {
      await control(url, token, sessionId, "STOP");
    }
  });

  it("starts from the session's stored layout when it has one, else from the layout's seeded start", async () => {
    const placed = Float32Array.from({ length: N * 2 }, (_, i) => (i % 2 === 0 ? i : -i) / 10);
    const withLayout = await openSession(url, token, datasetId);
    const put = await fetch(`${url}/graph/data/${withLayout}/layout`, {
      method: "PUT",
      headers: bearer(token),
      body: new Uint8Array(placed.buffer),
    });
    expect(put.status).toBe(204);
    const seededA = await openSession(url, token, datasetId);
    const seededB = await openSession(url, token, datasetId);
    const firstFrame = async (sessionId: string) => {
      const client = await streamFrames(url, sessionId, bearer(token));
      try {
        await control(url, token, sessionId, "START", LONG);
        return await client.next((f) => f.iteration === 0);
      } finally {
        client.close();
        await control(url, token, sessionId, "STOP");
      }
    };
    expect((await firstFrame(withLayout)).positions).toEqual(placed);
    // Start positions the request names win over the stored layout.
    const client = await streamFrames(url, withLayout, bearer(token));
    try {
      await control(url, token, withLayout, "START", { ...LONG, params: { ...LONG.params, pos_list: [{ vertex: 5, x: 123, y: 456 }] } });
      const named = await client.next((f) => f.iteration === 0);
      expect(named.positions).not.toEqual(placed);
      const at = Array.from({ length: N }, (_, i) => [named.positions[i * 2], named.positions[i * 2 + 1]]);
      expect(at).toContainEqual([123, 456]);
    } finally {
      client.close();
      await control(url, token, withLayout, "STOP");
    }
    const a = await firstFrame(seededA);
    const b = await firstFrame(seededB);
    expect(a.positions).toEqual(b.positions);
    expect(a.positions).not.toEqual(placed);
  });

  it("without Redis, takes a job an earlier process held as ended at once, and START runs it anew", async () => {
    const sessionId = await openSession(url, token, datasetId);
    await server.services.db.sessionLayoutJob.create({
      data: {
        sessionId,
        state: "RUNNING",
        library: "cugraph",
        algorithm: "force_atlas2",
        params: "{}",
        iteration: 9,
        maxIter: 500,
        nodeCount: N,
        instanceId: "an-earlier-process",
      },
    });
    const shown = await layoutJob(url, token, sessionId);
    expect(shown.state).toBe("STOPPED");
    const started = await control(url, token, sessionId, "START", LONG);
    expect(started.data.controlSessionLayout).toMatchObject({ state: "RUNNING", iteration: 0, maxIter: 1_000_000 });
    await control(url, token, sessionId, "STOP");
  });

  it("starts one job for two STARTs at once", async () => {
    const sessionId = await openSession(url, token, datasetId);
    const [a, b] = await Promise.all([control(url, token, sessionId, "START", LONG), control(url, token, sessionId, "START")]);
    try {
      expect(a.data.controlSessionLayout.updatedAt).toBe(b.data.controlSessionLayout.updatedAt);
      expect(b.data.controlSessionLayout.maxIter).toBe(1_000_000);
      const later = await control(url, token, sessionId, "START", { libraries: ["cugraph"], alg: "force_atlas2", params: { max_iter: 5 } });
      expect(later.data.controlSessionLayout.maxIter).toBe(1_000_000);
    } finally {
      await control(url, token, sessionId, "STOP");
    }
  });

  it("stores the positions on STOP and answers them to GET .../layout", async () => {
    const sessionId = await openSession(url, token, datasetId);
    await control(url, token, sessionId, "START", LONG);
    const client = await streamFrames(url, sessionId, bearer(token));
    try {
      await client.next((f) => f.iteration > 2);
      const stopped = await control(url, token, sessionId, "STOP");
      expect(stopped.data.controlSessionLayout.state).toBe("STOPPED");
      const last = await client.next((f) => f.state === "STOPPED");
      const stored = await storedLayout(url, token, sessionId);
      expect(stored.values).toEqual(last.positions);
      expect(stored.values.length).toBe(N * 2);
    } finally {
      client.close();
    }
  });

  it("runs to max_iter (DONE), stores the session's layout and the dataset's default; a late viewer and a new session get it", async () => {
    const own = await edgeDataset(url, token, ringWithChords(120, 60, 11));
    const sessionId = await openSession(url, token, own);
    const started = await control(url, token, sessionId, "START", {
      libraries: ["cugraph"],
      alg: "force_atlas2",
      params: { max_iter: 40 },
    });
    expect(started.data.controlSessionLayout.maxIter).toBe(40);
    const done = await waitForJob(url, token, sessionId, (job) => job.state === "DONE");
    expect(done.iteration).toBe(40);
    const stored = await storedLayout(url, token, sessionId);
    expect(stored.values.length).toBe(240);
    expect(stored.values.every(Number.isFinite)).toBe(true);

    const late = await streamFrames(url, sessionId, bearer(token));
    try {
      const first = await late.next(() => true, 0, 5_000);
      expect(first).toMatchObject({ state: "DONE", iteration: 40, maxIter: 40, nodeCount: 120 });
      expect(first.positions).toEqual(stored.values);
    } finally {
      late.close();
    }

    const next = await openSession(url, token, own);
    const fallback = await storedLayout(url, token, next);
    expect(fallback.status).toBe(200);
    expect(fallback.values).toEqual(stored.values);
  });

  it("takes the browser's session cookie from the service's own pages, not from another site's", async () => {
    const sessionId = await openSession(url, token, datasetId);
    const signIn = await fetch(`${url}/login`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ username: "admin", password: "admin-password-1", next: "/" }).toString(),
      redirect: "manual",
    });
    const cookie = (signIn.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    expect(cookie).toMatch(/^gw_session=/);
    const host = new URL(url).host;
    const own = await streamFrames(url, sessionId, { cookie, origin: `http://${host}` });
    own.close();
    await expect(streamFrames(url, sessionId, { cookie, origin: "http://elsewhere.example" })).rejects.toThrow("refused: 403");
  });

  it("runs any registry layout that runs step by step: igraph's graphopt to its niter", async () => {
    // A dataset of its own: DONE leaves its default layout on the dataset.
    const sessionId = await openSession(url, token, await edgeDataset(url, token, ringWithChords(N, 150, 3)));
    const client = await streamFrames(url, sessionId, bearer(token));
    try {
      const started = await control(url, token, sessionId, "START", { libraries: ["igraph"], alg: "graphopt", params: { niter: 25 } });
      expect(started.data.controlSessionLayout).toMatchObject({ state: "RUNNING", library: "igraph", algorithm: "graphopt", maxIter: 25 });
      const done = await client.next((f) => f.state === "DONE");
      expect(done).toMatchObject({ iteration: 25, maxIter: 25, nodeCount: N, dims: 2 });
      expect(done.positions.every(Number.isFinite)).toBe(true);
    } finally {
      client.close();
    }
  });

  it("moves the stop point when a live change gives the layout's own iteration count (igraph fr's niter)", async () => {
    const sessionId = await openSession(url, token, datasetId);
    const client = await streamFrames(url, sessionId, bearer(token));
    try {
      await control(url, token, sessionId, "START", { libraries: ["igraph"], alg: "fr", params: { niter: 1_000_000 } });
      await control(url, token, sessionId, "PAUSE");
      const changed = await control(url, token, sessionId, "SET_PARAMS", { params: { niter: 40 } });
      expect(changed.data.controlSessionLayout).toMatchObject({ maxIter: 40 });
      await control(url, token, sessionId, "RESUME");
      const done = await client.next((f) => f.state === "DONE");
      expect(done).toMatchObject({ iteration: 40, maxIter: 40 });
    } finally {
      client.close();
    }
  });

  it("refuses the stream and the mutation to a stranger, and the stream without credentials", async () => {
    const sessionId = await openSession(url, token, datasetId);
    const admin = await login(url);
    const stranger = await createUser(url, admin, "stranger");
    await expect(streamFrames(url, sessionId, bearer(stranger))).rejects.toThrow("refused: 404");
    await expect(streamFrames(url, sessionId, {})).rejects.toThrow("refused: 401");
    const answer = await control(url, stranger, sessionId, "START");
    expect(answer.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    expect(await layoutJob(url, token, sessionId)).toBeNull();
  });

  it("reads FAILED, with the reason, when the layout cannot start on the tables (a pos_list vertex no node has)", async () => {
    const sessionId = await openSession(url, token, datasetId);
    const started = await control(url, token, sessionId, "START", {
      libraries: ["cugraph"],
      alg: "force_atlas2",
      params: { pos_list: [{ vertex: 99_999, x: 1, y: 2 }] },
    });
    expect(started.data.controlSessionLayout.state).toBe("RUNNING");
    const failed = await waitForJob(url, token, sessionId, (job) => job.state === "FAILED");
    expect(failed.error).toMatch(/pos_list/);
    // It can be started again with a layout that runs.
    const again = await control(url, token, sessionId, "START", LONG);
    expect(again.data.controlSessionLayout).toMatchObject({ state: "RUNNING", error: null });
    await control(url, token, sessionId, "STOP");
  });

  it("refuses a layout that cannot run step by step, naming the field", async () => {
    const sessionId = await openSession(url, token, datasetId);
    const answer = await control(url, token, sessionId, "START", { libraries: ["igraph"], alg: "circle" });
    expect(answer.errors?.[0]?.extensions).toMatchObject({ code: "INVALID_INPUT", details: { field: "layout.alg" } });
    const none = await control(url, token, sessionId, "PAUSE");
    expect(none.errors?.[0]?.extensions?.code).toBe("CONFLICT");
  });
});
