// Louvain and Leiden (igraph community_multilevel / community_leiden, cuGraph louvain / leiden) against igraph:
// modularity no more than 0.01 below igraph's on the same graph, deterministic answers, refusals as igraph refuses.
import { describe, expect, it } from "vitest";
import { splitUndirected, weightedUndirected } from "../../src/compute/algorithms/modularity/graph.ts";
import { leiden } from "../../src/compute/algorithms/modularity/leiden.ts";
import { louvain } from "../../src/compute/algorithms/modularity/louvain.ts";
import { createComputeContext } from "../../src/compute/backend.ts";
import { ComputeInputError } from "../../src/compute/types.ts";
import { disconnected, type Fixture, graphOf, judge, membershipOf, planted, powerLaw, samePartition } from "./modularity-fixtures.ts";

const fixtures: Fixture[] = [
  planted(1, 4, 25, 0.3, 0.02),
  planted(2, 6, 20, 0.25, 0.03, true),
  powerLaw(3, 600, 2400),
  powerLaw(4, 800, 3000, true),
  disconnected(5, 7),
];

describe.each(fixtures)("Louvain and Leiden on $name", (f) => {
  const weighted = f.weight !== null;
  const graph = graphOf(f);
  const weightsParam = weighted ? { weights: f.weight ? Float64Array.from(f.weight) : null } : {};

  it("reaches igraph's modularity (within 0.01): multilevel and louvain vs multilevel, both Leidens vs Leiden", async () => {
    const wt = weighted ? '"weight"' : "None";
    const ours = [
      membershipOf("igraph", "community_multilevel", graph, weightsParam),
      membershipOf("cugraph", "louvain", graph),
      membershipOf("igraph", "community_leiden", graph, { ...weightsParam, objective_function: "modularity" }),
      membershipOf("cugraph", "leiden", graph),
    ];
    const { reference, ourQ } = await judge(
      f,
      [
        `(__import__("random").seed(1), g.community_multilevel(weights=${wt}))[1]`,
        `(__import__("random").seed(1), g.community_leiden(objective_function="modularity", weights=${wt}))[1]`,
      ],
      ours,
      { weights: weighted },
    );
    const [multilevel, leidenQ] = reference.map((c) => c.modularity);
    expect(ourQ[0]).toBeGreaterThanOrEqual((multilevel as number) - 0.01);
    expect(ourQ[1]).toBeGreaterThanOrEqual((multilevel as number) - 0.01);
    expect(ourQ[2]).toBeGreaterThanOrEqual((leidenQ as number) - 0.01);
    expect(ourQ[3]).toBeGreaterThanOrEqual((leidenQ as number) - 0.01);
  });

  it("follows igraph's resolution: at 0.5, modularity (γ = 0.5) within 0.01 of igraph's, fewer communities", async () => {
    const wt = weighted ? '"weight"' : "None";
    const half = membershipOf("igraph", "community_multilevel", graph, { ...weightsParam, resolution: 0.5 });
    const one = membershipOf("igraph", "community_multilevel", graph, weightsParam);
    const { reference, ourQ } = await judge(
      f,
      [`(__import__("random").seed(1), g.community_multilevel(weights=${wt}, resolution=0.5))[1]`],
      [half],
      {
        weights: weighted,
        resolution: 0.5,
      },
    );
    const theirs = reference[0]?.membership ?? [];
    const { ourQ: theirQ } = await judge(f, [], [Int32Array.from(theirs)], { weights: weighted, resolution: 0.5 });
    expect(ourQ[0]).toBeGreaterThanOrEqual((theirQ[0] as number) - 0.01);
    expect(new Set(half).size).toBeLessThanOrEqual(new Set(one).size);
  });

  it("reads the graph straight from the CSR (no undirected view) to the very same partitions as through the view", () => {
    const weights = f.weight ? Float64Array.from(f.weight) : null;
    const split = splitUndirected(graph, weights);
    const view = weightedUndirected(graph, weights);
    // Without self-loops the split form is two lists per node (its out-edges, then its in-edges), not the view's one.
    expect(split.start2 !== undefined).toBe(!f.edges.some(([a, b]) => a === b));
    const ctx = createComputeContext({ backend: "cpu" });
    for (const resolution of [1, 0.5]) {
      const options = { resolution, maxLevels: 1000, threshold: 1e-10, seed: 5 };
      const a = louvain(split, options, ctx);
      const b = louvain(view, options, ctx);
      expect(Array.from(a.membership)).toEqual(Array.from(b.membership));
      expect(a.modularity).toBe(b.modularity);
    }
    const leidenOptions = (g: typeof view) => ({
      gamma: 1 / g.total,
      nodeWeight: g.strength,
      beta: 0.01,
      iterations: 2,
      maxLevels: 100,
      initial: null,
      seed: 9,
    });
    expect(Array.from(leiden(split, leidenOptions(split), ctx))).toEqual(Array.from(leiden(view, leidenOptions(view), ctx)));
  });

  it("answers the same partition twice (fixed default seed) and a seeded cuGraph Leiden reproducibly", () => {
    expect(Array.from(membershipOf("igraph", "community_multilevel", graph))).toEqual(
      Array.from(membershipOf("igraph", "community_multilevel", graph)),
    );
    const a = membershipOf("cugraph", "leiden", graph, { random_state: 7 });
    const b = membershipOf("cugraph", "leiden", graph, { random_state: 7 });
    expect(Array.from(a)).toEqual(Array.from(b));
  });
});

