// igraph's DrL (drl, drl with dim=3, drl_3d): stress against python-igraph's own DrL layouts on the same graphs
// (median of five seeds), lower than a random layout where DrL can be, determinism, options, weights, the seed
// matrix, bad parameters, and the empty, single-vertex and disconnected graphs.
import { beforeAll, describe, expect, it } from "vitest";
import { computeGraph } from "../../kernels/cpu/csr.ts";
import { ComputeInputError, cpuContext } from "../../src/compute/types.ts";
import { findLayout } from "../../src/layout/registry.ts";
import { randomPositions } from "../../src/layout/seeded.ts";
import type { LayoutEntry } from "../../src/layout/types.ts";
import { allFinite, layoutStress } from "../helpers/layout-quality.ts";
import {
  connectedRandom,
  graphOf,
  gridGraph,
  igraphStress,
  median,
  refusedField,
  type TestGraph,
  treeGraph,
  twoCommunities,
} from "./energy-fixtures.ts";

const drl = findLayout("igraph", "drl") as LayoutEntry;
const drl3d = findLayout("igraph", "drl_3d") as LayoutEntry;
const place = (entry: LayoutEntry, g: TestGraph, params: Record<string, unknown> = {}) => entry.place(graphOf(g), params, cpuContext);

const grid = gridGraph(12);
const tree = treeGraph(121, 3);
const random = connectedRandom(150, 150, 5);
const communities = twoCommunities(60, 240, 4, 7);
const graphs = [grid, tree, random, communities];

describe("igraph drl against python-igraph's layout_drl", () => {
  let igraph2d: number[][] = [];
  let igraph3d: number[][] = [];
  beforeAll(async () => {
    [igraph2d, igraph3d] = await Promise.all([
      igraphStress(graphs, "g.layout_drl()", 5),
      igraphStress(graphs, "g.layout_drl(dim=3)", 5, 3),
    ]);
  }, 240_000);

  it("draws each graph within 10% of igraph's median stress, in 2D and 3D", () => {
    graphs.forEach((g, i) => {
      const ours2 = layoutStress(g.n, g.edges, place(drl, g), 2);
      const ours3 = layoutStress(g.n, g.edges, place(drl3d, g), 3);
      expect(ours2, `${g.name} 2D`).toBeLessThanOrEqual(1.1 * median(igraph2d[i] as number[]));
      expect(ours3, `${g.name} 3D`).toBeLessThanOrEqual(1.1 * median(igraph3d[i] as number[]));
    });
  }, 120_000);

  it("draws the grid, the tree and the random graph with lower stress than a random layout", () => {
    for (const g of [grid, tree, random]) {
      expect(layoutStress(g.n, g.edges, place(drl, g))).toBeLessThan(layoutStress(g.n, g.edges, randomPositions(g.n, 2, 1)));
      expect(layoutStress(g.n, g.edges, place(drl3d, g), 3)).toBeLessThan(layoutStress(g.n, g.edges, randomPositions(g.n, 3, 1), 3));
    }
  });

  it("separates the two communities (DrL crunches clusters: their stress is above a random layout's, igraph's too)", () => {
    const pos = place(drl, communities);
    const half = communities.n / 2;
    let inside = 0;
    let across = 0;
    let nInside = 0;
    let nAcross = 0;
    for (let a = 0; a < communities.n; a++)
      for (let b = a + 1; b < communities.n; b++) {
        const d = Math.hypot((pos[a * 2] as number) - (pos[b * 2] as number), (pos[a * 2 + 1] as number) - (pos[b * 2 + 1] as number));
        if (a < half === b < half) {
          inside += d;
          nInside++;
        } else {
          across += d;
          nAcross++;
        }
      }
    expect(inside / nInside).toBeLessThan(0.5 * (across / nAcross));
    expect(median(igraph2d[3] as number[])).toBeGreaterThan(
      layoutStress(communities.n, communities.edges, randomPositions(communities.n, 2, 1)),
    );
  });
});

