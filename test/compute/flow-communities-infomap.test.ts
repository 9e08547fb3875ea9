// community_infomap against python-igraph 0.10.2 itself: the modularity (igraph's g.modularity) of our partition no more
// than 0.01 below that of igraph's own partition, on karate, planted, weighted and directed graphs; seeded, deterministic.
import { describe, expect, it } from "vitest";
import { computeGraph } from "../../kernels/cpu/csr.ts";
import { infomap } from "../../src/compute/algorithms/flow-communities/infomap.ts";
import { FlowGraph } from "../../src/compute/algorithms/flow-communities/infomap-flow.ts";
import { DEFAULT_SEED, random } from "../../src/compute/algorithms/flow-communities/random.ts";
import { findAlgorithm } from "../../src/compute/registry.ts";
import { cpuContext } from "../../src/compute/types.ts";
import { answerValue, GRAPH_PYTHON, runReference } from "../helpers/graph-reference.ts";
import { seeded } from "../helpers/seeded.ts";

type Case = { n: number; edges: [number, number][]; directed?: boolean; weight?: number[] };

/** k planted groups of `size` nodes: inside pairs linked with probability pin, across with pout. */
function planted(seed: number, k: number, size: number, pin: number, pout: number, weighted = false): Case {
  const r = seeded(seed);
  const n = k * size;
  const edges: [number, number][] = [];
  const weight: number[] = [];
  for (let a = 0; a < n; a++) {
    for (let b = a + 1; b < n; b++) {
      const same = Math.floor(a / size) === Math.floor(b / size);
      if (r.next() < (same ? pin : pout)) {
        edges.push(r.next() < 0.5 ? [a, b] : [b, a]);
        weight.push(weighted ? r.int(1, 9) / 2 : 1);
      }
    }
  }
  return weighted ? { n, edges, weight } : { n, edges };
}

async function karate(): Promise<Case> {
  const [answers] = await runReference([{ n: 1, edges: [], calls: ["[list(e.tuple) for e in ig.Graph.Famous('Zachary').es]"] }]);
  const edges = answerValue<[number, number][]>(answers?.[0]);
  return { n: 34, edges };
}

function ours(c: Case, params: Record<string, unknown>): Int32Array {
  const entry = findAlgorithm("igraph", "community_infomap");
  if (!entry) throw new Error("community_infomap is not registered");
  const graph = computeGraph(c.n, c.edges, { directed: c.directed ?? false });
  const out = entry.run(graph, params, cpuContext, "im");
  if (out.kind !== "nodes") throw new Error("expected node columns");
  return out.columns[0]?.values as Int32Array;
}

/** igraph's modularity of our membership and of igraph's own answer (same weights for both). */
async function compare(c: Case, call: string, membership: Int32Array, weighted: boolean) {
  const w = weighted ? ", weights='weight'" : "";
  // igraph runs once: its membership's modularity and cluster count come from the same answer.
  const [answers] = await runReference([
    {
      n: c.n,
      edges: c.edges,
      directed: c.directed ?? false,
      edgeAttrs: c.weight ? { weight: c.weight } : {},
      calls: [
        `g.modularity(${JSON.stringify(Array.from(membership))}${w})`,
        // python-igraph draws from python's random: seeded, so the reference answer is the same every run.
        `(lambda m: [g.modularity(m${w}), len(set(m))])((__import__('random').seed(7), ${call})[1].membership)`,
      ],
    },
  ]);
  const [theirs, theirCount] = answerValue<[number, number]>(answers?.[1]);
  return { ours: answerValue<number>(answers?.[0]), theirs, theirCount };
}

function count(membership: Int32Array): number {
  return new Set(membership).size;
}

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
