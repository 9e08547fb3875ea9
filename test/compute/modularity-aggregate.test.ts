// The community graph of a partition (modularity/aggregate.ts): written into a reused space it is the same
// graph as written into new arrays, and a space large enough is reused rather than grown.
import { describe, expect, it } from "vitest";
import { computeGraph } from "../../kernels/cpu/csr.ts";
import { aggregate, aggregateSpace } from "../../src/compute/algorithms/modularity/aggregate.ts";
import { renumber, weightedUndirected } from "../../src/compute/algorithms/modularity/graph.ts";
import { seeded } from "../helpers/seeded.ts";

function randomGraph(seed: number, n: number, m: number, weighted: boolean) {
  const rng = seeded(seed);
  const edges: [number, number][] = [];
  for (let e = 0; e < m; e++) edges.push([rng.int(0, n - 1), rng.int(0, n - 1)]);
  const weight = weighted ? Float64Array.from({ length: m }, () => 0.5 + rng.next()) : null;
  return weightedUndirected(computeGraph(n, edges, { directed: false, weight }), weight);
}

const plain = (g: ReturnType<typeof aggregate>) => ({
  n: g.n,
  start: Array.from(g.start),
  nbr: Array.from(g.nbr),
  w: g.w ? Array.from(g.w) : null,
  loop: Array.from(g.loop),
  strength: Array.from(g.strength),
  total: g.total,
});

describe("aggregate", () => {
  for (const weighted of [false, true]) {
    it(`writes the same community graph into a reused space (${weighted ? "weighted" : "unweighted"}, self-loops)`, () => {
      const g = randomGraph(91, 400, 3000, weighted);
      const rng = seeded(92);
      const membership = Int32Array.from({ length: g.n }, () => rng.int(0, 59));
      const k = renumber(membership);
      const space = aggregateSpace();
      const inSpace = aggregate(g, membership, k, space);
      expect(plain(inSpace)).toEqual(plain(aggregate(g, membership, k)));
      expect(inSpace.nbr.buffer).toBe(space.nbr.buffer);
      // A coarser partition of that graph fits the space: written into it again, not into new arrays.
      const coarse = Int32Array.from({ length: k }, (_, c) => c % 7);
      const kk = renumber(coarse);
      const held = space.nbr;
      const again = aggregate(inSpace, coarse, kk, aggregateSpace());
      const last = Int32Array.from({ length: kk }, (_, c) => c % 3);
      const reused = aggregate(again, last, 3, space);
      expect(plain(reused)).toEqual(plain(aggregate(again, last, 3)));
      expect(space.nbr).toBe(held);
      expect(reused.nbr.buffer).toBe(held.buffer);
    });
  }

  it("keeps an unweighted graph's aggregate weights as int32: the entry counts between communities, exactly", () => {
    const g = randomGraph(93, 300, 2500, false);
    const rng = seeded(94);
    const membership = Int32Array.from({ length: g.n }, () => rng.int(0, 39));
    const k = renumber(membership);
    const agg = aggregate(g, membership, k, aggregateSpace());
    expect(agg.w).toBeInstanceOf(Int32Array);
    const counts = new Map<string, number>();
    const self = new Float64Array(k);
    for (let v = 0; v < g.n; v++) {
      const c = membership[v] as number;
      self[c] = (self[c] as number) + (g.loop[v] as number);
      for (let j = g.start[v] as number; j < (g.start[v + 1] as number); j++) {
        const d = membership[g.nbr[j] as number] as number;
        if (d === c) self[c] = (self[c] as number) + 1;
        else counts.set(`${c} ${d}`, (counts.get(`${c} ${d}`) ?? 0) + 1);
      }
    }
    const got = new Map<string, number>();
    for (let c = 0; c < k; c++)
      for (let j = agg.start[c] as number; j < (agg.start[c + 1] as number); j++) got.set(`${c} ${agg.nbr[j]}`, agg.w?.[j] as number);
    expect(got).toEqual(counts);
    expect(Array.from(agg.loop)).toEqual(Array.from(self));
    // A level of int32 weights aggregates into int32 again; float64 weights stay float64.
    expect(
      aggregate(
        agg,
        Int32Array.from({ length: k }, (_, c) => c % 5),
        5,
      ).w,
    ).toBeInstanceOf(Int32Array);
    const weighted = randomGraph(95, 300, 2500, true);
    expect(aggregate(weighted, membership, k).w).toBeInstanceOf(Float64Array);
  });

  for (const weighted of [false, true]) {
    it(`aggregates in place, level after level, the same graphs as into new arrays (${weighted ? "weighted" : "unweighted"})`, () => {
      const g0 = randomGraph(96, 2000, 16000, weighted);
      const rng = seeded(97);
      const space = aggregateSpace();
      let inSpace = g0;
      let fresh = g0;
      let k = g0.n;
      for (let level = 0; level < 5; level++) {
        // Small communities of scattered members (as a refinement makes): rows wait in the side ring.
        const membership = Int32Array.from({ length: k }, () => rng.int(0, Math.max(1, Math.floor(k / 2)) - 1));
        const kk = renumber(membership);
        const held = space.nbr;
        inSpace = aggregate(inSpace, membership, kk, space);
        fresh = aggregate(fresh, membership, kk);
        expect(plain(inSpace)).toEqual(plain(fresh));
        expect(inSpace.nbr.buffer).toBe(space.nbr.buffer);
        if (level > 0) expect(space.nbr).toBe(held);
        k = kk;
      }
      expect(space.ringNbr.length).toBeGreaterThan(0);
    });
  }

  it("writes new arrays for a level whose rows would nearly all wait (few communities of scattered members), the same graphs", () => {
    const g0 = randomGraph(98, 2000, 16000, false);
    const rng = seeded(99);
    const space = aggregateSpace();
    let inSpace = g0;
    let fresh = g0;
    let k = g0.n;
    let replaced = 0;
    for (let level = 0; level < 3; level++) {
      const membership = Int32Array.from({ length: k }, () => rng.int(0, Math.max(1, Math.floor(k / (level === 0 ? 2 : 40))) - 1));
      const kk = renumber(membership);
      const held = space.nbr;
      inSpace = aggregate(inSpace, membership, kk, space);
      fresh = aggregate(fresh, membership, kk);
      expect(plain(inSpace)).toEqual(plain(fresh));
      if (level > 0 && space.nbr !== held) replaced++;
      k = kk;
    }
    expect(replaced).toBeGreaterThan(0);
  });
});
