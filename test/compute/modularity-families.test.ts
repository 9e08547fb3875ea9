// Fast greedy, label propagation, leading eigenvector (igraph), ECG and the spectral clusterings (cuGraph) against
// igraph on seeded graphs: modularity no more than 0.01 below igraph's, valid labellings, deterministic answers.
import { describe, expect, it } from "vitest";
import { computeGraph } from "../../kernels/cpu/csr.ts";
import { spmv, spmvUndirectedCsr } from "../../kernels/cpu/spmv.ts";
import { weightedUndirected } from "../../src/compute/algorithms/modularity/graph.ts";
import { csrOperator } from "../../src/compute/algorithms/modularity/spectral.ts";
import { createComputeContext } from "../../src/compute/backend.ts";
import { ComputeInputError } from "../../src/compute/types.ts";
import { backends } from "../kernels/backends.ts";
import { disconnected, type Fixture, graphOf, judge, membershipOf, planted, powerLaw, samePartition } from "./modularity-fixtures.ts";

const fixtures: Fixture[] = [
  planted(31, 4, 25, 0.3, 0.02),
  planted(32, 5, 20, 0.3, 0.03, true),
  powerLaw(33, 500, 1500),
  disconnected(35, 5),
];

/** Removes repeated pairs (and reversed repeats), as fast greedy needs a simple graph. */
function simple(f: Fixture): Fixture {
  const seen = new Set<string>();
  const edges: [number, number][] = [];
  const weight: number[] = [];
  f.edges.forEach(([s, d], e) => {
    const key = s < d ? `${s},${d}` : `${d},${s}`;
    if (seen.has(key)) return;
    seen.add(key);
    edges.push([s, d]);
    if (f.weight) weight.push(f.weight[e] as number);
  });
  return { ...f, name: `${f.name} (simple)`, edges, weight: f.weight ? weight : null };
}

const seeded = (call: string) => `(__import__("random").seed(1), ${call})[1]`;

describe.each(fixtures.map(simple))("igraph fast greedy, leading eigenvector, cuGraph ECG on $name", (f) => {
  const weighted = f.weight !== null;
  const wt = weighted ? '"weight"' : "None";
  const graph = graphOf(f);
  const weightsParam = weighted && f.weight ? { weights: Float64Array.from(f.weight) } : {};

  it("reaches igraph's modularity (within 0.01)", async () => {
    const ours = [
      membershipOf("igraph", "community_fastgreedy", graph, weightsParam),
      membershipOf("igraph", "community_leading_eigenvector", graph, weightsParam),
      membershipOf("cugraph", "ecg", graphOf(f)),
    ];
    const { reference, ourQ } = await judge(
      f,
      [
        `g.community_fastgreedy(weights=${wt})`,
        `g.community_leading_eigenvector(weights=${wt})`,
        seeded(`g.community_multilevel(weights=${wt})`),
      ],
      ours,
      { weights: weighted },
    );
    const [fast, lev, multilevel] = reference.map((c) => c.modularity as number);
    expect(ourQ[0]).toBeGreaterThanOrEqual((fast as number) - 0.01);
    expect(ourQ[1]).toBeGreaterThanOrEqual((lev as number) - 0.01);
    // ECG's consensus is judged against Louvain (igraph has no ECG); it trades a little modularity for stability.
    expect(ourQ[2]).toBeGreaterThanOrEqual((multilevel as number) - 0.02);
  });

  it("answers the same partition twice; ECG with random_state reproducibly", () => {
    for (const name of ["community_fastgreedy", "community_leading_eigenvector", "community_label_propagation"])
      expect(Array.from(membershipOf("igraph", name, graph))).toEqual(Array.from(membershipOf("igraph", name, graph)));
    expect(Array.from(membershipOf("cugraph", "ecg", graph, { random_state: 3 }))).toEqual(
      Array.from(membershipOf("cugraph", "ecg", graph, { random_state: 3 })),
    );
  });
});

