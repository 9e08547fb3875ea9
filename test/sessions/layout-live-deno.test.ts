// The live layout stream under Deno 2 (`deno task start`, the same entry): the worker thread runs, frames stream on
// the WebSocket, the finished layout is stored.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";
import { ADMIN } from "../helpers/gateway.ts";
import { bearer } from "../helpers/http.ts";
import { findDeno, type ServerProcess, startServer } from "../helpers/server-process.ts";
import { control, edgeDataset, login, openSession, ringWithChords, streamFrames, waitForJob } from "./layout-live-helpers.ts";

const deno = findDeno();
if (!deno && process.env.CI) throw new Error("CI must provide Deno (node_modules/.bin/deno from npm ci, or DENO_BIN)");

describe.skipIf(!deno)("live session layout under deno task start", () => {
  let db: TestDatabase;
  let server: ServerProcess;
  let token: string;

  beforeAll(async () => {
    db = await createTestDatabase("sqlite");
    server = await startServer(
      { ...db.env, ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, COMPUTE_BACKEND: "cpu" },
      "deno",
    );
    token = await login(server.url);
  }, 90_000);
  afterAll(async () => {
    await server?.stop("SIGKILL");
    await db?.drop();
  });

  it("streams ForceAtlas2 frames to a WebSocket client and stores the finished layout", async () => {
    const datasetId = await edgeDataset(server.url, token, ringWithChords(80, 40));
    const sessionId = await openSession(server.url, token, datasetId);
    const client = await streamFrames(server.url, sessionId, bearer(token));
    try {
      const started = await control(server.url, token, sessionId, "START", {
        libraries: ["cugraph"],
        alg: "force_atlas2",
        params: { max_iter: 60 },
      });
      expect(started.errors).toBeUndefined();
      const done = await client.next((f) => f.state === "DONE", 0, 60_000);
      expect(done).toMatchObject({ nodeCount: 80, dims: 2, iteration: 60, maxIter: 60 });
      expect(done.positions.every(Number.isFinite)).toBe(true);
      await waitForJob(server.url, token, sessionId, (job) => job.state === "DONE");
      const stored = await fetch(`${server.url}/graph/data/${sessionId}/layout`, { headers: bearer(token) });
      expect(new Uint8Array(await stored.arrayBuffer())).toEqual(new Uint8Array(done.positions.buffer));
    } finally {
      client.close();
    }
  });
});
