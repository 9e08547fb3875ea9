// igraph's star, grid, grid_3d, sphere (and its aliases), random and random_3d against python-igraph 0.10's
// layout_star / layout_grid / layout_sphere / layout_random, plus each layout's defining property and bad input.
import { describe, expect, it } from "vitest";
import { computeGraph } from "../../kernels/cpu/csr.ts";
import { ComputeInputError, cpuContext } from "../../src/compute/types.ts";
import { findLayout } from "../../src/layout/registry.ts";
import { answerValue, runReference } from "../helpers/graph-reference.ts";
import { allFinite, randomGraph } from "../helpers/layout-quality.ts";

const graphOf = (n: number, edges: [number, number][] = []) => computeGraph(n, edges, { directed: false });

function place(name: string, n: number, params: Record<string, unknown> = {}, edges: [number, number][] = []): Float64Array {
  const entry = findLayout("igraph", name);
  if (!entry) throw new Error(`no igraph layout ${name}`);
  return entry.place(graphOf(n, edges), params, cpuContext);
}

function expectRows(positions: Float64Array, expected: number[][], dims: number, digits = 12): void {
  expect(positions.length).toBe(expected.length * dims);
  for (let i = 0; i < expected.length; i++)
    for (let d = 0; d < dims; d++) expect(positions[i * dims + d]).toBeCloseTo(expected[i]?.[d] as number, digits);
}

function inputError(run: () => unknown): ComputeInputError {
  try {
    run();
  } catch (error) {
    if (error instanceof ComputeInputError) return error;
    throw error;
  }
  throw new Error("expected a ComputeInputError");
}

describe("igraph star, grid, grid_3d, sphere", () => {
  const n = 29;
  const edges = randomGraph(n, 40, 5);
  const sizes = [0, 1, 2, 3, 7, 8, 26, 27, 28, 64, 100, 125, 343, 1000];

  it("match python-igraph's layouts (every size, center and order, widths, heights)", async () => {
    const order = [4, 0, 9, ...Array.from({ length: n }, (_, i) => i).filter((i) => i !== 4 && i !== 0 && i !== 9)];
    const graphs = [
      {
        n,
        edges,
        directed: false,
        calls: [
          "g.layout_star(center=0).coords",
          "g.layout_star(center=7).coords",
          `g.layout_star(center=9, order=${JSON.stringify(order)}).coords`,
          "g.layout_grid().coords",
          "g.layout_grid(width=4).coords",
          "g.layout_grid_3d().coords",
          "g.layout_grid(width=3, height=2, dim=3).coords",
          "g.layout_grid(width=2, dim=3).coords",
          "g.layout_grid(height=2, dim=3).coords",
          "g.layout_sphere().coords",
          'g.layout("circle_3d").coords',
        ],
      },
      ...sizes.map((size) => ({
        n: size,
        edges: [],
        calls: ["g.layout_star(center=0).coords", "g.layout_grid().coords", "g.layout_grid_3d().coords", "g.layout_sphere().coords"],
      })),
    ];
    const answers = await runReference(graphs);
    const first = answers[0] ?? [];
    const at = (k: number) => answerValue<number[][]>(first[k]);
    expectRows(place("star", n, {}, edges), at(0), 2);
    expectRows(place("star", n, { center: 7 }, edges), at(1), 2);
    expectRows(place("star", n, { center: 9, order: Int32Array.from(order) }, edges), at(2), 2);
    expectRows(place("grid", n, {}, edges), at(3), 2);
    expectRows(place("grid", n, { width: 4 }, edges), at(4), 2);
    expectRows(place("grid_3d", n, {}, edges), at(5), 3);
    expectRows(place("grid_3d", n, { width: 3, height: 2 }, edges), at(6), 3);
    expectRows(place("grid_3d", n, { width: 2 }, edges), at(7), 3);
    expectRows(place("grid_3d", n, { height: 2 }, edges), at(8), 3);
    for (const name of ["sphere", "spherical", "circle_3d", "circular_3d"]) {
      expect(findLayout("igraph", name)?.dims).toBe(3);
      expectRows(place(name, n, {}, edges), at(9), 3);
      expectRows(place(name, n, {}, edges), at(10), 3);
    }
    for (const [k, size] of sizes.entries()) {
      const row = answers[k + 1] ?? [];
      expectRows(place("star", size), answerValue<number[][]>(row[0]), 2);
      expectRows(place("grid", size), answerValue<number[][]>(row[1]), 2);
      expectRows(place("grid_3d", size), answerValue<number[][]>(row[2]), 3);
      expectRows(place("sphere", size), answerValue<number[][]>(row[3]), 3);
    }
  });

  it("draw their defining shapes", () => {
    const s = place("star", 12, { center: 3 });
    expect([s[6], s[7]]).toEqual([0, 0]);
    for (let i = 0; i < 12; i++) if (i !== 3) expect(Math.hypot(s[i * 2] as number, s[i * 2 + 1] as number)).toBeCloseTo(1, 12);
    const g = place("grid", 10, { width: 3 });
    for (let i = 0; i < 10; i++) expect([g[i * 2], g[i * 2 + 1]]).toEqual([i % 3, Math.floor(i / 3)]);
    const g3 = place("grid_3d", 20, { width: 2, height: 3 });
    for (let i = 0; i < 20; i++)
      expect([g3[i * 3], g3[i * 3 + 1], g3[i * 3 + 2]]).toEqual([i % 2, Math.floor(i / 2) % 3, Math.floor(i / 6)]);
    const sp = place("sphere", 50);
    for (let i = 0; i < 50; i++)
      expect(Math.hypot(sp[i * 3] as number, sp[i * 3 + 1] as number, sp[i * 3 + 2] as number)).toBeCloseTo(1, 12);
    expect(sp[2]).toBe(-1);
    expect(sp[49 * 3 + 2]).toBe(1);
    for (const name of ["star", "grid", "grid_3d", "sphere"]) {
      expect(allFinite(place(name, 40))).toBe(true);
      expect(place(name, 0).length).toBe(0);
      expect(allFinite(place(name, 1))).toBe(true);
    }
  });

  it("answer x, y (and z for the 3D forms) through run", () => {
    const columns = (name: string) => {
      const out = findLayout("igraph", name)?.run(graphOf(5), {}, cpuContext, "layout");
      return out?.kind === "nodes" ? out.columns.map((c) => c.name) : [];
    };
    expect(columns("grid")).toEqual(["x", "y"]);
    expect(columns("grid_3d")).toEqual(["x", "y", "z"]);
    expect(columns("circular_3d")).toEqual(["x", "y", "z"]);
    expect(columns("random_3d")).toEqual(["x", "y", "z"]);
  });

  it("refuse a bad center, an order that is not every vertex once, and dim 3 on the 2D names", () => {
    expect(inputError(() => place("star", 5, { center: 7 })).field).toBe("center");
    expect(inputError(() => place("star", 5, { order: Int32Array.from([0, 1, 2]) })).field).toBe("order");
    expect(inputError(() => place("star", 3, { order: Int32Array.from([0, 1, 1]) })).field).toBe("order");
    expect(inputError(() => place("grid", 5, { dim: 3 })).field).toBe("dim");
    expect(inputError(() => place("circle", 5, { dim: 3 })).field).toBe("dim");
    expect(inputError(() => place("random", 5, { dim: 3 })).field).toBe("dim");
  });
});