describe("fast greedy as igraph takes graphs", () => {
  it("refuses multi-edges as igraph does (a pair both ways counts)", async () => {
    const f: Fixture = {
      name: "pair",
      n: 3,
      edges: [
        [0, 1],
        [1, 0],
        [1, 2],
      ],
      weight: null,
    };
    const { reference } = await judge(f, [], []);
    void reference;
    expect(() => membershipOf("igraph", "community_fastgreedy", graphOf(f))).toThrow(ComputeInputError);
  });
  it("cuts the dendrogram where igraph does on a graph with one best cut", async () => {
    const f = simple(planted(41, 3, 12, 0.9, 0.01));
    const { reference } = await judge(f, ["g.community_fastgreedy()"], []);
    expect(samePartition(membershipOf("igraph", "community_fastgreedy", graphOf(f)), reference[0]?.membership ?? [])).toBe(true);
  });
});

describe("leading eigenvector", () => {
  it.each([disconnected(52, 3), planted(53, 4, 25, 0.3, 0.02), planted(54, 6, 20, 0.25, 0.03, true)])(
    "answers igraph's very membership (same splits, same numbering) on $name",
    async (f) => {
      const weights = f.weight ? { weights: Float64Array.from(f.weight) } : {};
      const ours = membershipOf("igraph", "community_leading_eigenvector", graphOf(f), weights);
      const { reference } = await judge(f, [`g.community_leading_eigenvector(weights=${f.weight ? '"weight"' : "None"})`], []);
      expect(Array.from(ours)).toEqual(reference[0]?.membership);
    },
  );

  it("starts from the components and stops after `clusters` - 1 steps, as igraph does", async () => {
    const f = simple(disconnected(51, 0));
    const graph = graphOf(f);
    const two = membershipOf("igraph", "community_leading_eigenvector", graph, { clusters: 2 });
    expect(new Set(two).size).toBe(3);
    const { reference } = await judge(f, ["g.community_leading_eigenvector(clusters=2)", "g.community_leading_eigenvector()"], []);
    expect(samePartition(two, reference[0]?.membership ?? [])).toBe(true);
    const all = membershipOf("igraph", "community_leading_eigenvector", graph);
    expect(new Set(all).size).toBe(new Set(reference[1]?.membership ?? []).size);
  });
});

describe.each(fixtures)("igraph label propagation on $name", (f) => {
  const weighted = f.weight !== null;
  const weights = f.weight ? Float64Array.from(f.weight) : null;
  const graph = graphOf(f, true);

  it("answers a valid labelling: every node's label is a most frequent (weighted) one among its neighbours", () => {
    const label = membershipOf("igraph", "community_label_propagation", graph, weighted ? { weights } : {});
    const score = Array.from({ length: f.n }, () => new Map<number, number>());
    f.edges.forEach(([s, d], e) => {
      const x = weights ? (weights[e] as number) : 1;
      if (s === d) return;
      const ms = score[s] as Map<number, number>;
      const md = score[d] as Map<number, number>;
      ms.set(label[d] as number, (ms.get(label[d] as number) ?? 0) + x);
      md.set(label[s] as number, (md.get(label[s] as number) ?? 0) + x);
    });
    let checked = 0;
    for (let v = 0; v < f.n; v++) {
      const m = score[v] as Map<number, number>;
      if (m.size === 0) continue;
      const best = Math.max(...m.values());
      expect(m.get(label[v] as number)).toBe(best);
      checked++;
    }
    expect(checked).toBeGreaterThan(f.n / 2);
  });
});

describe("label propagation's initial and fixed", () => {
  it("keeps fixed labels and spreads them", () => {
    // A path 0-1-2-3-4-5 with 0 fixed to label 7 and 5 fixed to label 9: both ends keep theirs.
    const graph = computeGraph(
      6,
      [
        [0, 1],
        [1, 2],
        [2, 3],
        [3, 4],
        [4, 5],
      ],
      { directed: false },
    );
    const initial = Float64Array.from([7, -1, -1, -1, -1, 9]);
    const fixed = Float64Array.from([1, 0, 0, 0, 0, 1]);
    const label = membershipOf("igraph", "community_label_propagation", graph, { initial, fixed });
    expect(label[0]).not.toBe(label[5]);
    expect(label[1]).toBe(label[0]);
    expect(label[4]).toBe(label[5]);
  });
});

