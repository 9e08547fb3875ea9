// igraph's Large Graph Layout (lgl, large, large_graph): stress against python-igraph's layout_lgl on the same
// graphs (median of five seeds; igraph 0.10 leaves the root's children at their random start, so ours is far
// below), lower than a random layout, the BFS growth from the root, determinism, parameters and edge cases.
import { beforeAll, describe, expect, it } from "vitest";
import { cpuContext } from "../../src/compute/types.ts";
import { parseLayout } from "../../src/layout/parse.ts";
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

const lgl = findLayout("igraph", "lgl") as LayoutEntry;
const place = (g: TestGraph, params: Record<string, unknown> = {}) =>
  lgl.place(graphOf(g), { maxiter: 150, coolexp: 1.5, ...params }, cpuContext);

const grid = gridGraph(15);
const tree = treeGraph(200, 3);
const random = connectedRandom(200, 200, 5);
const communities = twoCommunities(100, 400, 5, 7);
const graphs = [grid, tree, random, communities];

describe("igraph lgl against python-igraph's layout_lgl", () => {
  let igraph: number[][] = [];
  beforeAll(async () => {
    // python-igraph 0.10 refuses root=None: its seeds pick the root as igraph would (uniformly at random)
    const answers = await Promise.all(graphs.map((g, i) => igraphStress([g], `g.layout_lgl(root=${(i * 37) % g.n})`, 5)));
    igraph = answers.map((a) => a[0] as number[]);
  }, 120_000);

  it("draws each graph within 10% of igraph's median stress and below a random layout's", () => {
    graphs.forEach((g, i) => {
      const ours = layoutStress(g.n, g.edges, place(g));
      expect(ours, g.name).toBeLessThanOrEqual(1.1 * median(igraph[i] as number[]));
      expect(ours, g.name).toBeLessThan(layoutStress(g.n, g.edges, randomPositions(g.n, 2, 1)));
    });
  }, 120_000);

  it("grows the tree from the root outwards: deeper levels sit farther from the root", () => {
    const pos = place(tree, { root: 0 });
    const level = (v: number): number => (v === 0 ? 0 : 1 + level(Math.floor((v - 1) / 3)));
    const byLevel = new Map<number, number[]>();
    for (let v = 1; v < tree.n; v++) {
      const d = Math.hypot((pos[v * 2] as number) - (pos[0] as number), (pos[v * 2 + 1] as number) - (pos[1] as number));
      byLevel.set(level(v), [...(byLevel.get(level(v)) ?? []), d]);
    }
    const medians = [...byLevel.keys()].sort().map((k) => median(byLevel.get(k) as number[]));
    for (let k = 1; k < medians.length; k++) expect(medians[k]).toBeGreaterThan(medians[k - 1] as number);
  });
});

describe("igraph lgl parameters", () => {
  it("is deterministic; large and large_graph are lgl; root and the area change the layout", () => {
    expect(place(random)).toEqual(place(random));
    for (const name of ["large", "large_graph"]) {
      const alias = findLayout("igraph", name) as LayoutEntry;
      expect(alias.params).toBe(lgl.params);
      expect(alias.place(graphOf(random), { maxiter: 150, coolexp: 1.5 }, cpuContext)).toEqual(place(random));
    }
    expect(place(random, { root: 3 })).not.toEqual(place(random, { root: 4 }));
    expect(allFinite(place(random, { area: 5000, cellsize: 10, repulserad: 1e6, maxdelta: 20, maxiter: 30, coolexp: 2 }))).toBe(true);
    // null or non-positive area, repulserad and cellsize take python-igraph's defaults
    expect(place(random, { area: -1, repulserad: 0, cellsize: null })).toEqual(place(random));
  });

  it("answers 400 naming the field for bad values", () => {
    const bad: [Record<string, unknown>, string][] = [
      [{ maxiter: 0 }, "maxiter"],
      [{ maxdelta: 0 }, "maxdelta"],
      [{ coolexp: -1 }, "coolexp"],
      [{ area: "big" }, "area"],
      [{ wobble: 1 }, "wobble"],
    ];
    for (const [params, name] of bad)
      for (const alg of ["lgl", "large", "large_graph"])
        expect(
          refusedField(() => parseLayout({ libraries: ["igraph"], alg, params })),
          `${alg} ${JSON.stringify(params)}`,
        ).toBe(`layout.params.${name}`);
  });

  it("lays out the empty graph, one vertex, and disconnected graphs", () => {
    expect(place({ name: "empty", n: 0, edges: [] })).toHaveLength(0);
    expect(Array.from(place({ name: "one", n: 1, edges: [] }))).toEqual([0, 0]);
    const parts: TestGraph = {
      name: "parts",
      n: 35,
      edges: [...treeGraph(15, 2).edges, ...treeGraph(15, 2).edges.map(([a, b]): [number, number] => [a + 15, b + 15])],
    };
    const pos = place(parts, { root: 0 });
    expect(pos).toHaveLength(70);
    expect(allFinite(pos)).toBe(true);
    const first = { name: "first", n: 15, edges: treeGraph(15, 2).edges };
    // the root's component is laid out as on its own (the others keep their random start, as in igraph)
    expect(layoutStress(15, first.edges, pos.subarray(0, 30))).toBeLessThan(layoutStress(15, first.edges, randomPositions(15, 2, 1)));
  });
});
