// igraph's graphopt: stress against python-igraph's layout_graphopt on the same graphs (median of five seeds),
// lower than a random layout, its physics (springs alone pull a component together, the move cap, the seed
// matrix as the start), determinism, bad parameters and edge cases.
import { beforeAll, describe, expect, it } from "vitest";
import { ComputeInputError, cpuContext } from "../../src/compute/types.ts";
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

const graphopt = findLayout("igraph", "graphopt") as LayoutEntry;
const params = (given: Record<string, unknown> = {}) => parseLayout({ libraries: ["igraph"], alg: "graphopt", params: given }).params;
const place = (g: TestGraph, given: Record<string, unknown> = {}) => graphopt.place(graphOf(g), params(given), cpuContext);

const grid = gridGraph(15);
const tree = treeGraph(200, 3);
const random = connectedRandom(200, 200, 5);
const communities = twoCommunities(100, 400, 5, 7);
const graphs = [grid, tree, random, communities];
const small = treeGraph(60, 3);
const smallRandom = connectedRandom(60, 60, 9);

describe("igraph graphopt against python-igraph's layout_graphopt", () => {
  let igraph: number[][] = [];
  beforeAll(async () => {
    igraph = await igraphStress(graphs, "g.layout_graphopt()", 5);
  }, 120_000);

  it("draws each graph within 10% of igraph's median stress and below a random layout's", () => {
    graphs.forEach((g, i) => {
      const ours = layoutStress(g.n, g.edges, place(g));
      expect(ours, g.name).toBeLessThanOrEqual(1.1 * median(igraph[i] as number[]));
      expect(ours, g.name).toBeLessThan(layoutStress(g.n, g.edges, randomPositions(g.n, 2, 1)));
    });
  }, 120_000);
});

describe("igraph graphopt physics and parameters", () => {
  it("is deterministic and starts from the seed matrix", () => {
    expect(place(small)).toEqual(place(small));
    const rows = Array.from({ length: small.n }, (_, i) => [i % 17, Math.floor(i / 17)]);
    // no movement allowed: the layout is the start
    expect(Array.from(place(small, { seed: rows, max_sa_movement: 0 }))).toEqual(rows.flat());
    expect(place(small, { seed: rows })).not.toEqual(place(small));
  });

  it("runs step by step (live sessions): niter steps are the layout; setParams changes the next steps", () => {
    const graph = graphOf(small);
    const iteration = graphopt.start?.(graph, params({ niter: 50 }), cpuContext);
    if (!iteration) throw new Error("graphopt has no start");
    for (let i = 0; i < 50; i++) iteration.step();
    expect(iteration.iteration).toBe(50);
    expect(Array.from(iteration.positions())).toEqual(Array.from(Float32Array.from(place(small, { niter: 50 }))));
    expect(graphopt.liveParams).toContain("node_charge");
    const before = Float64Array.from(iteration.positions());
    iteration.setParams?.({ max_sa_movement: 0 });
    iteration.step();
    expect(Float64Array.from(iteration.positions())).toEqual(before);
    const fromInitial = graphopt.start?.(graph, params(), cpuContext, new Float32Array(small.n * 2).fill(3));
    expect(Array.from(fromInitial?.positions() ?? [])).toEqual(new Array(small.n * 2).fill(3));
  });

  it("caps each step's move along each axis at max_sa_movement", () => {
    const rows = Array.from({ length: small.n }, (_, i) => [(i * 37) % 101, (i * 53) % 103]);
    const after = place(small, { seed: rows, niter: 1, max_sa_movement: 0.25 });
    let moved = 0;
    rows.flat().forEach((v, k) => {
      const delta = Math.abs((after[k] as number) - v);
      expect(delta).toBeLessThanOrEqual(0.25 + 1e-12);
      moved = Math.max(moved, delta);
    });
    expect(moved).toBeCloseTo(0.25, 12);
  });

  it("with no charge, springs of length 0 pull each component towards one point", () => {
    const start = place(smallRandom, { niter: 1, max_sa_movement: 0 });
    const spread = (pos: Float64Array) => {
      let worst = 0;
      for (const [a, b] of smallRandom.edges)
        worst = Math.max(
          worst,
          Math.hypot((pos[a * 2] as number) - (pos[b * 2] as number), (pos[a * 2 + 1] as number) - (pos[b * 2 + 1] as number)),
        );
      return worst;
    };
    expect(spread(place(smallRandom, { node_charge: 0, niter: 2000 }))).toBeLessThan(0.05 * spread(start));
  });

  it("refuses bad values naming the field", () => {
    for (const [given, field] of [
      [{ niter: 0 }, "niter"],
      [{ node_mass: 0 }, "node_mass"],
      [{ max_sa_movement: -1 }, "max_sa_movement"],
      [{ spring_length: -2 }, "spring_length"],
    ] as [Record<string, unknown>, string][]) {
      expect(refusedField(() => params(given))).toBe(`layout.params.${field}`);
    }
    expect(refusedField(() => place(small, { seed: [[1, 2]] }))).toBe("seed");
    expect(refusedField(() => place(small, { seed: Array.from({ length: small.n }, () => [1, 2, 3]) }))).toBe("seed");
    expect(() => place(small, { seed: { x: 1 } })).toThrow(ComputeInputError);
  });

  it("lays out the empty graph, one vertex, and a disconnected graph", () => {
    expect(place({ name: "empty", n: 0, edges: [] })).toHaveLength(0);
    const one = place({ name: "one", n: 1, edges: [] });
    expect(one).toHaveLength(2);
    expect(allFinite(one)).toBe(true);
    const parts: TestGraph = {
      name: "parts",
      n: 40,
      edges: [...treeGraph(15, 2).edges, ...treeGraph(15, 2).edges.map(([a, b]): [number, number] => [a + 15, b + 15])],
    };
    const pos = place(parts);
    expect(allFinite(pos)).toBe(true);
    expect(layoutStress(parts.n, parts.edges, pos)).toBeLessThan(layoutStress(parts.n, parts.edges, randomPositions(parts.n, 2, 1)));
  });
});
