// igraph's fr / fr_3d by definition: the aliases, the `seed` start (niter = 0 answers it), the bounds, determinism,
// live stepping (start + niter steps = place), cancellation, n = 0 and 1, disconnected graphs, and bad parameters
// answering ComputeInputError naming the field (through the registry's parameter check too).
import { describe, expect, it } from "vitest";
import { computeGraph } from "../../kernels/cpu/csr.ts";
import { checkParams } from "../../src/compute/params.ts";
import { ComputeCancelled, type ComputeContext, ComputeInputError, cpuContext } from "../../src/compute/types.ts";
import { findLayout } from "../../src/layout/registry.ts";
import type { LayoutEntry } from "../../src/layout/types.ts";
import { allFinite, randomGraph } from "../helpers/layout-quality.ts";
import { startRows } from "./fruchterman-reingold-fixtures.ts";

const fr = findLayout("igraph", "fr") as LayoutEntry;
const fr3d = findLayout("igraph", "fr_3d") as LayoutEntry;
const n = 40;
const edges = randomGraph(n, 70, 5);
const graph = computeGraph(n, edges, { directed: false });

function fieldOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof ComputeInputError) return error.field;
    throw error;
  }
  throw new Error("no ComputeInputError");
}

describe("igraph fr parameters", () => {
  it("resolves the aliases to the same layouts", () => {
    for (const name of ["fr", "fruchterman_reingold"]) expect(findLayout("igraph", name)?.place).toBe(fr.place);
    for (const name of ["fr_3d", "fr3d", "fruchterman_reingold_3d"]) expect(findLayout("igraph", name)?.place).toBe(fr3d.place);
    expect(fr.dims).toBe(2);
    expect(fr3d.dims).toBe(3);
    expect(fr.backends).toEqual(["cpu", "opencl"]);
    expect(Object.keys(fr3d.params)).toEqual(expect.arrayContaining(["weights", "niter", "seed", "start_temp", "grid", "minz", "maxz"]));
  });

  it("answers the seed matrix itself with niter = 0, and moves from it otherwise", () => {
    for (const [entry, dims] of [
      [fr, 2],
      [fr3d, 3],
    ] as const) {
      const seed = startRows(n, dims, 8);
      const same = entry.place(graph, { seed, niter: 0 }, cpuContext);
      expect(Array.from(same)).toEqual(seed.flat());
      const moved = entry.place(graph, { seed, niter: 5 }, cpuContext);
      expect(Array.from(moved)).not.toEqual(seed.flat());
    }
  });

  it("is deterministic, finite, and answers x, y (z) columns through run", () => {
    const a = fr.place(graph, {}, cpuContext);
    const b = fr.place(graph, {}, cpuContext);
    expect(allFinite(a)).toBe(true);
    expect(Array.from(a)).toEqual(Array.from(b));
    const out = fr3d.run(graph, { niter: 20 }, cpuContext, "layout");
    expect(out.kind === "nodes" && out.columns.map((c) => c.name)).toEqual(["x", "y", "z"]);
  });

  it("keeps every vertex within its bounds (null entries unbounded)", () => {
    const minx = Array.from({ length: n }, (_, i) => (i < 10 ? 0 : null));
    const maxx = Array.from({ length: n }, (_, i) => (i < 10 ? 1 : i < 20 ? -2 : null));
    const miny = Array.from({ length: n }, () => -0.5);
    const maxy = Array.from({ length: n }, () => 0.5);
    const minz = Array.from({ length: n }, (_, i) => i % 7);
    const maxz = Array.from({ length: n }, (_, i) => (i % 7) + 0.25);
    const p = fr3d.place(graph, { minx, maxx, miny, maxy, minz, maxz }, cpuContext);
    for (let i = 0; i < n; i++) {
      const [x, y, z] = [p[i * 3] as number, p[i * 3 + 1] as number, p[i * 3 + 2] as number];
      if (i < 10) expect(x >= 0 && x <= 1).toBe(true);
      else if (i < 20) expect(x).toBeLessThanOrEqual(-2);
      expect(y >= -0.5 && y <= 0.5).toBe(true);
      expect(z >= i % 7 && z <= (i % 7) + 0.25).toBe(true);
    }
    // a pinned vertex stays where its bounds pin it
    const pinned = fr.place(graph, { minx: Array(n).fill(3), maxx: Array(n).fill(3), grid: "grid" }, cpuContext);
    for (let i = 0; i < n; i++) expect(pinned[i * 2]).toBe(3);
  });

  it("runs step by step as place does, and takes niter / start_temp while running", () => {
    const params = { niter: 30 };
    const it1 = fr.start?.(graph, params, cpuContext);
    if (!it1) throw new Error("fr has no start");
    for (let i = 0; i < 30; i++) it1.step();
    expect(it1.iteration).toBe(30);
    expect(Array.from(it1.positions())).toEqual(Array.from(Float32Array.from(fr.place(graph, params, cpuContext))));
    expect(fr.liveParams).toEqual(["niter", "start_temp"]);
    // past niter the temperature is 0: nothing moves; a larger niter lets it move again
    const frozen = Float32Array.from(it1.positions());
    it1.step();
    expect(Array.from(it1.positions())).toEqual(Array.from(frozen));
    it1.setParams?.({ niter: 60 });
    it1.step();
    expect(Array.from(it1.positions())).not.toEqual(Array.from(frozen));
    it1.dispose?.();
    // a live session's positions replace the seeded start
    const initial = Float32Array.from(startRows(n, 2, 3).flat());
    const it2 = fr.start?.(graph, { niter: 0 }, cpuContext, initial);
    expect(Array.from(it2?.positions() ?? [])).toEqual(Array.from(initial));
  });

  it("reports progress and stops when cancelled", () => {
    const seen: number[] = [];
    let checks = 0;
    const ctx: ComputeContext = {
      ...cpuContext,
      progress: (p) => seen.push(p.fraction ?? -1),
      checkCancelled: () => {
        if (++checks > 25) throw new ComputeCancelled();
      },
    };
    expect(() => fr.place(graph, { niter: 100 }, ctx)).toThrow(ComputeCancelled);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((f) => f > 0 && f <= 0.25)).toBe(true);
  });

  it("lays out n = 0, n = 1 and disconnected graphs", () => {
    expect(fr.place(computeGraph(0, []), {}, cpuContext).length).toBe(0);
    expect(fr3d.place(computeGraph(0, []), { grid: "grid" }, cpuContext).length).toBe(0);
    const one = fr.place(computeGraph(1, []), {}, cpuContext);
    expect(one.length).toBe(2);
    expect(allFinite(one)).toBe(true);
    // two triangles and an isolated vertex: finite, each triangle tight, the parts kept near each other
    const g = computeGraph(7, [
      [0, 1],
      [1, 2],
      [2, 0],
      [3, 4],
      [4, 5],
      [5, 3],
    ]);
    // self-loops and a repeated edge change nothing but the attraction's weight
    const loops = fr.place(
      computeGraph(3, [
        [0, 0],
        [0, 1],
        [0, 1],
        [1, 2],
        [2, 2],
      ]),
      {},
      cpuContext,
    );
    expect(allFinite(loops)).toBe(true);
    for (const grid of ["nogrid", "grid"]) {
      const p = fr.place(g, { grid }, cpuContext);
      expect(allFinite(p)).toBe(true);
      const d = (a: number, b: number) =>
        Math.hypot((p[a * 2] as number) - (p[b * 2] as number), (p[a * 2 + 1] as number) - (p[b * 2 + 1] as number));
      expect(d(0, 1)).toBeLessThan(d(0, 3));
      expect(Math.max(d(0, 3), d(0, 6), d(3, 6))).toBeLessThan(20);
    }
  });

  it("repels in the grid form only the pairs igraph's grid offers (cells of 2 over the start, no anti-diagonal)", () => {
    // 16 vertices: the grid is 2 x 2 cells over [-2, 2]^2; vertices 0 and 1 sit 0.28 apart across the cells' corner,
    // the other 14 far away (3 apart: out of each other's reach)
    const moved = (a: [number, number], b: [number, number], grid: string) => {
      const seed = [a, b, ...Array.from({ length: 14 }, (_, k) => [100 + 3 * k, 100])];
      const p = fr.place(computeGraph(16, []), { seed, niter: 1, start_temp: 1, grid }, cpuContext);
      return Math.hypot((p[0] as number) - a[0], (p[1] as number) - a[1]);
    };
    // cells (0, 1) and (1, 0): igraph's grid never pairs them
    expect(moved([-0.1, 0.1], [0.1, -0.1], "grid")).toBeLessThan(1e-8);
    expect(moved([-0.1, 0.1], [0.1, -0.1], "nogrid")).toBeGreaterThan(0.5);
    // cells (0, 0) and (1, 1), and one cell: paired
    expect(moved([-0.1, -0.1], [0.1, 0.1], "grid")).toBeGreaterThan(0.5);
    expect(moved([0.5, 0.5], [0.7, 0.7], "grid")).toBeGreaterThan(0.5);
    // farther than the cell size 2: no repulsion in the grid form
    expect(moved([-1.5, 0.5], [0.6, 0.5], "grid")).toBeLessThan(1e-8);
  });

  it("answers ComputeInputError naming the field for bad values", () => {
    const place =
      (params: Record<string, unknown>, entry = fr) =>
      () =>
        entry.place(graph, params, cpuContext);
    expect(fieldOf(place({ seed: [[0, 0]] }))).toBe("seed");
    expect(fieldOf(place({ seed: startRows(n, 3, 1) }))).toBe("seed");
    expect(fieldOf(place({ seed: startRows(n, 2, 1).map((r, i) => (i === 3 ? [r[0], "a"] : r)) }))).toBe("seed");
    expect(fieldOf(place({ seed: "x" }))).toBe("seed");
    expect(fieldOf(place({ minx: [1, 2] }))).toBe("minx");
    expect(fieldOf(place({ miny: Array(n).fill(1), maxy: Array(n).fill(0) }))).toBe("miny");
    expect(fieldOf(place({ maxz: Array(n).fill("a") }, fr3d))).toBe("maxz");
    expect(fieldOf(place({ maxx: Array(n).fill(Number.NEGATIVE_INFINITY) }))).toBe("maxx");
    expect(fieldOf(place({ weights: Float64Array.from(edges, () => 0) }))).toBe("weights");
    expect(fieldOf(place({ weights: Float64Array.from(edges, (_, e) => (e === 4 ? -1 : 1)) }))).toBe("weights");
    expect(fieldOf(place({ start_temp: -1 }))).toBe("start_temp");
    expect(fieldOf(place({ niter: 1.5 }))).toBe("niter");
  });

  it("is checked by the registry: unknown names, types and ranges answer 400", () => {
    expect(() => checkParams(fr, { niter: -1 }, "layout")).toThrow(/niter/);
    expect(() => checkParams(fr, { grid: "sometimes" }, "layout")).toThrow(/grid/);
    expect(() => checkParams(fr, { minz: [] }, "layout")).toThrow(/minz/);
    expect(() => checkParams(fr, { dim: 3 }, "layout")).toThrow(/dim/);
    expect(checkParams(fr3d, {}, "layout")).toMatchObject({ niter: 500, grid: "auto", seed: null });
  });
});
