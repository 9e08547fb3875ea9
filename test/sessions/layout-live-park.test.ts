// A live layout paused longer than LAYOUT_PARK_SECONDS lets its thread go: it still reads PAUSED, its positions are
// the stored ones, START answers it unchanged, RESUME runs it on from there (the iteration count goes on), STOP ends it.
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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("a long-paused live layout", () => {
  let db: TestDatabase;
  let server: LiveServer;
  let token: string;
  let datasetId: string;

  beforeAll(async () => {
    db = await liveDatabase("sqlite");
    server = await startLive({ ...db.env, LAYOUT_PARK_SECONDS: "1" });
    token = await login(server.url);
    datasetId = await edgeDataset(server.url, token, ringWithChords(150, 80));
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await db?.drop();
  });

  it("lets its thread go and runs on from its stored positions on RESUME", async () => {
    const { url } = server;
    const sessionId = await openSession(url, token, datasetId);
    await control(url, token, sessionId, "START", { libraries: ["cugraph"], alg: "force_atlas2", params: { max_iter: 1_000_000 } });
    const client = await streamFrames(url, sessionId, bearer(token));
    try {
      await client.next((f) => f.iteration > 3);
      await control(url, token, sessionId, "PAUSE");
      const paused = await client.next((f) => f.state === "PAUSED");
      await sleep(2_000);
      const job = await layoutJob(url, token, sessionId);
      expect(job).toMatchObject({ state: "PAUSED", iteration: paused.iteration, error: null });
      // No instance holds it any more.
      expect((await server.services.db.sessionLayoutJob.findUnique({ where: { sessionId } }))?.instanceId).toBeNull();
      // START answers the paused job; a page opening now draws its stored positions.
      expect((await control(url, token, sessionId, "START")).data.controlSessionLayout.state).toBe("PAUSED");
      const late = await streamFrames(url, sessionId, bearer(token));
      const first = await late.next(() => true, 0, 5_000);
      late.close();
      expect(first).toMatchObject({ state: "PAUSED", iteration: paused.iteration });
      expect(first.positions).toEqual(paused.positions);

      const count = client.frames.length;
      const resumed = await control(url, token, sessionId, "RESUME");
      expect(resumed.data.controlSessionLayout).toMatchObject({ state: "RUNNING", iteration: paused.iteration });
      const again = await client.next(() => true, count);
      expect(again.iteration).toBe(paused.iteration);
      expect(again.positions).toEqual(paused.positions);
      await client.next((f) => f.iteration > paused.iteration, count);

      await control(url, token, sessionId, "PAUSE");
      await sleep(2_000);
      const stopped = await control(url, token, sessionId, "STOP");
      expect(stopped.data.controlSessionLayout.state).toBe("STOPPED");
    } finally {
      client.close();
    }
  });
});
