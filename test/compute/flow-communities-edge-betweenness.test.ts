// community_edge_betweenness against python-igraph 0.10.2 itself: identical memberships on karate, planted partitions,
// directed graphs read both ways, weighted graphs cut at `clusters`; igraph's refusals.
import { describe, expect, it } from "vitest";
import { ComputeInputError } from "../../src/compute/types.ts";
import { GRAPH_PYTHON } from "../helpers/graph-reference.ts";
import { type Case, karate, membershipOf, planted, theirMembership } from "./flow-communities-fixtures.ts";

const ours = (c: Case, params: Record<string, unknown>) => membershipOf("community_edge_betweenness", c, params);
const theirs = theirMembership;

describe.skipIf(!GRAPH_PYTHON)("igraph community_edge_betweenness", () => {
  it("answers igraph's membership on Zachary's karate club", async () => {
    const c = await karate();
    const ref = await theirs(c, "g.community_edge_betweenness()");
    expect(Array.from(ours(c, {}))).toEqual(ref.membership);
    for (const clusters of [2, 3, 5]) {
      const cut = await theirs(c, `g.community_edge_betweenness(clusters=${clusters})`);
      expect(Array.from(ours(c, { clusters })), `clusters=${clusters}`).toEqual(cut.membership);
    }
  }, 120_000);

  it("answers igraph's membership on seeded planted partitions", async () => {
    let compared = 0;
    for (const [seed, k, size, pin, pout] of [
      [1, 3, 8, 0.6, 0.05],
      [2, 4, 8, 0.5, 0.04],
      [3, 3, 12, 0.35, 0.05],
      [4, 2, 14, 0.3, 0.1],
    ] as const) {
      const c = planted(seed, k, size, pin, pout);
      const ref = await theirs(c, "g.community_edge_betweenness()");
      if (!ref.ok) {
        expect(() => ours(c, {})).toThrow(ComputeInputError);
        continue;
      }
      expect(Array.from(ours(c, {})), `seed ${seed}`).toEqual(ref.membership);
      compared++;
    }
    expect(compared).toBeGreaterThanOrEqual(3);
  }, 120_000);

  it("follows paths along edge directions on a directed graph, and both ways with directed=False", async () => {
    const c = { ...planted(21, 3, 9, 0.5, 0.06), directed: true };
    c.edges.push([0, 0], [3, 4], [4, 3], [3, 4]);
    for (const directed of [true, false]) {
      const ref = await theirs(c, `g.community_edge_betweenness(directed=${directed ? "True" : "False"})`);
      expect(Array.from(ours(c, { directed })), `directed=${directed}`).toEqual(ref.membership);
    }
  }, 120_000);

  it("reads weights as lengths: one cluster by default (no modularity in python-igraph), the dendrogram at `clusters`", async () => {
    const c = planted(31, 3, 9, 0.5, 0.06, true);
    const weights = Float64Array.from(c.weight ?? []);
    const ref = await theirs(c, "g.community_edge_betweenness(weights='weight')");
    expect(Array.from(ours(c, { weights }))).toEqual(ref.membership);
    for (const clusters of [2, 3, 4]) {
      const cut = await theirs(c, `g.community_edge_betweenness(weights='weight', clusters=${clusters})`);
      expect(Array.from(ours(c, { weights, clusters })), `clusters=${clusters}`).toEqual(cut.membership);
    }
    const d = { ...c, directed: true };
    const cut = await theirs(d, "g.community_edge_betweenness(weights='weight', clusters=3)");
    expect(Array.from(ours(d, { weights, clusters: 3 }))).toEqual(cut.membership);
  }, 120_000);

  it("cuts a graph of several components where python-igraph 0.10.2 cuts it (counting clusters from one)", async () => {
    // Two components, each two 5-cliques joined by an edge: python-igraph cuts at 3 clusters, not the 4 of max modularity.
    const edges: [number, number][] = [];
    for (let base = 0; base < 20; base += 5) {
      for (let i = 0; i < 5; i++) for (let j = i + 1; j < 5; j++) edges.push([base + i, base + j]);
    }
    edges.push([0, 5], [10, 15]);
    const c: Case = { n: 20, edges };
    const ref = await theirs(c, "g.community_edge_betweenness()");
    expect(Array.from(ours(c, {}))).toEqual(ref.membership);
    expect(new Set(ref.membership).size).toBe(3);
  }, 120_000);

  it("refuses what python-igraph refuses: weights that are not positive, the cut of a graph of several components", async () => {
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
    expect((await theirs(c, "g.community_edge_betweenness()")).ok).toBe(false);
    expect(() => ours(c, {})).toThrow(ComputeInputError);
    const zero: Case = {
      n: 3,
      edges: [
        [0, 1],
        [1, 2],
      ],
      weight: [1, 0],
    };
    expect((await theirs(zero, "g.community_edge_betweenness(weights='weight')")).ok).toBe(false);
    expect(() => ours(zero, { weights: Float64Array.from([1, 0]) })).toThrow(ComputeInputError);
  }, 120_000);
});
