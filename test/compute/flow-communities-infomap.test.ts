// community_infomap against python-igraph 0.10.2 itself: the modularity (igraph's g.modularity) of our partition no more
// than 0.01 below that of igraph's own partition, on karate, planted, weighted and directed graphs; seeded, deterministic.
import { describe, expect, it } from "vitest";
import { computeGraph } from "../../kernels/cpu/csr.ts";
import { infomap } from "../../src/compute/algorithms/flow-communities/infomap.ts";
import { FlowGraph } from "../../src/compute/algorithms/flow-communities/infomap-flow.ts";
import { DEFAULT_SEED, random } from "../../src/compute/algorithms/flow-communities/random.ts";
import { cpuContext } from "../../src/compute/types.ts";
import { answerValue, GRAPH_PYTHON, runReference } from "../helpers/graph-reference.ts";
import { type Case, clusterCount, compareModularity, karate, membershipOf, planted } from "./flow-communities-fixtures.ts";

const ours = (c: Case, params: Record<string, unknown>) => membershipOf("community_infomap", c, params);
const compare = compareModularity;
const count = clusterCount;

describe.skipIf(!GRAPH_PYTHON)("igraph community_infomap", () => {
  it("finds karate's partition as good as igraph's, the same for the same run", async () => {
    const c = await karate();
    const m = ours(c, {});
    expect(Array.from(ours(c, {}))).toEqual(Array.from(m));
    const q = await compare(c, "g.community_infomap()", m, false);
    expect(q.ours).toBeGreaterThanOrEqual(q.theirs - 0.01);
    expect(count(m)).toBe(q.theirCount);
  }, 120_000);

  it("reaches igraph's code length (bits): the map equation it minimizes", async () => {
    const k = await karate();
    const cases: Case[] = [k, { ...k, directed: true }, planted(5, 4, 20, 0.3, 0.03), { ...planted(6, 3, 20, 0.3, 0.04), directed: true }];
    const answers = await runReference(
      cases.map((c) => ({
        n: c.n,
        edges: c.edges,
        directed: c.directed ?? false,
        calls: ["(__import__('random').seed(7), g.community_infomap())[1].codelength"],
      })),
    );
    for (const [i, c] of cases.entries()) {
      const graph = computeGraph(c.n, c.edges, { directed: c.directed ?? false });
      const { codelength } = infomap(FlowGraph.fromGraph(graph, null, null), 10, random(DEFAULT_SEED), cpuContext);
      const theirs = answerValue<number>(answers[i]?.[0]);
      expect(codelength, `case ${i}`).toBeLessThanOrEqual(theirs + 0.01);
      expect(codelength, `case ${i}`).toBeGreaterThan(theirs - 0.5);
    }
  }, 120_000);

  it("recovers seeded planted partitions as well as igraph (modularity within 0.01)", async () => {
    for (const [seed, k, size, pin, pout] of [
      [1, 3, 20, 0.4, 0.02],
      [2, 5, 20, 0.3, 0.02],
      [3, 8, 25, 0.25, 0.01],
      [4, 4, 40, 0.15, 0.01],
    ] as const) {
      const c = planted(seed, k, size, pin, pout);
      const m = ours(c, { trials: 5 });
      const q = await compare(c, "g.community_infomap(trials=5)", m, false);
      expect(q.ours, `seed ${seed}`).toBeGreaterThanOrEqual(q.theirs - 0.01);
      // Isolated nodes (no flow) may sit in any module: igraph and we may differ there, not in the modularity.
      expect(count(m), `seed ${seed}`).toBeGreaterThanOrEqual(k);
    }
  }, 120_000);

  it("weighs edges by edge_weights and teleports by vertex_weights", async () => {
    const c = planted(11, 4, 15, 0.35, 0.05, true);
    const edgeWeights = Float64Array.from(c.weight ?? []);
    const m = ours(c, { edge_weights: edgeWeights });
    const q = await compare(c, "g.community_infomap(edge_weights='weight')", m, true);
    expect(q.ours).toBeGreaterThanOrEqual(q.theirs - 0.01);
    const vw = Array.from({ length: c.n }, (_, i) => 1 + (i % 5));
    const mv = ours(c, { edge_weights: edgeWeights, vertex_weights: Float64Array.from(vw) });
    const qv = await compare(c, `g.community_infomap(edge_weights='weight', vertex_weights=${JSON.stringify(vw)})`, mv, true);
    expect(qv.ours).toBeGreaterThanOrEqual(qv.theirs - 0.01);
  }, 120_000);

  it("follows the flow along edge directions on a directed graph", async () => {
    const c = { ...planted(21, 4, 15, 0.4, 0.03), directed: true };
    const m = ours(c, {});
    const q = await compare(c, "g.community_infomap()", m, false);
    expect(q.ours).toBeGreaterThanOrEqual(q.theirs - 0.01);
  }, 120_000);

  it("leaves isolated nodes alone and answers one id per node", async () => {
    const c: Case = {
      n: 8,
      edges: [
        [0, 1],
        [1, 2],
        [2, 0],
        [3, 4],
        [4, 5],
        [5, 3],
      ],
    };
    const m = ours(c, {});
    const [answers] = await runReference([{ n: c.n, edges: c.edges, directed: false, calls: ["g.community_infomap().membership"] }]);
    const theirs = answerValue<number[]>(answers?.[0]);
    expect(Array.from(m)).toEqual(theirs);
  }, 120_000);
});
