// Eigenvector-type centralities against the real libraries: igraph's eigenvector_centrality, hub_score and
// authority_score; networkx's katz_centrality (on the reversed graph: cuGraph's Katz follows out-edges) and hits.
import { describe, expect, it } from "vitest";
import { igraphAuthorityScore, igraphEigenvector, igraphHubScore } from "../../src/compute/algorithms/centrality/eigenvector.ts";
import { cugraphHits, cugraphKatz } from "../../src/compute/algorithms/centrality/katz-hits.ts";
import { ComputeInputError } from "../../src/compute/types.ts";
import { answerValue as refValue, runReference } from "../helpers/graph-reference.ts";
import { asCompute, byNode, column, eachReference, expectClose, fixture, runEntry, type TestGraph } from "./centrality-fixtures.ts";

const graphs = [fixture(31, 60, 160, { isolated: 2, loops: 3, multi: 4 }), fixture(32, 150, 420, { isolated: 1 })];

describe("igraph eigenvector_centrality, hub_score, authority_score", () => {
  it("match python-igraph with scale, directed and weights", async () => {
    const cases = [
      { entry: igraphEigenvector, params: {}, call: "g.eigenvector_centrality()" },
      { entry: igraphEigenvector, params: { scale: false }, call: "g.eigenvector_centrality(scale=False)" },
      { entry: igraphEigenvector, params: { directed: false }, call: "g.eigenvector_centrality(directed=False)" },
      { entry: igraphEigenvector, params: { weights: "weight" }, call: "g.eigenvector_centrality(weights='weight')" },
      { entry: igraphHubScore, params: {}, call: "g.hub_score()" },
      { entry: igraphHubScore, params: { scale: false, weights: "weight" }, call: "g.hub_score(scale=False, weights='weight')" },
      { entry: igraphAuthorityScore, params: {}, call: "g.authority_score()" },
      { entry: igraphAuthorityScore, params: { weights: "weight" }, call: "g.authority_score(weights='weight')" },
    ];
    for (const { g, directed, answers } of await eachReference(graphs, () => ({ calls: cases.map((c) => c.call) }))) {
      for (const [k, c] of cases.entries()) {
        const params = { ...c.params, ...(c.params.weights ? { weights: Float64Array.from(g.weight) } : {}) };
        expectClose(
          column(runEntry(c.entry, asCompute(g, directed), params, "x"), "x"),
          refValue<number[]>(answers[k]),
          `${c.call} directed=${directed}`,
        );
      }
    }
  }, 120_000);

  it("answer as igraph on a directed acyclic graph and a graph without edges", async () => {
    const dag = {
      n: 5,
      edges: [
        [0, 1],
        [1, 2],
        [0, 2],
        [2, 3],
      ] as [number, number][],
      weight: [1, 1, 1, 1],
    };
    const empty = { n: 3, edges: [] as [number, number][], weight: [] };
    const calls = ["g.eigenvector_centrality()", "g.hub_score()", "g.authority_score()"];
    const [onDag, onEmpty] = await runReference([
      { n: dag.n, edges: dag.edges, calls },
      { n: empty.n, edges: [], calls },
    ]);
    for (const [k, entry] of [igraphEigenvector, igraphHubScore, igraphAuthorityScore].entries()) {
      expectClose(column(runEntry(entry, asCompute(dag, true), {}, "x"), "x"), refValue<number[]>(onDag?.[k]), `dag ${calls[k]}`);
      expectClose(column(runEntry(entry, asCompute(empty, true), {}, "x"), "x"), refValue<number[]>(onEmpty?.[k]), `empty ${calls[k]}`);
    }
  });

  it("refuses return_eigenvalue=True (a pair, not a column)", () => {
    expect(() => runEntry(igraphEigenvector, asCompute(fixture(33, 5, 6), false), { return_eigenvalue: true })).toThrow(ComputeInputError);
  });
});