describe("igraph random, random_3d", () => {
  it("equal python-igraph's layout_random after random.seed(seed)", async () => {
    const calls = [
      "__import__('random').seed(42) or g.layout_random().coords",
      "__import__('random').seed(7) or g.layout_random().coords",
      "__import__('random').seed(42) or g.layout_random_3d().coords",
      "__import__('random').seed(2**40 + 5) or g.layout_random_3d().coords",
      "__import__('random').seed(0) or g.layout_random().coords",
    ];
    const [answers] = await runReference([{ n: 333, edges: [], calls }]);
    const at = (k: number) => answerValue<number[][]>(answers?.[k]);
    expectRows(place("random", 333), at(0), 2, 15);
    expectRows(place("random", 333, { seed: 7 }), at(1), 2, 15);
    expectRows(place("random_3d", 333), at(2), 3, 15);
    expectRows(place("random_3d", 333, { seed: 2 ** 40 + 5 }), at(3), 3, 15);
    expectRows(place("random", 333, { seed: 0 }), at(4), 2, 15);
  });

  it("stay in [-1, 1), repeat under a seed and change with it", () => {
    const a = place("random_3d", 500, { seed: 11 });
    expect(a.every((v) => v >= -1 && v < 1)).toBe(true);
    expect(Array.from(place("random_3d", 500, { seed: 11 }))).toEqual(Array.from(a));
    expect(Array.from(place("random_3d", 500, { seed: 12 }))).not.toEqual(Array.from(a));
    expect(Array.from(place("random", 10))).toEqual(Array.from(place("random", 10)));
    expect(place("random", 0).length).toBe(0);
  });
});
