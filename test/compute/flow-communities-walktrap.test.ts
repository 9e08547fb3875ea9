// community_walktrap against python-igraph 0.10.2 itself: identical memberships on karate, planted partitions,
// weighted and multi-edge graphs; igraph's refusals.
import { describe, expect, it } from "vitest";
import { ComputeInputError } from "../../src/compute/types.ts";
import { GRAPH_PYTHON } from "../helpers/graph-reference.ts";
import { type Case, karate, membershipOf, planted, theirMembership } from "./flow-communities-fixtures.ts";

const ours = (c: Case, params: Record<string, unknown>) => membershipOf("community_walktrap", c, params);
const theirs = theirMembership;

describe.skipIf(!GRAPH_PYTHON)("igraph community_walktrap", () => {
  it("answers igraph's membership on Zachary's karate club, for several walk lengths", async () => {
    const c = await karate();
    for (const steps of [1, 2, 3, 4, 5, 8]) {
      const ref = await theirs(c, `g.community_walktrap(steps=${steps})`);
      expect(Array.from(ours(c, { steps })), `steps=${steps}`).toEqual(ref.membership);
    }
  }, 120_000);

  it("answers igraph's membership on seeded planted partitions", async () => {
    let compared = 0;
    for (const [seed, k, size, pin, pout] of [
      [1, 3, 10, 0.5, 0.05],
      [2, 4, 12, 0.4, 0.04],
      [3, 5, 20, 0.3, 0.03],
      [4, 2, 30, 0.2, 0.1],
      [5, 8, 25, 0.25, 0.02],
    ] as const) {
      const c = planted(seed, k, size, pin, pout);
      const ref = await theirs(c, "g.community_walktrap()");
      if (!ref.ok) {
        expect(() => ours(c, { steps: 4 })).toThrow(ComputeInputError);
        continue;
      }
      expect(Array.from(ours(c, { steps: 4 })), `seed ${seed}`).toEqual(ref.membership);
      compared++;
    }
    expect(compared).toBeGreaterThanOrEqual(4);
  }, 120_000);

  it("weighs edges by `weights`, and merges multi-edges and reads loops as igraph does", async () => {
    const c = planted(11, 4, 15, 0.35, 0.05, true);
    const weights = Float64Array.from(c.weight ?? []);
    const ref = await theirs(c, "g.community_walktrap(weights='weight', steps=3)");
    expect(Array.from(ours(c, { weights, steps: 3 }))).toEqual(ref.membership);
    const unweighted = await theirs(c, "g.community_walktrap(steps=3)");
    expect(Array.from(ours(c, { steps: 3 }))).toEqual(unweighted.membership);

    const multi: Case = { ...c, edges: [...c.edges, ...c.edges.slice(0, 20), [0, 0], [7, 7], [7, 7]], weight: undefined };
    const refMulti = await theirs(multi, "g.community_walktrap()");
    expect(Array.from(ours(multi, { steps: 4 }))).toEqual(refMulti.membership);
  }, 120_000);

  it("reads a directed graph's edges both ways, as igraph does", async () => {
    const c = { ...planted(21, 3, 14, 0.4, 0.05), directed: true };
    const ref = await theirs(c, "g.community_walktrap()");
    expect(Array.from(ours(c, { steps: 4 }))).toEqual(ref.membership);
  }, 120_000);

  it("cuts a graph of several components where python-igraph 0.10.2 cuts it (counting clusters from one)", async () => {
    // Two components, each two 5-cliques joined by an edge: python-igraph cuts at 3 clusters, not the 4 of max modularity.
    const edges: [number, number][] = [];
    for (let base = 0; base < 20; base += 5) {
      for (let i = 0; i < 5; i++) for (let j = i + 1; j < 5; j++) edges.push([base + i, base + j]);
    }
    edges.push([0, 5], [10, 15]);
    const c: Case = { n: 20, edges };
    const ref = await theirs(c, "g.community_walktrap()");
    expect(Array.from(ours(c, { steps: 4 }))).toEqual(ref.membership);
    expect(new Set(ref.membership).size).toBe(3);
  }, 120_000);

  it("refuses what python-igraph refuses: negative weights, and the cut of a graph of several components", async () => {
    const c: Case = {
      n: 7,
      edges: [
        [0, 1],
        [1, 2],
        [2, 0],
        [3, 4],
        [4, 5],
        [5, 3],
      ],
    };
    const ref = await theirs(c, "g.community_walktrap()");
    expect(ref.ok).toBe(false);
    expect(() => ours(c, { steps: 4 })).toThrow(ComputeInputError);
    const neg: Case = {
      n: 3,
      edges: [
        [0, 1],
        [1, 2],
      ],
      weight: [1, -1],
    };
    expect((await theirs(neg, "g.community_walktrap(weights='weight')")).ok).toBe(false);
    expect(() => ours(neg, { weights: Float64Array.from([1, -1]), steps: 4 })).toThrow(ComputeInputError);
  }, 120_000);
});
