// PageRank against python-igraph (Graph.pagerank) and networkx (nx.pagerank, what cugraph.pagerank matches).
import { describe, expect, it } from "vitest";
import { cugraphPagerank, igraphPagerank } from "../../src/compute/algorithms/centrality/pagerank.ts";
import { ComputeInputError } from "../../src/compute/types.ts";
import { answerValue as refValue, runReference } from "../helpers/graph-reference.ts";
import { asCompute, byNode, column, eachReference, expectClose, fixture, runEntry, type TestGraph } from "./centrality-fixtures.ts";

const graphs = [
  fixture(1, 60, 150, { isolated: 3, loops: 3, multi: 4 }),
  fixture(2, 200, 500, { isolated: 2 }),
  fixture(3, 40, 70, { loops: 2, multi: 3 }),
];

describe("igraph pagerank", () => {
  it("matches python-igraph, directed and undirected, weighted and not, with each parameter", async () => {
    const cases: { directed: boolean; params: Record<string, unknown>; call: string }[] = [
      { directed: true, params: {}, call: "g.pagerank()" },
      { directed: false, params: {}, call: "g.pagerank()" },
      { directed: true, params: { damping: 0.5 }, call: "g.pagerank(damping=0.5)" },
      { directed: true, params: { directed: false }, call: "g.pagerank(directed=False)" },
      { directed: true, params: { weights: "weight" }, call: "g.pagerank(weights='weight')" },
      { directed: false, params: { weights: "weight", damping: 0.7 }, call: "g.pagerank(weights='weight', damping=0.7)" },
    ];
    const mineFor = (directed: boolean) => cases.filter((c) => c.directed === directed);
    for (const { g, directed, answers } of await eachReference(graphs, (_, directed) => ({
      calls: mineFor(directed).map((c) => c.call),
    }))) {
      for (const [k, c] of mineFor(directed).entries()) {
        const params = { ...c.params, ...(c.params.weights ? { weights: Float64Array.from(g.weight) } : {}) };
        const out = runEntry(igraphPagerank, asCompute(g, directed), params, "pr");
        expectClose(column(out, "pr"), refValue<number[]>(answers[k]), `${c.call} directed=${directed}`);
      }
    }
  }, 120_000);

  it("ignores zero weights as PRPACK does", async () => {
    const g = fixture(4, 30, 60);
    const weight = g.weight.map((w, i) => (i % 5 === 0 ? 0 : w));
    const [answers] = await runReference([{ n: g.n, edges: g.edges, edgeAttrs: { weight }, calls: ["g.pagerank(weights='weight')"] }]);
    const out = runEntry(igraphPagerank, asCompute(g, true), { weights: Float64Array.from(weight) });
    expectClose(column(out, "pagerank"), refValue<number[]>(answers?.[0]));
  });
});

describe("cugraph pagerank (networkx's pagerank)", () => {
  it("matches nx.pagerank with the bound weight, alpha, tol, max_iter, personalization and nstart", async () => {
    const callsFor = (g: TestGraph) => [
      "nx.pagerank(G, tol=1e-5, weight=None)", // cuGraph's default tol (networkx's is 1e-6)
      "nx.pagerank(G, tol=1e-5, weight='weight')",
      "nx.pagerank(G, alpha=0.6, tol=1e-9, max_iter=500, weight=None)",
      `nx.pagerank(G, personalization={i: (i % 3) + 1 for i in range(${g.n})}, nstart={i: (i % 7) + 1 for i in range(${g.n})}, tol=1e-5, weight=None)`,
    ];
    for (const { g, directed, answers } of await eachReference(graphs, (g) => ({ calls: callsFor(g) }))) {
      const personal = Array.from({ length: g.n }, (_, i) => (i % 3) + 1);
      const start = Array.from({ length: g.n }, (_, i) => (i % 7) + 1);
      const runs = [
        runEntry(cugraphPagerank, asCompute(g, directed)),
        runEntry(cugraphPagerank, asCompute(g, directed, true)),
        runEntry(cugraphPagerank, asCompute(g, directed), { alpha: 0.6, tol: 1e-9, max_iter: 500 }),
        runEntry(cugraphPagerank, asCompute(g, directed), {
          personalization: Float64Array.from(personal),
          nstart: Float64Array.from(start),
        }),
      ];
      for (const [k, out] of runs.entries())
        expectClose(column(out, "pagerank"), byNode(refValue(answers[k]), g.n), `${callsFor(g)[k]} directed=${directed}`);
    }
  }, 120_000);

  it("refuses a run that does not converge in max_iter, as networkx and cuGraph do, unless told not to fail", async () => {
    const g = graphs[1] ?? fixture(2, 10, 10);
    const [answers] = await runReference([{ n: g.n, edges: g.edges, calls: ["nx.pagerank(G, max_iter=3)"] }]);
    expect(answers?.[0]?.ok).toBe(false);
    expect(() => runEntry(cugraphPagerank, asCompute(g, true), { max_iter: 3 })).toThrow(ComputeInputError);
    expect(column(runEntry(cugraphPagerank, asCompute(g, true), { max_iter: 3, fail_on_nonconvergence: false }), "pagerank")).toHaveLength(
      g.n,
    );
  });
});