describe("cugraph katz_centrality and hits (networkx's)", () => {
  // networkx's katz refuses multigraphs: these graphs have self-loops but no parallel edges.
  const simple = [fixture(34, 60, 150, { isolated: 2, loops: 2, simple: true }), fixture(35, 100, 260, { simple: true })];

  it("katz matches nx.katz_centrality on the reversed graph with alpha, beta, tol, nstart, normalized and the bound weight", async () => {
    const callsFor = (g: TestGraph, directed: boolean) => {
      const H = directed ? "nx.DiGraph(G).reverse()" : "nx.Graph(G)";
      const maxOut = `max([d for _, d in ${directed ? "nx.DiGraph(G).out_degree()" : "nx.Graph(G).degree()"}])`;
      return [
        `nx.katz_centrality(${H}, alpha=1 / ${maxOut}, max_iter=100, tol=1e-6)`,
        `nx.katz_centrality(${H}, alpha=0.05, beta=2.0, tol=1e-9, max_iter=1000)`,
        `nx.katz_centrality(${H}, alpha=0.05, normalized=False, nstart={i: 1.0 for i in range(${g.n})})`,
        `nx.katz_centrality(${H}, alpha=0.01, weight='weight')`,
      ];
    };
    for (const { g, directed, answers } of await eachReference(simple, (g, directed) => ({ calls: callsFor(g, directed) }))) {
      const calls = callsFor(g, directed);
      const graph = asCompute(g, directed);
      const runs = [
        runEntry(cugraphKatz, graph),
        runEntry(cugraphKatz, graph, { alpha: 0.05, beta: 2, tol: 1e-9, max_iter: 1000 }),
        runEntry(cugraphKatz, graph, { alpha: 0.05, normalized: false, max_iter: 1000, nstart: new Float64Array(g.n).fill(1) }),
        runEntry(cugraphKatz, asCompute(g, directed, true), { alpha: 0.01, max_iter: 1000 }),
      ];
      for (const [k, out] of runs.entries())
        expectClose(column(out, "katz_centrality"), byNode(refValue(answers[k]), g.n), `${calls[k]} directed=${directed}`);
    }
  }, 120_000);

  it("katz refuses an alpha that does not converge, as networkx does", async () => {
    const g = simple[1] ?? fixture(35, 100, 260);
    const [answers] = await runReference([
      { n: g.n, edges: g.edges, calls: ["nx.katz_centrality(nx.DiGraph(G).reverse(), alpha=0.9, max_iter=100)"] },
    ]);
    expect(answers?.[0]?.ok).toBe(false);
    expect(() => runEntry(cugraphKatz, asCompute(g, true), { alpha: 0.9 })).toThrow(ComputeInputError);
  });

  it("hits matches nx.hits (hubs under the label, then authorities), weighted by the bound weight", async () => {
    // The first call drops the weight attribute (a copy of G's nodes and edges), the second reads it.
    const calls = [
      "(lambda H: (H.add_nodes_from(G), H.add_edges_from(G.edges(keys=True)), nx.hits(H, tol=1e-10, max_iter=100000))[2])(G.__class__())",
      "nx.hits(G, tol=1e-10, max_iter=100000)",
    ];
    for (const { g, directed, answers } of await eachReference(graphs, () => ({ calls }))) {
      for (const [answer, graph] of [
        [answers[0], asCompute(g, directed)],
        [answers[1], asCompute(g, directed, true)],
      ] as const) {
        const [hubs, authorities] = refValue<[unknown, unknown]>(answer);
        const out = runEntry(cugraphHits, graph, {}, "hub");
        expectClose(column(out, "hub"), byNode(hubs, g.n), `hubs directed=${directed}`, 1e-6, 1e-10);
        expectClose(column(out, "authorities"), byNode(authorities, g.n), `authorities directed=${directed}`, 1e-6, 1e-10);
      }
    }
  }, 120_000);
});
