// A live layout across two instances through a Redis outage: a command for the instance running the job fails at
// once (UNAVAILABLE) while Redis is away, and once it is back frames reach pages on the other instance again,
// including a page that opened during the outage.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestDatabase } from "../helpers/databases.ts";
import { bearer } from "../helpers/http.ts";
import { startTestRedis, type TestRedis } from "../helpers/redis-server.ts";
import {
  control,
  edgeDataset,
  type LiveServer,
  liveDatabase,
  login,
  openSession,
  ringWithChords,
  startLive,
  streamFrames,
} from "./layout-live-helpers.ts";

const N = 200;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const LONG = { libraries: ["cugraph"], alg: "force_atlas2", params: { max_iter: 1_000_000 } };

describe("live session layout across two instances through a Redis outage", () => {
  let redis: TestRedis;
  let db: TestDatabase;
  let a: LiveServer;
  let b: LiveServer;
  let token: string;
  let datasetId: string;

  beforeAll(async () => {
    redis = await startTestRedis();
    db = await liveDatabase("postgres");
    const env = { ...db.env, REDIS_URL: redis.url, LAYOUT_FRAME_MS: "50" };
    a = await startLive(env);
    b = await startLive(env);
    token = await login(a.url);
    datasetId = await edgeDataset(a.url, token, ringWithChords(N, 100));
  }, 90_000);
  afterAll(async () => {
    await Promise.allSettled([a?.stop(), b?.stop()]);
    await redis?.kill();
    await db?.drop();
  });

  it("refuses commands across instances while Redis is away, and streams to B's pages again once it is back", async () => {
    const sessionId = await openSession(a.url, token, datasetId);
    const onA = await streamFrames(a.url, sessionId, bearer(token));
    let onB: Awaited<ReturnType<typeof streamFrames>> | undefined;
    try {
      expect((await control(a.url, token, sessionId, "START", LONG)).data.controlSessionLayout.state).toBe("RUNNING");
      await onA.next((f) => f.state === "RUNNING" && f.iteration > 0);

      await redis.kill();
      // B cannot reach the instance running the job: a clear 503 code, not a wait for an answer that cannot come.
      const paused = await control(b.url, token, sessionId, "PAUSE");
      expect(paused.errors?.[0]?.extensions?.code).toBe("UNAVAILABLE");
      // On A, which runs it, the job keeps answering.
      expect((await control(a.url, token, sessionId, "SET_PARAMS", { params: { scaling_ratio: 3 } })).errors).toBeUndefined();
      // The session's first page on B opens during the outage: B's subscription to its frames fails (the outage
      // lasts past ioredis' retries of the command).
      onB = await streamFrames(b.url, sessionId, bearer(token));
      await sleep(2_500);

      await redis.start();
      const first = await onB.next((f) => f.state === "RUNNING", 0, 30_000);
      await onB.next((f) => f.iteration > first.iteration, 0, 30_000);
      // And commands reach A again.
      expect((await control(b.url, token, sessionId, "PAUSE")).data.controlSessionLayout.state).toBe("PAUSED");
    } finally {
      onA.close();
      onB?.close();
      await control(a.url, token, sessionId, "STOP");
    }
  }, 120_000);
});