describe("cuGraph spectral clusterings", () => {
  const f = planted(61, 4, 30, 0.35, 0.01);
  const graph = graphOf(f);
  const truth = Array.from({ length: f.n }, (_, i) => Math.floor(i / 30));

  it("modularity maximisation finds the planted groups, modularity within 0.01 of igraph's leading eigenvector", async () => {
    const ours = membershipOf("cugraph", "spectralModularityMaximizationClustering", graph, { num_clusters: 4, num_eigen_vects: 3 });
    const { reference, ourQ } = await judge(f, ["g.community_leading_eigenvector()"], [ours]);
    expect(ourQ[0]).toBeGreaterThanOrEqual((reference[0]?.modularity as number) - 0.01);
    expect(samePartition(ours, truth)).toBe(true);
  });

  it.each(backends)("runs its products on the spmv kernel: the same clusters on %s", (backend) => {
    const ctx = createComputeContext({ backend });
    for (const [name, vectors] of [
      ["spectralModularityMaximizationClustering", 3],
      ["spectralBalancedCutClustering", 4],
    ] as const) {
      const ours = membershipOf("cugraph", name, graph, { num_clusters: 4, num_eigen_vects: vectors }, ctx);
      expect(samePartition(ours, truth)).toBe(true);
    }
  });

  it("the CPU's products read the CSR as the undirected view reads it: same loops, strengths and products (weights, loops, parallel edges)", () => {
    const edges: [number, number][] = [];
    const weight: number[] = [];
    for (let i = 0; i < 400; i++) {
      const s = (i * 7) % 50;
      const t = i % 9 === 0 ? s : (i * 13 + 5) % 50;
      edges.push([s, t]);
      weight.push(1 + (i % 5) / 4);
      if (i % 11 === 0) {
        edges.push([t, s]);
        weight.push(0.5);
      }
    }
    for (const w of [null, Float64Array.from(weight)]) {
      const graph = computeGraph(50, edges, { directed: true, ...(w ? { weight: Array.from(w) } : {}) });
      const view = weightedUndirected(graph, w);
      const op = csrOperator(graph, w);
      expect(Array.from(op.loop)).toEqual(Array.from(view.loop));
      for (const [v, x] of view.strength.entries()) expect(op.strength[v]).toBeCloseTo(x, 12);
      expect(op.total).toBeCloseTo(view.total, 9);
      const x = Float64Array.from({ length: 50 }, (_, i) => Math.sin(i + 1));
      const want = spmv({ n: 50, start: view.start, nbr: view.nbr, weight: view.w as Float64Array | null, x });
      const got = spmvUndirectedCsr({ ...graph, weight: w, x, y: new Float64Array(50) });
      for (const [v, y] of want.entries()) expect(Math.abs((got[v] as number) - y)).toBeLessThanOrEqual(1e-12 * Math.max(1, Math.abs(y)));
    }
  });

  it("balanced cut finds the planted groups too, and answers num_clusters labels", () => {
    const ours = membershipOf("cugraph", "spectralBalancedCutClustering", graph, { num_clusters: 4, num_eigen_vects: 4 });
    expect(samePartition(ours, truth)).toBe(true);
    expect(new Set(ours).size).toBe(4);
  });

  it("is deterministic on a power-law graph", () => {
    const p = graphOf(powerLaw(62, 400, 1200));
    const a = membershipOf("cugraph", "spectralModularityMaximizationClustering", p, { num_clusters: 5, num_eigen_vects: 4 });
    const b = membershipOf("cugraph", "spectralModularityMaximizationClustering", p, { num_clusters: 5, num_eigen_vects: 4 });
    expect(Array.from(a)).toEqual(Array.from(b));
  });
});
