// Coded weights (graph.ts WGraph.table: ECG's votes as codes into a table of weights) read as the weights written
// out: the same modularity, the same local moves from the same seed, the same aggregate, the same Louvain partition;
// on split lists and on the undirected view, grouped levels included.
import { describe, expect, it } from "vitest";
import { computeGraph } from "../../kernels/cpu/csr.ts";
import { aggregate, aggregateSpace } from "../../src/compute/algorithms/modularity/aggregate.ts";
import {
  lists,
  modularity,
  renumber,
  splitUndirected,
  type WGraph,
  weightedUndirected,
} from "../../src/compute/algorithms/modularity/graph.ts";
import { leiden } from "../../src/compute/algorithms/modularity/leiden.ts";
import { localMove, scratch } from "../../src/compute/algorithms/modularity/local-move.ts";
import { louvain } from "../../src/compute/algorithms/modularity/louvain.ts";
import { rng } from "../../src/compute/algorithms/modularity/rng.ts";
import { createComputeContext } from "../../src/compute/backend.ts";
import { seeded } from "../helpers/seeded.ts";

/** A random graph with community structure, coded (a byte per entry, 17 weights) and written out (float32). */
function codedAndWritten(seed: number, form: "split" | "view"): { coded: WGraph; written: WGraph } {
  const random = seeded(seed);
  const n = 800;
  const edges: [number, number][] = [];
  for (let e = 0; e < 6000; e++) {
    const s = random.int(0, n - 1);
    // Mostly inside blocks of 40 nodes.
    let d = random.int(0, 9) < 8 ? s - (s % 40) + random.int(0, 39) : random.int(0, n - 1);
    if (d === s) d = (d + 1) % n;
    edges.push([s, d]);
  }
  const graph = computeGraph(n, edges, { directed: false });
  const base = form === "split" ? splitUndirected(graph, null) : weightedUndirected(graph, null);
  const table = Float64Array.from({ length: 17 }, (_, t) => Math.fround(0.05 + (0.95 * t) / 16));
  const codes = lists(base).map(({ nbr }) => Uint8Array.from({ length: nbr.length }, () => random.int(0, 16)));
  const strength = new Float64Array(n);
  lists(base).forEach(({ start }, list) => {
    const code = codes[list] as Uint8Array;
    for (let v = 0; v < n; v++)
      for (let j = start[v] as number; j < (start[v + 1] as number); j++)
        strength[v] = (strength[v] as number) + (table[code[j] as number] as number);
  });
  const total = strength.reduce((a, b) => a + b, 0);
  const [w, w2] = codes.map((code) => Float32Array.from(code, (c) => table[c] as number));
  const common = { n, start: base.start, nbr: base.nbr, loop: new Float64Array(n), strength, total };
  const second = base.start2 && base.nbr2 ? { start2: base.start2, nbr2: base.nbr2 } : {};
  return {
    coded: { ...common, ...second, w: codes[0] as Uint8Array, ...(codes[1] ? { w2: codes[1] } : {}), table },
    written: { ...common, ...second, w: w as Float32Array, ...(w2 ? { w2 } : {}) },
  };
}

describe("coded weights", () => {
  for (const form of ["split", "view"] as const) {
    it(`read as the weights written out (${form})`, () => {
      const { coded, written } = codedAndWritten(511, form);
      const random = seeded(512);
      const membership = Int32Array.from({ length: coded.n }, () => random.int(0, 59));
      renumber(membership);
      expect(modularity(coded, membership)).toBe(modularity(written, membership));

      const moved = [coded, written].map((g) => {
        const comm = Int32Array.from({ length: g.n }, (_, v) => v);
        const moves = localMove(g, comm, g.strength, 1 / g.total, rng(7), scratch(g.n));
        return { moves, comm };
      });
      expect(moved[0]?.moves).toBeGreaterThan(0);
      expect(moved[0]).toEqual(moved[1]);

      // The next level, written and grouped: plain weights, the same as from the written graph.
      const comm = (moved[0] as { comm: Int32Array }).comm.slice();
      const k = renumber(comm);
      const [a, b] = [coded, written].map((g) => aggregate(g, comm.slice(), k));
      expect(a?.table).toBeUndefined();
      expect(Array.from(a?.w ?? [])).toEqual(Array.from(b?.w ?? []));
      expect(Array.from(a?.loop ?? [])).toEqual(Array.from(b?.loop ?? []));
      const grouped = aggregate(coded, comm.slice(), k, aggregateSpace(), 0);
      expect(grouped.groups).toBeDefined();
      expect(
        modularity(
          grouped,
          Int32Array.from({ length: k }, (_, c) => c % 7),
        ),
      ).toBeCloseTo(
        modularity(
          b as WGraph,
          Int32Array.from({ length: k }, (_, c) => c % 7),
        ),
        12,
      );

      const ctx = createComputeContext({ backend: "cpu" });
      const options = { resolution: 1, maxLevels: 100, threshold: 1e-7, seed: 9 };
      const [x, y] = [coded, written].map((g) => louvain(g, options, ctx));
      expect(x?.levels).toBeGreaterThan(1);
      expect(Array.from(x?.membership ?? [])).toEqual(Array.from(y?.membership ?? []));
      expect(x?.modularity).toBe(y?.modularity);
    });
  }

  it("Leiden refuses them (its refinement reads plain weights)", () => {
    const { coded } = codedAndWritten(513, "split");
    expect(() =>
      leiden(coded, { resolution: 1, beta: 0.01, iterations: 2, seed: 1 } as never, createComputeContext({ backend: "cpu" })),
    ).toThrow(/coded weights/);
  });
});
