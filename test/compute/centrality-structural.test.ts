// Burt's constraint, bibliographic coupling and cocitation against python-igraph, on graphs with isolated
// nodes, self-loops and parallel edges.
import { describe, expect, it } from "vitest";
import { igraphBibcoupling, igraphCocitation } from "../../src/compute/algorithms/centrality/cocitation.ts";
import { igraphConstraint } from "../../src/compute/algorithms/centrality/constraint.ts";
import { ComputeInputError } from "../../src/compute/types.ts";
import { answerValue as refValue } from "../helpers/graph-reference.ts";
import { asCompute, column, eachReference, expectClose, fixture, runEntry } from "./centrality-fixtures.ts";

const graphs = [fixture(41, 50, 120, { isolated: 3, loops: 3, multi: 5 }), fixture(42, 90, 200)];

describe("igraph constraint", () => {
  it("matches python-igraph, weighted and not", async () => {
    for (const { g, directed, answers } of await eachReference(graphs, () => ({
      calls: ["g.constraint()", "g.constraint(weights='weight')"],
    }))) {
      expectClose(
        column(runEntry(igraphConstraint, asCompute(g, directed)), "constraint"),
        refValue<number[]>(answers[0]),
        `directed=${directed}`,
      );
      expectClose(
        column(runEntry(igraphConstraint, asCompute(g, directed), { weights: Float64Array.from(g.weight) }), "constraint"),
        refValue<number[]>(answers[1]),
        `weighted directed=${directed}`,
      );
    }
  }, 120_000);
});

describe("igraph bibcoupling and cocitation", () => {
  it("answer igraph's n x n matrix as a list per node", async () => {
    for (const { g, directed, answers } of await eachReference(graphs, () => ({
      calls: ["g.bibcoupling()", "g.cocitation()"],
      weighted: false,
    }))) {
      for (const [k, entry] of [igraphBibcoupling, igraphCocitation].entries()) {
        const out = runEntry(entry, asCompute(g, directed), {}, "m");
        if (out.kind !== "nodes") throw new Error("expected node columns");
        expect(out.columns[0]?.type).toBe("list<int64>");
        expect(Array.from(out.columns[0]?.values as ArrayLike<number[]>)).toEqual(refValue(answers[k]));
      }
    }
  }, 120_000);

  it("refuses a graph whose n x n answer is too large", () => {
    expect(() => runEntry(igraphCocitation, asCompute({ n: 6000, edges: [[0, 1]], weight: [1] }, true))).toThrow(ComputeInputError);
  });
});
