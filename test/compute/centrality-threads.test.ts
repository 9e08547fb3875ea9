// The CPU backend's kernel pools (pagerank steps, betweenness and distance sources split across threads) answer
// what the single-thread kernels answer; forced on small graphs with COMPUTE_POOL_MIN_WORK=0.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { brandes } from "../../kernels/cpu/brandes.ts";
import { cugraphBetweenness, cugraphEdgeBetweenness, igraphBetweenness } from "../../src/compute/algorithms/centrality/betweenness.ts";
import { igraphCloseness, igraphHarmonic } from "../../src/compute/algorithms/centrality/distances.ts";
import { cugraphPagerank, igraphPagerank } from "../../src/compute/algorithms/centrality/pagerank.ts";
import { kernelPool, poolCounters } from "../../src/compute/algorithms/centrality/threads.ts";
import type { AlgorithmEntry } from "../../src/compute/types.ts";
import { asCompute, column, expectClose, fixture, runEntry } from "./centrality-fixtures.ts";

const saved = {
  threads: process.env.COMPUTE_THREADS,
  work: process.env.COMPUTE_POOL_MIN_WORK,
  after: process.env.COMPUTE_POOL_AFTER_MS,
};
function restore(name: "COMPUTE_THREADS" | "COMPUTE_POOL_MIN_WORK" | "COMPUTE_POOL_AFTER_MS", value: string | undefined) {
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
  // PageRank iterates alone for a while before it starts a pool: 0 ms, a pool from the second step on.
  process.env.COMPUTE_POOL_AFTER_MS = "0";
  const before = poolCounters.threadsStarted;
  const pooled = column(runEntry(entry, graph, params, "x"), "x");
  expect(poolCounters.threadsStarted - before, `${entry.name} ran on a pool`).toBe(2);
  delete process.env.COMPUTE_POOL_MIN_WORK;
  delete process.env.COMPUTE_POOL_AFTER_MS;
  return { one, pooled };
}

describe("kernel pools", () => {
  beforeAll(() => {
    delete process.env.COMPUTE_POOL_MIN_WORK;
  });
  afterAll(() => {
    restore("COMPUTE_THREADS", saved.threads);
    restore("COMPUTE_POOL_MIN_WORK", saved.work);
    restore("COMPUTE_POOL_AFTER_MS", saved.after);
  });

  it("pagerank: the pooled steps give the kernel's iterates exactly", () => {
    for (const directed of [true, false]) {
      const a = bothWays(igraphPagerank, {}, directed);
      expect(a.pooled).toEqual(a.one);
      const b = bothWays(cugraphPagerank, { alpha: 0.7 }, directed, true);
      expect(b.pooled).toEqual(b.one);
    }
  });

  it("pagerank starts no pool for a run that converges within its time alone (no threads, no thread memory)", () => {
    const graph = asCompute(fixture(51, 300, 900, { isolated: 2, loops: 2, multi: 3 }), true);
    process.env.COMPUTE_THREADS = "3";
    process.env.COMPUTE_POOL_MIN_WORK = "0";
    try {
      const before = poolCounters.threadsStarted;
      runEntry(igraphPagerank, graph, {}, "x");
      runEntry(cugraphPagerank, graph, {}, "x");
      expect(poolCounters.threadsStarted).toBe(before);
    } finally {
      delete process.env.COMPUTE_POOL_MIN_WORK;
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

  it("runs a part in this thread when a pool thread cannot load its kernel", () => {
    const graph = asCompute(fixture(52, 50, 120), true);
    const base = {
      n: graph.n,
      start: graph.outStart,
      nbr: graph.outDst,
      link: null,
      links: 0,
      cutoff: -1,
      endpoints: false,
      sources: new Int32Array(0),
    };
    const pool = kernelPool(new URL("../../kernels/cpu/brandes.ts", import.meta.url), "noSuchKernel", base, brandes, 2);
    try {
      const parts = [{ sources: Int32Array.from([0, 1, 2]) }, { sources: Int32Array.from([3, 4, 5]) }];
      const results = pool.run(parts);
      expect(results[1]?.node).toEqual(brandes({ ...base, sources: Int32Array.from([3, 4, 5]) }).node);
      expect(results[0]?.node).toEqual(brandes({ ...base, sources: Int32Array.from([0, 1, 2]) }).node);
    } finally {
      pool.close();
    }
  });
});
