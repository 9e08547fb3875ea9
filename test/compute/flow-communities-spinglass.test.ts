// community_spinglass against python-igraph 0.10.2 itself: the modularity (igraph's g.modularity) of our partition no
// more than 0.01 below that of igraph's own partition; seeded, deterministic; igraph's refusals.
import { describe, expect, it } from "vitest";
import { ComputeInputError } from "../../src/compute/types.ts";
import { GRAPH_PYTHON, runReference } from "../helpers/graph-reference.ts";
import { type Case, clusterCount, compareModularity, karate, membershipOf, planted } from "./flow-communities-fixtures.ts";

const ours = (c: Case, params: Record<string, unknown>) => membershipOf("community_spinglass", c, params);
const compare = compareModularity;
const count = clusterCount;

describe.skipIf(!GRAPH_PYTHON)("igraph community_spinglass", () => {
  it("finds karate's partition as good as igraph's, the same for the same run, with both null models", async () => {
    const c = await karate();
    const m = ours(c, {});
    expect(Array.from(ours(c, {}))).toEqual(Array.from(m));
    const q = await compare(c, "g.community_spinglass()", m, false);
    expect(q.ours).toBeGreaterThanOrEqual(q.theirs - 0.01);
    const simple = ours(c, { update_rule: "simple", spins: 10 });
    const qs = await compare(c, "g.community_spinglass(update_rule='simple', spins=10)", simple, false);
    expect(qs.ours).toBeGreaterThanOrEqual(qs.theirs - 0.01);
    expect(count(simple)).toBeLessThanOrEqual(10);
  }, 120_000);

  it("recovers seeded planted partitions as well as igraph (modularity within 0.01)", async () => {
    for (const [seed, k, size, pin, pout] of [
      [1, 3, 15, 0.4, 0.03],
      [2, 4, 15, 0.35, 0.03],
      [3, 5, 12, 0.4, 0.02],
    ] as const) {
      const c = planted(seed, k, size, pin, pout);
      const m = ours(c, { cool_fact: 0.95 });
      const q = await compare(c, "g.community_spinglass(cool_fact=0.95)", m, false);
      expect(q.ours, `seed ${seed}`).toBeGreaterThanOrEqual(q.theirs - 0.01);
    }
  }, 120_000);

  it("weighs edges by `weights`, reads a directed graph both ways, and anneals with parallel updates", async () => {
    const c = planted(11, 3, 12, 0.4, 0.05, true);
    const weights = Float64Array.from(c.weight ?? []);
    const m = ours(c, { weights });
    const q = await compare(c, "g.community_spinglass(weights='weight')", m, true);
    expect(q.ours).toBeGreaterThanOrEqual(q.theirs - 0.01);
    const d = { ...planted(12, 3, 12, 0.4, 0.05), directed: true };
    const md = ours(d, { gamma: 1.2, cool_fact: 0.95 });
    const qd = await compare(d, "g.community_spinglass(gamma=1.2, cool_fact=0.95)", md, false);
    expect(qd.ours).toBeGreaterThanOrEqual(qd.theirs - 0.01);
    const mp = ours(c, { parupdate: true, cool_fact: 0.95 });
    const qp = await compare(c, "g.community_spinglass(parupdate=True, cool_fact=0.95)", mp, false);
    expect(qp.ours).toBeGreaterThanOrEqual(qp.theirs - 0.01);
  }, 120_000);

  it("runs the 'neg' implementation (Traag & Bruggeman): negative links repel, lambda_ weighs them", async () => {
    const c = await karate();
    const m = ours(c, { implementation: "neg" });
    const q = await compare(c, "g.community_spinglass(implementation='neg')", m, false);
    expect(q.ours).toBeGreaterThanOrEqual(q.theirs - 0.01);
    // Signed weights: compared by the modularity of the unweighted graph (igraph's modularity refuses negative weights).
    const signed = { ...c, weight: c.edges.map((_, i) => (i % 7 === 3 ? -1 : 1)) };
    const weights = Float64Array.from(signed.weight);
    const ms = ours(signed, { implementation: "neg", weights, lambda_: 0.5, cool_fact: 0.95 });
    const qs = await compare(
      signed,
      "g.community_spinglass(implementation='neg', weights='weight', lambda_=0.5, cool_fact=0.95)",
      ms,
      false,
    );
    expect(qs.ours).toBeGreaterThanOrEqual(qs.theirs - 0.01);
    // A negative link's ends end up apart more often than not.
    let apart = 0;
    let negatives = 0;
    for (const [i, [a, b]] of signed.edges.entries()) {
      if ((signed.weight[i] as number) >= 0) continue;
      negatives++;
      if (ms[a] !== ms[b]) apart++;
    }
    expect(apart).toBeGreaterThan(negatives / 2);
  }, 120_000);

  it("refuses what igraph refuses: disconnected graphs, fewer than 2 spins, cooling factors outside [0, 1), negative gamma, a start below the stop temperature, parallel updates with 'neg'", async () => {
    const c: Case = {
      n: 6,
      edges: [
        [0, 1],
        [1, 2],
        [2, 0],
        [3, 4],
        [4, 5],
        [5, 3],
      ],
    };
    const [answers] = await runReference([
      {
        n: c.n,
        edges: c.edges,
        directed: false,
        calls: [
          "g.community_spinglass()",
          "g.community_spinglass(spins=1)",
          "g.community_spinglass(cool_fact=1)",
          "g.community_spinglass(gamma=-1)",
        ],
      },
    ]);
    for (const a of answers ?? []) expect(a.ok).toBe(false);
    expect(() => ours(c, {})).toThrow(ComputeInputError);
    const joined: Case = { n: 6, edges: [...c.edges, [2, 3]] };
    expect(() => ours(joined, { spins: 1 })).toThrow(ComputeInputError);
    expect(() => ours(joined, { cool_fact: 1 })).toThrow(ComputeInputError);
    expect(() => ours(joined, { gamma: -1 })).toThrow(ComputeInputError);
    expect(() => ours(joined, { start_temp: 0.001 })).toThrow(ComputeInputError);
    const [neg] = await runReference([
      { n: 6, edges: joined.edges, directed: false, calls: ["g.community_spinglass(implementation='neg', parupdate=True)"] },
    ]);
    expect(neg?.[0]?.ok).toBe(false);
    expect(() => ours(joined, { implementation: "neg", parupdate: true })).toThrow(ComputeInputError);
    expect(Array.from(ours({ n: 1, edges: [] }, {}))).toEqual([0]);
  }, 120_000);
});
