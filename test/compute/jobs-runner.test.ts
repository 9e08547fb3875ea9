// The job runner on its own, over a real database, with the dataset step given by each test: runs again when the
// dataset moved on under it (CONFLICT), sees a cancel request that only reached the row, leaves taken jobs alone.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createJobEvents } from "../../src/compute/jobs/job-events.ts";
import { createJobRunner, type RunOnDataset } from "../../src/compute/jobs/job-runner.ts";
import { AppError } from "../../src/errors/app-error.ts";
import { createLogger } from "../../src/server/logger.ts";
import type { Db } from "../../src/store/prisma.ts";
import { csvEdgeDataset } from "../helpers/datasets.ts";
import { createTestGateway, type TestGateway } from "../helpers/gateway.ts";

describe("the compute job runner", () => {
  let gw: TestGateway;
  let db: Db;
  let datasetId: string;
  let ownerId: number;
  let next = 0;

  beforeAll(async () => {
    gw = await createTestGateway("sqlite");
    const { alice } = (await gw.users("alice")) as { alice: string };
    datasetId = await csvEdgeDataset(gw, alice, "s,d\na,b\n");
    db = gw.gateway.services.db;
    ownerId = (await db.user.findUniqueOrThrow({ where: { username: "alice" } })).id;
  });
  afterAll(async () => {
    await gw?.close();
  });

  async function queued(): Promise<string> {
    const id = `runner${next++}`;
    await db.computeJob.create({ data: { id, datasetId, ownerId, label: "x", library: "cugraph", alg: "connected_components" } });
    return id;
  }

  function runner(runOnDataset: RunOnDataset) {
    const told: string[] = [];
    const r = createJobRunner({
      db,
      events: createJobEvents(undefined),
      logger: createLogger("silent"),
      runOnDataset,
      onDatasetChanged: async (id) => {
        told.push(id);
      },
      progressIntervalMs: 20,
      cancelPollMs: 50,
    });
    return { run: r.run, told };
  }

  it("runs again when another job stored a version meanwhile, and tells the sessions once", async () => {
    let calls = 0;
    const { run, told } = runner(async () => {
      calls++;
      if (calls < 3) throw new AppError("CONFLICT", "the dataset moved on");
      return { dataVersion: "v3" };
    });
    const id = await queued();
    expect(await run(id)).toBe("SUCCEEDED");
    expect(calls).toBe(3);
    expect(told).toEqual([datasetId]);
    expect(await db.computeJob.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: "SUCCEEDED", dataVersion: "v3", fraction: 1 });
  });

  it("gives up after a few conflicts, as FAILED with CONFLICT", async () => {
    const { run, told } = runner(async () => {
      throw new AppError("CONFLICT", "the dataset moved on");
    });
    const id = await queued();
    expect(await run(id)).toBe("FAILED");
    expect(told).toEqual([]);
    expect(await db.computeJob.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: "FAILED", errorCode: "CONFLICT" });
  });

  it("stops on a cancel request that reached only the row (its event lost), and records the progress it made", async () => {
    let id = "";
    const { run } = runner(async ({ signal, onProgress }) => {
      onProgress({ phase: "looping", iteration: 1, fraction: 0.25 });
      // The request lands in the row directly: no event is published.
      await db.computeJob.update({ where: { id }, data: { cancelRequested: true } });
      await new Promise((_resolve, reject) => {
        if (signal.aborted) reject(new Error("aborted"));
        signal.addEventListener("abort", () => reject(new Error("aborted")), { once: true });
      });
      return { dataVersion: "never" };
    });
    id = await queued();
    expect(await run(id)).toBe("CANCELLED");
    expect(await db.computeJob.findUniqueOrThrow({ where: { id } })).toMatchObject({
      status: "CANCELLED",
      dataVersion: null,
      iteration: 1,
      fraction: 0.25,
    });
  });

  it("leaves alone a job that is not queued (cancelled, or taken by another worker)", async () => {
    let calls = 0;
    const { run } = runner(async () => {
      calls++;
      return { dataVersion: "v" };
    });
    const cancelled = await queued();
    await db.computeJob.update({ where: { id: cancelled }, data: { status: "CANCELLED", cancelRequested: true } });
    const taken = await queued();
    await db.computeJob.update({ where: { id: taken }, data: { status: "RUNNING", workerId: "elsewhere:1" } });
    expect(await run(cancelled)).toBeNull();
    expect(await run(taken)).toBeNull();
    expect(calls).toBe(0);
    // Unless the queue says its worker is gone: then it is taken over.
    expect(await run(taken, { takeOver: true })).toBe("SUCCEEDED");
    expect(calls).toBe(1);
  });
});
