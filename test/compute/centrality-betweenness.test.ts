// Betweenness against python-igraph (Graph.betweenness) and networkx (what cuGraph's betweenness_centrality and
// edge_betweenness_centrality match), on multigraphs with self-loops and isolated nodes.
import { describe, expect, it } from "vitest";
import { cugraphBetweenness, cugraphEdgeBetweenness, igraphBetweenness } from "../../src/compute/algorithms/centrality/betweenness.ts";
import { ComputeInputError } from "../../src/compute/types.ts";
import { answerValue as refValue, runReference } from "../helpers/graph-reference.ts";
import { asCompute, byNode, column, eachReference, expectClose, fixture, runEntry } from "./centrality-fixtures.ts";

const graphs = [
  fixture(11, 60, 140, { isolated: 3, loops: 3, multi: 5 }),
  fixture(12, 150, 300, { isolated: 1 }),
  fixture(13, 30, 45, { multi: 4 }),
];

describe("igraph betweenness", () => {
  it("matches python-igraph: directed, undirected, directed=False, cutoff, weights", async () => {
    const cases: { params: Record<string, unknown>; call: string }[] = [
      { params: {}, call: "g.betweenness()" },
      { params: { directed: false }, call: "g.betweenness(directed=False)" },
      { params: { cutoff: 2 }, call: "g.betweenness(cutoff=2)" },
      { params: { cutoff: 0 }, call: "g.betweenness(cutoff=0)" },
      { params: { weights: "weight" }, call: "g.betweenness(weights='weight')" },
      { params: { weights: "weight", cutoff: 7 }, call: "g.betweenness(weights='weight', cutoff=7)" },
    ];
    for (const { g, directed, answers } of await eachReference(graphs, () => ({ calls: cases.map((c) => c.call) }))) {
      for (const [k, c] of cases.entries()) {
        const params = { ...c.params, ...(c.params.weights ? { weights: Float64Array.from(g.weight) } : {}) };
        expectClose(
          column(runEntry(igraphBetweenness, asCompute(g, directed), params), "betweenness"),
          refValue<number[]>(answers[k]),
          `${c.call} directed=${directed}`,
        );
      }
    }
  }, 120_000);

  it("refuses weights that are not positive, as igraph does", async () => {
    const g = graphs[2] ?? fixture(13, 30, 45);
    const weight = g.weight.map((w, i) => (i === 3 ? 0 : w));
    const [answers] = await runReference([{ n: g.n, edges: g.edges, edgeAttrs: { weight }, calls: ["g.betweenness(weights='weight')"] }]);
    expect(answers?.[0]?.ok).toBe(false);
    expect(() => runEntry(igraphBetweenness, asCompute(g, true), { weights: Float64Array.from(weight) })).toThrow(ComputeInputError);
  });
});