describe("Leiden with igraph's default objective (CPM)", () => {
  it("scores the CPM quality at least as igraph does on the same graph", async () => {
    const f = planted(11, 5, 12, 0.8, 0.02);
    const graph = graphOf(f);
    const ours = membershipOf("igraph", "community_leiden", graph, { resolution_parameter: 0.3 });
    const { reference } = await judge(f, ['(__import__("random").seed(1), g.community_leiden(resolution_parameter=0.3))[1]'], []);
    const theirs = reference[0]?.membership ?? [];
    const cpm = (m: ArrayLike<number>) => {
      const size = new Map<number, number>();
      for (let i = 0; i < m.length; i++) size.set(m[i] as number, (size.get(m[i] as number) ?? 0) + 1);
      let inside = 0;
      for (const [s, d] of f.edges) if (m[s] === m[d]) inside++;
      let q = inside;
      for (const c of size.values()) q -= (0.3 * c * c) / 2;
      return q;
    };
    expect(cpm(ours)).toBeGreaterThanOrEqual(cpm(theirs) - 1e-9);
    // On these near-cliques CPM finds the planted groups.
    expect(new Set(ours).size).toBeGreaterThanOrEqual(5);
  });

  it("CPM at resolution 1 keeps an unweighted sparse graph in (near) singletons, as igraph does", async () => {
    const f = powerLaw(12, 200, 400);
    const ours = membershipOf("igraph", "community_leiden", graphOf(f));
    const { reference } = await judge(f, ['(__import__("random").seed(1), g.community_leiden())[1]'], []);
    const theirs = reference[0]?.membership ?? [];
    expect(Math.abs(new Set(ours).size - new Set(theirs).size)).toBeLessThanOrEqual(f.n * 0.05);
  });

  it("starts from initial_membership and keeps a partition that cannot improve", () => {
    const f = planted(13, 3, 10, 1, 0);
    const graph = graphOf(f);
    const initial = new Float64Array(f.n).map((_, i) => Math.floor(i / 10));
    const out = membershipOf("igraph", "community_leiden", graph, { objective_function: "modularity", initial_membership: initial });
    expect(samePartition(out, initial)).toBe(true);
  });
});

describe("refusals", () => {
  const f = planted(21, 2, 10, 0.5, 0.1);
  it("refuses return_levels=True and negative weights, naming the parameter", () => {
    const graph = graphOf(f);
    expect(() => membershipOf("igraph", "community_multilevel", graph, { return_levels: true })).toThrow(ComputeInputError);
    const negative = new Float64Array(f.edges.length).fill(1);
    negative[3] = -1;
    expect(() => membershipOf("igraph", "community_multilevel", graph, { weights: negative })).toThrow(/weights/);
  });
  it("leaves isolated nodes and an edgeless graph as singletons", () => {
    const graph = graphOf({ name: "empty", n: 4, edges: [], weight: null });
    expect(Array.from(membershipOf("cugraph", "louvain", graph))).toEqual([0, 1, 2, 3]);
    expect(Array.from(membershipOf("igraph", "community_leiden", graph, { objective_function: "modularity" }))).toEqual([0, 1, 2, 3]);
  });
});
