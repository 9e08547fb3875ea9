// The query pool hands a worker several jobs at once: a job past its limit while running ends the thread (the
// jobs queued behind it go to a new one), and a job past its limit while still queued is answered at once and
// skipped by the worker.
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pl from "nodejs-polars";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createQueryPool } from "../../src/gfql/surface/query-pool.ts";
import type { QueryJob } from "../../src/gfql/surface/run-query.ts";

describe("query pool", () => {
  let dir: string;
  let job: (query: unknown, timeoutMs?: number) => QueryJob;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "query-pool-"));
    // A path 0 -> 1 -> ... -> 19999: walking it to a fixed point takes one polars round per node.
    const n = 20_000;
    const ids = Array.from({ length: n }, (_, i) => i);
    pl.DataFrame([pl.Series("id", ids, pl.Int64)]).writeIPC(path.join(dir, "nodes.arrow"));
    pl.DataFrame([pl.Series("s", ids.slice(0, -1), pl.Int64), pl.Series("d", ids.slice(1), pl.Int64)]).writeIPC(
      path.join(dir, "edges.arrow"),
    );
    job = (query, timeoutMs) => ({
      nodesPath: path.join(dir, "nodes.arrow"),
      edgesPath: path.join(dir, "edges.arrow"),
      nodeId: "id",
      source: "s",
      destination: "d",
      query,
      output: "shape",
      limit: 0,
      timeoutMs,
    });
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("stops a running job, skips a queued one past its limit, and still answers the rest", async () => {
    const pool = createQueryPool({ size: 1, timeoutMs: 60_000, cacheBytes: 64 << 20 });
    try {
      const walk = [
        { type: "Node", filter_dict: { id: 0 } },
        { type: "Edge", direction: "forward", to_fixed_point: true },
      ];
      const quick = [
        { type: "Node", filter_dict: { id: { type: "LT", val: 10 } } },
        { type: "Edge", direction: "forward" },
      ];
      const started = performance.now();
      const slow = pool.run(job(walk, 1_500));
      const queuedShort = pool.run(job(quick, 300));
      const queuedLong = pool.run(job(quick));
      // the short one times out while the walk still runs ahead of it in the same worker
      await expect(queuedShort).rejects.toMatchObject({ code: "TIMEOUT" });
      expect(performance.now() - started).toBeLessThan(1_500);
      await expect(slow).rejects.toMatchObject({ code: "TIMEOUT" });
      // the walk's thread was ended; the job behind it ran on a new one: nodes 0..10, edges 0->1 .. 9->10
      await expect(queuedLong).resolves.toMatchObject({ nodeCount: 11, edgeCount: 10 });
    } finally {
      await pool.close();
    }
  });
});
