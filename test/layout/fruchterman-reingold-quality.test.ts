// igraph's fr / fr_3d: stress (test/helpers/layout-quality.ts) lower than a random layout's and, as the median over
// several starts, within 10% of python-igraph's own layout_fruchterman_reingold (median over random.seed(k)), with
// and without weights, all-pairs and grid, 2D and 3D, connected and not.
import { describe, expect, it } from "vitest";
import { computeGraph } from "../../kernels/cpu/csr.ts";
import { cpuContext } from "../../src/compute/types.ts";
import { findLayout } from "../../src/layout/registry.ts";
import { seededRandom } from "../../src/layout/seeded.ts";
import { allFinite, layoutStress, randomGraph } from "../helpers/layout-quality.ts";
import { type Case, igraphStresses, median, ourStresses } from "./fruchterman-reingold-fixtures.ts";

const STARTS = [1, 2, 3, 4, 5];
const SEEDS = [0, 1, 2, 3, 4];

function randomStress(c: Case, dims: 2 | 3): number {
  const random = seededRandom(99);
  const positions = Float64Array.from({ length: c.n * dims }, () => random());
  return layoutStress(c.n, c.edges, positions, dims);
}

const small: Case = { n: 100, edges: randomGraph(100, 200, 7) };
const weightedEdges = randomGraph(90, 180, 17);
const weighted: Case = { n: 90, edges: weightedEdges, weights: weightedEdges.map((_, e) => 1 + (e % 4) / 2) };
const disconnected: Case = {
  n: 90,
  edges: [...randomGraph(45, 80, 11), ...randomGraph(45, 80, 12).map(([a, b]) => [a + 45, b + 45] as [number, number])],
};
const large: Case = { n: 1200, edges: randomGraph(1200, 2400, 13) };

describe.each([
  { name: "2D all pairs", c: small, dims: 2 as const, grid: "nogrid" },
  { name: "2D all pairs, weighted", c: weighted, dims: 2 as const, grid: "nogrid" },
  { name: "2D all pairs, disconnected", c: disconnected, dims: 2 as const, grid: "nogrid" },
  { name: "2D grid", c: large, dims: 2 as const, grid: "grid" },
  { name: "3D all pairs", c: small, dims: 3 as const, grid: "nogrid" },
  { name: "3D all pairs, weighted", c: weighted, dims: 3 as const, grid: "nogrid" },
])("igraph fr: $name", ({ c, dims, grid }) => {
  it("has a lower stress than a random layout, and within 10% of python-igraph's (medians)", async () => {
    const graph = computeGraph(c.n, c.edges, { directed: false });
    const seeded = findLayout("igraph", dims === 3 ? "fr_3d" : "fr")?.place(
      graph,
      { grid, weights: c.weights ? Float64Array.from(c.weights) : null },
      cpuContext,
    ) as Float64Array;
    expect(allFinite(seeded)).toBe(true);
    expect(layoutStress(c.n, c.edges, seeded, dims)).toBeLessThan(randomStress(c, dims) * 0.8);
    const ours = median(ourStresses(c, dims, { grid }, cpuContext, STARTS));
    const theirs = median(await igraphStresses(c, dims, grid, SEEDS));
    expect(ours).toBeLessThan(theirs * 1.1);
  }, 120_000);
});

describe("igraph fr_3d on a large graph (our 3D grid; igraph's 3D always runs all pairs)", () => {
  it("stays within 10% of python-igraph's 3D stress", async () => {
    const c = large;
    const ours = median(ourStresses(c, 3, { grid: "auto" }, cpuContext, [1, 2, 3]));
    const theirs = median(await igraphStresses(c, 3, "auto", [0, 1, 2]));
    expect(ours).toBeLessThan(theirs * 1.1);
  }, 180_000);
});