describe("cugraph betweenness_centrality and edge_betweenness_centrality (networkx's)", () => {
  it("match nx with normalized, endpoints and weight", async () => {
    const calls = [
      "nx.betweenness_centrality(G)",
      "nx.betweenness_centrality(G, normalized=False)",
      "nx.betweenness_centrality(G, endpoints=True)",
      "nx.betweenness_centrality(G, normalized=False, endpoints=True)",
      "nx.betweenness_centrality(G, weight='weight')",
      "[v for k, v in sorted(nx.edge_betweenness_centrality(G).items(), key=lambda kv: kv[0][2])]",
      "[v for k, v in sorted(nx.edge_betweenness_centrality(G, normalized=False).items(), key=lambda kv: kv[0][2])]",
      "[v for k, v in sorted(nx.edge_betweenness_centrality(G, weight='weight').items(), key=lambda kv: kv[0][2])]",
    ];
    for (const { g, directed, answers } of await eachReference(graphs, () => ({ calls }))) {
      const plain = asCompute(g, directed);
      const weighted = asCompute(g, directed, true);
      const nodeRuns = [
        runEntry(cugraphBetweenness, plain),
        runEntry(cugraphBetweenness, plain, { normalized: false }),
        runEntry(cugraphBetweenness, plain, { endpoints: true }),
        runEntry(cugraphBetweenness, plain, { normalized: false, endpoints: true }),
        runEntry(cugraphBetweenness, weighted, { weight: "weight" }),
      ];
      for (const [k, out] of nodeRuns.entries())
        expectClose(column(out, "betweenness_centrality"), byNode(refValue(answers[k]), g.n), `${calls[k]} directed=${directed}`);
      const edgeRuns = [
        runEntry(cugraphEdgeBetweenness, plain, {}, "eb"),
        runEntry(cugraphEdgeBetweenness, plain, { normalized: false }, "eb"),
        runEntry(cugraphEdgeBetweenness, weighted, { weight: "weight" }, "eb"),
      ];
      for (const [k, out] of edgeRuns.entries())
        expectClose(column(out, "eb"), refValue<number[]>(answers[5 + k]), `${calls[5 + k]} directed=${directed}`);
    }
  }, 120_000);

  it("samples k pivots deterministically by seed; k = n is the exact answer", () => {
    const g = fixture(14, 300, 900);
    const graph = asCompute(g, false);
    const exact = column(runEntry(cugraphBetweenness, graph), "betweenness_centrality");
    expectClose(column(runEntry(cugraphBetweenness, graph, { k: g.n, seed: 3 }), "betweenness_centrality"), exact);
    const a = column(runEntry(cugraphBetweenness, graph, { k: 40, seed: 7 }), "betweenness_centrality");
    expect(column(runEntry(cugraphBetweenness, graph, { k: 40, seed: 7 }), "betweenness_centrality")).toEqual(a);
    expect(column(runEntry(cugraphBetweenness, graph, { k: 40, seed: 8 }), "betweenness_centrality")).not.toEqual(a);
    const edges = column(runEntry(cugraphEdgeBetweenness, graph, { k: 40, seed: 7 }), "edge_betweenness_centrality");
    expect(column(runEntry(cugraphEdgeBetweenness, graph, { k: 40, seed: 7 }), "edge_betweenness_centrality")).toEqual(edges);
  });

  it("a tenth of the pivots ranks nodes as the exact answer does (Spearman >= 0.9)", () => {
    const g = fixture(15, 3000, 9000);
    const graph = asCompute(g, false);
    const exact = column(runEntry(cugraphBetweenness, graph), "betweenness_centrality") as number[];
    const sampled = column(runEntry(cugraphBetweenness, graph, { k: 300, seed: 1 }), "betweenness_centrality") as number[];
    expect(spearman(exact, sampled)).toBeGreaterThanOrEqual(0.9);
  });

  it("refuses k above the node count, as networkx's sample does", () => {
    const g = fixture(16, 10, 12);
    expect(() => runEntry(cugraphBetweenness, asCompute(g, true), { k: 11 })).toThrow(ComputeInputError);
  });
});

function ranks(values: number[]): number[] {
  const order = values.map((v, i) => [v, i] as const).sort((a, b) => a[0] - b[0]);
  const out = new Array<number>(values.length);
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j + 1 < order.length && order[j + 1]?.[0] === order[i]?.[0]) j++;
    for (let t = i; t <= j; t++) out[order[t]?.[1] as number] = (i + j) / 2;
    i = j + 1;
  }
  return out;
}

function spearman(a: number[], b: number[]): number {
  const ra = ranks(a);
  const rb = ranks(b);
  const mean = (a.length - 1) / 2;
  let num = 0;
  let da = 0;
  let db = 0;
  for (let i = 0; i < a.length; i++) {
    const x = (ra[i] as number) - mean;
    const y = (rb[i] as number) - mean;
    num += x * y;
    da += x * x;
    db += y * y;
  }
  return num / Math.sqrt(da * db);
}
