// A coarse level kept grouped over its base graph (modularity/aggregate.ts, groupAbove; Leiden's refined levels) is
// the same graph as the level written out: the same self-loop terms, strengths and degrees, modularity and Potts
// quality, local moving and refinement (the same moves, in the same order, from the same seed), and the same next
// level, written (its rows' entries in another order) or grouped again.
import { describe, expect, it } from "vitest";
import { computeGraph } from "../../kernels/cpu/csr.ts";
import { aggregate, aggregateSpace } from "../../src/compute/algorithms/modularity/aggregate.ts";
import {
  entriesOf,
  modularity,
  renumber,
  splitUndirected,
  type WGraph,
  weightedUndirected,
} from "../../src/compute/algorithms/modularity/graph.ts";
import { pottsQuality, refine } from "../../src/compute/algorithms/modularity/leiden.ts";
import { localMove, scratch } from "../../src/compute/algorithms/modularity/local-move.ts";
import { rng } from "../../src/compute/algorithms/modularity/rng.ts";
import { seeded } from "../helpers/seeded.ts";

type Form = "view" | "split" | "loops";

/** A random multigraph: as the undirected view, read straight from the CSR, or with self-loops. */
function randomGraph(seed: number, n: number, m: number, form: Form): WGraph {
  const random = seeded(seed);
  const edges: [number, number][] = [];
  for (let e = 0; e < m; e++) {
    const s = random.int(0, n - 1);
    let d = random.int(0, n - 1);
    if (d === s && form !== "loops") d = (d + 1) % n;
    edges.push([s, d]);
  }
  const graph = computeGraph(n, edges, { directed: false });
  return form === "split" ? splitUndirected(graph, null) : weightedUndirected(graph, null);
}

/** A written graph with each row's entries in neighbour order (a level written from a grouped one lists a row's
 * neighbours in the order its base members meet them). */
const rows = (g: WGraph) => ({
  n: g.n,
  rows: Array.from({ length: g.n }, (_, v) => {
    const row: [number, number][] = [];
    for (let j = g.start[v] as number; j < (g.start[v + 1] as number); j++) row.push([g.nbr[j] as number, g.w ? (g.w[j] as number) : 1]);
    return row.sort((x, y) => x[0] - y[0]);
  }),
  loop: Array.from(g.loop),
  strength: Array.from(g.strength),
  total: g.total,
});

describe("a grouped level", () => {
  for (const form of ["view", "split", "loops"] as const) {
    it(`reads as the written level (${form})`, () => {
      const g = randomGraph(301, 600, 5000, form);
      const random = seeded(302);
      // Small communities (as a refinement makes): the written level keeps most entries.
      const membership = Int32Array.from({ length: g.n }, () => random.int(0, 199));
      const k = renumber(membership);
      const written = aggregate(g, membership.slice(), k);
      const grouped = aggregate(g, membership.slice(), k, aggregateSpace(), 0);
      expect(written.groups).toBeUndefined();
      expect(grouped.groups).toBeDefined();
      expect(grouped.n).toBe(k);
      expect(Array.from(grouped.loop)).toEqual(Array.from(written.loop));
      expect(Array.from(grouped.strength)).toEqual(Array.from(written.strength));
      expect(Array.from({ length: k }, (_, v) => entriesOf(grouped, v))).toEqual(
        Array.from({ length: k }, (_, v) => entriesOf(written, v)),
      );

      // A partition of the level: the same modularity and Potts quality.
      const coarse = Int32Array.from({ length: k }, () => random.int(0, 29));
      renumber(coarse);
      expect(modularity(grouped, coarse)).toBeCloseTo(modularity(written, coarse), 12);
      expect(pottsQuality(grouped, coarse, grouped.strength, 1 / g.total)).toBe(
        pottsQuality(written, coarse, written.strength, 1 / g.total),
      );

      // Local moving from singletons and the refinement of its answer: the same moves from the same seed.
      const moved = (level: WGraph) => {
        const comm = Int32Array.from({ length: k }, (_, v) => v);
        const moves = localMove(level, comm, level.strength, 1 / g.total, rng(7), scratch(k));
        return { moves, comm };
      };
      const a = moved(written);
      const b = moved(grouped);
      expect(b.moves).toBe(a.moves);
      expect(a.moves).toBeGreaterThan(0);
      expect(Array.from(b.comm)).toEqual(Array.from(a.comm));
      const refined = (level: WGraph) =>
        Array.from(refine(level, a.comm, level.strength, 1 / g.total, 0.01, rng(8), scratch(k), new Int32Array(k)));
      expect(refined(grouped)).toEqual(refined(written));

      // The next level: written from a grouped level (composed onto its base), and grouped again.
      const next = a.comm.slice();
      const kk = renumber(next);
      expect(rows(aggregate(grouped, next.slice(), kk, aggregateSpace()))).toEqual(rows(aggregate(written, next.slice(), kk)));
      // (Aggregating a grouped level composes its groups in place: a fresh grouped level for the second.)
      const regrouped = aggregate(g, membership.slice(), k, aggregateSpace(), 0);
      const again = aggregate(regrouped, next.slice(), kk, aggregateSpace(), 0);
      expect(again.groups?.mStart.length).toBe(kk + 1);
      const writtenAgain = aggregate(written, next.slice(), kk);
      expect(Array.from(again.loop)).toEqual(Array.from(writtenAgain.loop));
      expect(Array.from({ length: kk }, (_, v) => entriesOf(again, v))).toEqual(
        Array.from({ length: kk }, (_, v) => entriesOf(writtenAgain, v)),
      );
    });
  }

  it("is what a level with more entries than the limit becomes, and only such a level", () => {
    const g = randomGraph(303, 600, 5000, "split");
    const random = seeded(304);
    const membership = Int32Array.from({ length: g.n }, () => random.int(0, 199));
    const k = renumber(membership);
    const entries = aggregate(g, membership.slice(), k).nbr.length;
    expect(aggregate(g, membership.slice(), k, aggregateSpace(), entries - 1).groups).toBeDefined();
    expect(aggregate(g, membership.slice(), k, aggregateSpace(), entries).groups).toBeUndefined();
  });
});
