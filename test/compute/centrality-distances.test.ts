// Closeness, harmonic centrality and eccentricity against python-igraph, with each mode, cutoff, weights and
// normalized, on graphs with isolated nodes, self-loops and parallel edges.
import { describe, expect, it } from "vitest";
import { igraphCloseness, igraphEccentricity, igraphHarmonic } from "../../src/compute/algorithms/centrality/distances.ts";
import { ComputeInputError } from "../../src/compute/types.ts";
import { answerValue as refValue, runReference } from "../helpers/graph-reference.ts";
import { asCompute, column, eachReference, expectClose, fixture, runEntry } from "./centrality-fixtures.ts";

const graphs = [fixture(21, 60, 120, { isolated: 3, loops: 2, multi: 4 }), fixture(22, 120, 180, { isolated: 1 })];

describe("igraph closeness, harmonic_centrality, eccentricity", () => {
  it("match python-igraph with every parameter", async () => {
    const cases: { entry: typeof igraphCloseness; params: Record<string, unknown>; call: string }[] = [];
    for (const [entry, name] of [
      [igraphCloseness, "closeness"],
      [igraphHarmonic, "harmonic_centrality"],
    ] as const) {
      cases.push(
        { entry, params: {}, call: `g.${name}()` },
        { entry, params: { mode: "out" }, call: `g.${name}(mode='out')` },
        { entry, params: { mode: "in" }, call: `g.${name}(mode='in')` },
        { entry, params: { normalized: false }, call: `g.${name}(normalized=False)` },
        { entry, params: { weights: "weight" }, call: `g.${name}(weights='weight')` },
      );
    }
    // python-igraph 0.10.2's closeness and harmonic_centrality answer NaN / 0 for every node whenever a cutoff is
    // given (a binding fault: even cutoff=10 on a 5-node path); the cutoff cases are checked against igraph's own
    // distance matrix instead, with the documented meaning (only paths at most `cutoff` long).
    const fromDistances = (kind: "closeness" | "harmonic", cutoff: number, mode: string, weighted: boolean) =>
      `[(lambda ds: ${kind === "closeness" ? "(len(ds) / sum(ds)) if ds else None" : "sum(1 / d for d in ds) / (g.vcount() - 1)"})` +
      `([d for j, d in enumerate(row) if j != i and d <= ${cutoff}]) for i, row in enumerate(g.distances(mode='${mode}'${weighted ? ", weights='weight'" : ""}))]`;
    cases.push(
      { entry: igraphCloseness, params: { cutoff: 2, mode: "out" }, call: fromDistances("closeness", 2, "out", false) },
      { entry: igraphCloseness, params: { cutoff: 9, mode: "in", weights: "weight" }, call: fromDistances("closeness", 9, "in", true) },
      { entry: igraphHarmonic, params: { cutoff: 2, mode: "all" }, call: fromDistances("harmonic", 2, "all", false) },
      { entry: igraphHarmonic, params: { cutoff: 9, mode: "out", weights: "weight" }, call: fromDistances("harmonic", 9, "out", true) },
    );
    cases.push(
      { entry: igraphEccentricity, params: {}, call: "g.eccentricity()" },
      { entry: igraphEccentricity, params: { mode: "out" }, call: "g.eccentricity(mode='out')" },
      { entry: igraphEccentricity, params: { mode: "in" }, call: "g.eccentricity(mode='in')" },
    );
    for (const { g, directed, answers } of await eachReference(graphs, () => ({ calls: cases.map((c) => c.call) }))) {
      for (const [k, c] of cases.entries()) {
        const params = { ...c.params, ...(c.params.weights ? { weights: Float64Array.from(g.weight) } : {}) };
        const got = column(runEntry(c.entry, asCompute(g, directed), params, "x"), "x");
        expectClose(got, refValue<(number | null)[]>(answers[k]), `${c.call} directed=${directed}`);
      }
    }
  });

  it("answers null for a node that reaches nobody, and a lone node as igraph does", async () => {
    const [answers] = await runReference([{ n: 1, edges: [], calls: ["g.closeness()", "g.harmonic_centrality()", "g.eccentricity()"] }]);
    const lone = asCompute({ n: 1, edges: [], weight: [] }, true);
    expect(column(runEntry(igraphCloseness, lone), "closeness")).toEqual(refValue(answers?.[0]));
    expect(column(runEntry(igraphHarmonic, lone), "harmonic_centrality")).toEqual(refValue(answers?.[1]));
    expect(column(runEntry(igraphEccentricity, lone), "eccentricity")).toEqual(refValue(answers?.[2]));
  });

  it("refuses weights that are not positive, as igraph does", () => {
    const g = fixture(23, 10, 12);
    const weights = Float64Array.from(g.weight, (w, i) => (i === 0 ? -1 : w));
    expect(() => runEntry(igraphCloseness, asCompute(g, true), { weights })).toThrow(ComputeInputError);
    expect(() => runEntry(igraphHarmonic, asCompute(g, true), { weights })).toThrow(ComputeInputError);
  });
});
