// The CPU backend's kernel pools (pagerank steps, betweenness and distance sources split across threads) answer
// what the single-thread kernels answer; forced on small graphs with COMPUTE_POOL_MIN_WORK=0.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cugraphBetweenness, cugraphEdgeBetweenness, igraphBetweenness } from "../../src/compute/algorithms/centrality/betweenness.ts";
import { igraphCloseness, igraphHarmonic } from "../../src/compute/algorithms/centrality/distances.ts";
import { cugraphPagerank, igraphPagerank } from "../../src/compute/algorithms/centrality/pagerank.ts";
import { poolCounters } from "../../src/compute/algorithms/centrality/threads.ts";
import type { AlgorithmEntry } from "../../src/compute/types.ts";
import { asCompute, column, expectClose, fixture, runEntry } from "./centrality-fixtures.ts";

const saved = { threads: process.env.COMPUTE_THREADS, work: process.env.COMPUTE_POOL_MIN_WORK };
function restore(name: "COMPUTE_THREADS" | "COMPUTE_POOL_MIN_WORK", value: string | undefined) {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}

/** The entry's first column with one thread, then with a pool of 3 forced on. */
function bothWays(entry: AlgorithmEntry, params: Record<string, unknown>, directed: boolean, weighted = false) {
  const g = fixture(51, 300, 900, { isolated: 2, loops: 2, multi: 3 });
  const graph = asCompute(g, directed, weighted);
  process.env.COMPUTE_THREADS = "1";
  const one = column(runEntry(entry, graph, params, "x"), "x");
  process.env.COMPUTE_THREADS = "3";
  process.env.COMPUTE_POOL_MIN_WORK = "0";
  const before = poolCounters.threadsStarted;
  const pooled = column(runEntry(entry, graph, params, "x"), "x");
  expect(poolCounters.threadsStarted - before, `${entry.name} ran on a pool`).toBe(2);
  delete process.env.COMPUTE_POOL_MIN_WORK;
  return { one, pooled };
}

describe("kernel pools", () => {
  beforeAll(() => {
    delete process.env.COMPUTE_POOL_MIN_WORK;
  });
  afterAll(() => {
    restore("COMPUTE_THREADS", saved.threads);
    restore("COMPUTE_POOL_MIN_WORK", saved.work);
  });

  it("pagerank: the pooled steps give the kernel's iterates exactly", () => {
    for (const directed of [true, false]) {
      const a = bothWays(igraphPagerank, {}, directed);
      expect(a.pooled).toEqual(a.one);
      const b = bothWays(cugraphPagerank, { alpha: 0.7 }, directed, true);
      expect(b.pooled).toEqual(b.one);
    }
  });

  it("betweenness (unweighted and weighted, node and edge) and distance sums agree with one thread", () => {
    const weights = Float64Array.from(fixture(51, 300, 900, { isolated: 2, loops: 2, multi: 3 }).weight);
    for (const directed of [true, false]) {
      for (const [entry, params, weighted] of [
        [igraphBetweenness, {}, false],
        [igraphBetweenness, { weights }, false],
        [cugraphBetweenness, { k: 50, seed: 4 }, false],
        [cugraphEdgeBetweenness, { weight: "weight" }, true],
        [igraphCloseness, {}, false],
        [igraphHarmonic, { weights, mode: "out" }, false],
      ] as const) {
        const { one, pooled } = bothWays(entry, params, directed, weighted);
        expectClose(pooled, one, `${entry.name} directed=${directed}`, 1e-12);
      }
    }
  });
});