describe("igraph drl parameters", () => {
  it("is deterministic; drl with dim=3 is drl_3d and answers x, y, z", () => {
    expect(place(drl, tree)).toEqual(place(drl, tree));
    expect(place(drl, tree, { dim: 3 })).toEqual(place(drl3d, tree));
    const out = drl.run(graphOf(tree), { dim: 3 }, cpuContext, "layout");
    expect(out.kind === "nodes" && out.columns.map((c) => c.name)).toEqual(["x", "y", "z"]);
    const flat = drl.run(graphOf(tree), { dim: 2 }, cpuContext, "layout");
    expect(flat.kind === "nodes" && flat.columns.map((c) => c.name)).toEqual(["x", "y"]);
  });

  it("runs step by step (live sessions): the schedule's passes give the layout, then steps stop", () => {
    for (const entry of [drl, drl3d]) {
      const iteration = entry.start?.(graphOf(tree), {}, cpuContext);
      if (!iteration) throw new Error(`${entry.name} has no start`);
      expect(iteration.dims).toBe(entry.dims);
      for (let i = 0; i < 2000; i++) iteration.step();
      // igraph's ReCompute makes 755 passes of the default schedule: liquid 200, expansion 200, cooldown 200,
      // crunch 50, simmer 100, and one at each of the four later stage changes and at the end
      expect(iteration.iteration).toBe(755);
      expect(Array.from(iteration.positions())).toEqual(Array.from(place(entry, tree)));
    }
  });

  it("takes the presets and option mappings; a mapping without edge cutting changes the layout", () => {
    const byPreset = ["default", "coarsen", "coarsest", "refine", "final"].map((options) => place(drl, random, { options }));
    for (const pos of byPreset) expect(allFinite(pos)).toBe(true);
    expect(byPreset[0]).toEqual(place(drl, random));
    expect(byPreset[1]).not.toEqual(byPreset[0]);
    expect(place(drl, random, { options: { edge_cut: 0 } })).not.toEqual(byPreset[0]);
    expect(place(drl, random, { options: { liquid_iterations: 200 } })).toEqual(byPreset[0]);
  });

  it("starts from the seed matrix: the refine preset keeps a good start's shape", () => {
    const start = place(drl, grid);
    const rows = Array.from({ length: grid.n }, (_, i) => [start[i * 2] as number, start[i * 2 + 1] as number]);
    const refined = place(drl, grid, { seed: rows, options: "refine" });
    const fromRandom = place(drl, grid, {
      seed: Array.from({ length: grid.n }, (_, i) => [((i * 7919) % 97) - 48, ((i * 104729) % 89) - 44]),
      options: "refine",
    });
    expect(layoutStress(grid.n, grid.edges, refined)).toBeLessThan(layoutStress(grid.n, grid.edges, fromRandom));
    expect(place(drl, grid, { seed: rows, fixed: [true] })).toEqual(place(drl, grid, { seed: rows }));
  });

  it("pulls heavier edges shorter", () => {
    const weight = Float64Array.from(random.edges, (_, e) => (e % 2 === 0 ? 20 : 1));
    const pos = place(drl, random, { weights: weight });
    const length = (e: number) => {
      const [a, b] = random.edges[e] as [number, number];
      return Math.hypot((pos[a * 2] as number) - (pos[b * 2] as number), (pos[a * 2 + 1] as number) - (pos[b * 2 + 1] as number));
    };
    const heavy = median(
      random.edges
        .map((_, e) => e)
        .filter((e) => e % 2 === 0)
        .map(length),
    );
    const light = median(
      random.edges
        .map((_, e) => e)
        .filter((e) => e % 2 === 1)
        .map(length),
    );
    expect(heavy).toBeLessThan(light);
  });

  it("refuses bad options, seeds and weights naming the field", () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ options: "fastest" }, "options"],
      [{ options: { liquid_iterations: -1 } }, "options"],
      [{ options: { cooldown_damping_mult: -0.5 } }, "options"],
      [{ options: { speed: 1 } }, "options"],
      [{ options: [1] }, "options"],
      [{ seed: [[0, 0]] }, "seed"],
      [{ seed: "origin" }, "seed"],
      [{ seed: Array.from({ length: tree.n }, () => [0, "a"]) }, "seed"],
      [{ weights: Float64Array.from(tree.edges, () => 0) }, "weights"],
      // igraph: "Exceeded density grid in DrL"
      [{ seed: Array.from({ length: tree.n }, (_, i) => [3000, i]) }, "seed"],
    ];
    for (const [params, field] of cases)
      expect(
        refusedField(() => place(drl, tree, params)),
        JSON.stringify(params),
      ).toBe(field);
    expect(() => place(drl3d, tree, { seed: Array.from({ length: tree.n }, () => [0, 0]) })).toThrow(ComputeInputError);
  });

  it("lays out the empty graph, one vertex, and a disconnected graph with isolated vertices", () => {
    expect(place(drl, { name: "empty", n: 0, edges: [] })).toHaveLength(0);
    expect(drl3d.place(computeGraph(0, []), {}, cpuContext)).toHaveLength(0);
    const one = place(drl, { name: "one", n: 1, edges: [] });
    expect(one).toHaveLength(2);
    expect(allFinite(one)).toBe(true);
    const parts: TestGraph = {
      name: "parts",
      n: 40,
      edges: [...treeGraph(15, 2).edges, ...treeGraph(15, 2).edges.map(([a, b]): [number, number] => [a + 15, b + 15])],
    };
    for (const entry of [drl, drl3d]) {
      const pos = place(entry, parts);
      expect(pos).toHaveLength(40 * entry.dims);
      expect(allFinite(pos)).toBe(true);
      // isolated vertices are pushed apart by the density, not left on one point
      expect(new Set(Array.from({ length: 10 }, (_, k) => `${pos[(30 + k) * entry.dims]},${pos[(30 + k) * entry.dims + 1]}`)).size).toBe(
        10,
      );
    }
  });
});
