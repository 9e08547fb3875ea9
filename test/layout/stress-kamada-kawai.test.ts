// igraph's Kamada-Kawai (kk, kamada_kawai; kk_3d, kk3d, kamada_kawai_3d): positions against python-igraph's
// layout_kamada_kawai (the port is exact from igraph's own start), stress against igraph's and a random layout's,
// the start matrix, bounds, weights, determinism, tiny graphs and refused parameters.
import { describe, expect, it } from "vitest";
import { computeGraph } from "../../kernels/cpu/csr.ts";
import { ComputeInputError, cpuContext } from "../../src/compute/types.ts";
import { parseLayout } from "../../src/layout/parse.ts";
import { findLayout } from "../../src/layout/registry.ts";
import { randomPositions } from "../../src/layout/seeded.ts";
import type { LayoutEntry } from "../../src/layout/types.ts";
import { answerValue, runReference } from "../helpers/graph-reference.ts";
import { allFinite, layoutStress, randomGraph } from "../helpers/layout-quality.ts";

type Edges = [number, number][];
const graphOf = (n: number, edges: Edges) => computeGraph(n, edges, { directed: false });
const layout = (name: string) => findLayout("igraph", name) as LayoutEntry;
const place = (name: string, n: number, edges: Edges, params: Record<string, unknown> = {}) =>
  layout(name).place(graphOf(n, edges), params, cpuContext);

/** A connected graph: a random graph plus the path 0-1-...-(n-1) where those edges are missing. */
function connected(n: number, m: number, seed: number): Edges {
  const edges = randomGraph(n, m, seed);
  const seen = new Set(edges.map(([a, b]) => Math.min(a, b) * n + Math.max(a, b)));
  for (let i = 0; i + 1 < n; i++) if (!seen.has(i * n + i + 1)) edges.push([i, i + 1]);
  return edges;
}

function maxDifference(ours: Float64Array, theirs: number[][], dims: number): number {
  let worst = 0;
  theirs.forEach((row, i) => {
    for (let d = 0; d < dims; d++) worst = Math.max(worst, Math.abs((ours[i * dims + d] as number) - (row[d] as number)));
  });
  return worst;
}

// Two components (25 + 25 vertices): pairs across them take the largest distance, as igraph clamps them.
const twoParts: Edges = [...randomGraph(25, 40, 7), ...randomGraph(25, 30, 8).map(([a, b]): [number, number] => [a + 25, b + 25])];
const exactCases: { label: string; n: number; edges: Edges }[] = [
  { label: "connected, 30 vertices", n: 30, edges: connected(30, 40, 2) },
  { label: "connected, 60 vertices", n: 60, edges: connected(60, 80, 5) },
  { label: "two components", n: 50, edges: twoParts },
];

describe("igraph kk / kk_3d against python-igraph", () => {
  it("matches layout_kamada_kawai() and layout_kamada_kawai(dim=3) coordinate for coordinate", async () => {
    const answers = await runReference(
      exactCases.map(({ n, edges }) => ({
        n,
        edges,
        directed: false,
        calls: ["g.layout_kamada_kawai().coords", "g.layout_kamada_kawai(dim=3).coords"],
      })),
    );
    exactCases.forEach(({ label, n, edges }, k) => {
      for (const [name, dims, at] of [
        ["kk", 2, 0],
        ["kamada_kawai", 2, 0],
        ["kk_3d", 3, 1],
        ["kk3d", 3, 1],
        ["kamada_kawai_3d", 3, 1],
      ] as const) {
        expect(layout(name).dims, name).toBe(dims);
        const ours = place(name, n, edges);
        const theirs = answerValue<number[][]>(answers[k]?.[at]);
        expect(ours.length).toBe(n * dims);
        expect(maxDifference(ours, theirs, dims), `${name}, ${label}`).toBeLessThan(1e-6);
      }
    });
  });

  it("matches igraph's maxiter, epsilon, kkconst and a start matrix (seed)", async () => {
    const n = 45;
    const edges = connected(n, 60, 12);
    const seed = Array.from({ length: n }, (_, i) => [Math.cos(i) * 3, Math.sin(2 * i) * 2]);
    const seed3 = seed.map(([x, y], i) => [x, y, (i % 5) - 2]);
    const [answers] = await runReference([
      {
        n,
        edges,
        directed: false,
        calls: [
          "g.layout_kamada_kawai(maxiter=50).coords",
          "g.layout_kamada_kawai(epsilon=0.01).coords",
          "g.layout_kamada_kawai(kkconst=7.5).coords",
          `g.layout_kamada_kawai(seed=${JSON.stringify(seed)}).coords`,
          `g.layout_kamada_kawai(seed=${JSON.stringify(seed3)}, dim=3).coords`,
        ],
      },
    ]);
    const cases: [string, Record<string, unknown>, number][] = [
      ["kk", { maxiter: 50 }, 0],
      ["kk", { epsilon: 0.01 }, 1],
      ["kk", { kkconst: 7.5 }, 2],
      ["kk", { seed }, 3],
      ["kk_3d", { seed: seed3 }, 4],
    ];
    for (const [name, params, at] of cases) {
      const dims = layout(name).dims;
      expect(
        maxDifference(place(name, n, edges, params), answerValue<number[][]>(answers?.[at]), dims),
        JSON.stringify(params),
      ).toBeLessThan(1e-6);
    }
    // A looser epsilon stops earlier: the layout differs from the full run's.
    expect(maxDifference(place("kk", n, edges, { epsilon: 0.01 }), answerValue<number[][]>(answers?.[0]), 2)).toBeGreaterThan(0);
  });

  it("draws with igraph's stress (within 10%) and below a random layout's where the runs part ways", async () => {
    // 120 vertices (n divisible by 4: glibc's cos(3π/2) is one ulp off the correctly rounded one we start from, and
    // after a few hundred moves the two runs differ) and a connected 150-vertex graph.
    const cases: { n: number; edges: Edges }[] = [
      { n: 120, edges: randomGraph(120, 200, 9) },
      { n: 150, edges: connected(150, 220, 9) },
    ];
    const answers = await runReference(
      cases.map(({ n, edges }) => ({
        n,
        edges,
        directed: false,
        calls: ["g.layout_kamada_kawai().coords", "g.layout_kamada_kawai(dim=3).coords"],
      })),
    );
    cases.forEach(({ n, edges }, k) => {
      for (const [name, dims, at] of [
        ["kk", 2, 0],
        ["kk_3d", 3, 1],
      ] as const) {
        const ours = place(name, n, edges);
        expect(allFinite(ours)).toBe(true);
        const stress = layoutStress(n, edges, ours, dims);
        const igraphs = layoutStress(n, edges, answerValue<number[][]>(answers[k]?.[at]).flat(), dims);
        const random = layoutStress(n, edges, randomPositions(n, dims, 7), dims);
        expect(stress, `${name}, ${n} vertices`).toBeLessThan(igraphs * 1.1);
        expect(stress, `${name}, ${n} vertices`).toBeLessThan(random * 0.75);
      }
    });
  });
});

describe("igraph kk: properties", () => {
  const n = 30;
  const edges = connected(n, 40, 3);

  it("is deterministic and finite, and run answers x, y (and z for kk_3d)", () => {
    const a = place("kk", n, edges);
    expect(Array.from(place("kk", n, edges))).toEqual(Array.from(a));
    expect(allFinite(a)).toBe(true);
    const out2 = layout("kk").run(graphOf(n, edges), {}, cpuContext, "layout");
    const out3 = layout("kk_3d").run(graphOf(n, edges), {}, cpuContext, "layout");
    expect(out2.kind === "nodes" && out2.columns.map((c) => c.name)).toEqual(["x", "y"]);
    expect(out3.kind === "nodes" && out3.columns.map((c) => c.name)).toEqual(["x", "y", "z"]);
    if (out3.kind === "nodes") expect(Array.from(out3.columns[2]?.values as Float64Array).some((z) => Math.abs(z) > 0.1)).toBe(true);
  });

  it("runs step by step (live sessions): maxiter steps give place's layout, and a given start replaces igraph's", () => {
    const graph = graphOf(n, edges);
    for (const name of ["kk", "kk_3d"]) {
      const entry = layout(name);
      const dims = entry.dims;
      const run = entry.start?.(graph, { maxiter: 200 }, cpuContext);
      if (!run) throw new Error(`${name} has no start`);
      expect(run.dims).toBe(dims);
      for (let i = 0; i < 200; i++) run.step();
      expect(run.iteration).toBe(200);
      const placed = entry.place(graph, { maxiter: 200 }, cpuContext);
      expect(Array.from(run.positions())).toEqual(Array.from(Float32Array.from(placed)));
      // A start matrix handed to start() is the seed parameter's start.
      const initial = Float32Array.from(placed, (v, i) => v + (i % 3) * 0.25);
      const resumed = entry.start?.(graph, {}, cpuContext, initial);
      for (let i = 0; i < 50; i++) resumed?.step();
      const seedRows = Array.from({ length: n }, (_, i) => Array.from(initial.subarray(i * dims, i * dims + dims)));
      const seeded = entry.place(graph, { seed: seedRows, maxiter: 50 }, cpuContext);
      expect(Array.from(resumed?.positions() ?? [])).toEqual(Array.from(Float32Array.from(seeded)));
    }
  });

  it("keeps every vertex inside minx/maxx/miny/maxy (and minz/maxz), starting inside them", () => {
    const minx = Array.from({ length: n }, (_, i) => (i < 10 ? 2 : null));
    const maxx = Array.from({ length: n }, (_, i) => (i < 10 ? 3 : null));
    const miny = Array.from({ length: n }, () => -1);
    const maxy = Array.from({ length: n }, () => 1);
    const pos = place("kk", n, edges, { minx, maxx, miny, maxy });
    expect(allFinite(pos)).toBe(true);
    for (let i = 0; i < n; i++) {
      if (i < 10) expect(Math.abs((pos[i * 2] as number) - 2.5)).toBeLessThanOrEqual(0.5);
      expect(Math.abs(pos[i * 2 + 1] as number)).toBeLessThanOrEqual(1);
    }
    const zs = Array.from({ length: n }, () => 0.5);
    const pos3 = place("kk_3d", n, edges, { minz: zs, maxz: zs });
    for (let i = 0; i < n; i++) expect(pos3[i * 3 + 2]).toBe(0.5);
  });

  it("weights lengthen edges: equal weights draw the unweighted layout, one heavy edge is drawn longer", () => {
    const graph = graphOf(n, edges);
    const plain = layout("kk").place(graph, {}, cpuContext);
    const twos = layout("kk").place(graph, { weights: new Float64Array(edges.length).fill(2) }, cpuContext);
    expect(
      maxDifference(
        twos,
        Array.from({ length: n }, (_, i) => [plain[i * 2] as number, plain[i * 2 + 1] as number]),
        2,
      ),
    ).toBeLessThan(1e-9);
    const heavy = new Float64Array(edges.length).fill(1);
    const [a, b] = edges[0] as [number, number];
    heavy[0] = 6;
    const weighted = layout("kk").place(graph, { weights: heavy }, cpuContext);
    const length = (p: Float64Array, u: number, v: number) =>
      Math.hypot((p[u * 2] as number) - (p[v * 2] as number), (p[u * 2 + 1] as number) - (p[v * 2 + 1] as number));
    const meanOther = (p: Float64Array) => edges.slice(1).reduce((s, [u, v]) => s + length(p, u, v), 0) / (edges.length - 1);
    expect(length(weighted, a, b) / meanOther(weighted)).toBeGreaterThan(1.4 * (length(plain, a, b) / meanOther(plain)));
  });

  it("lays out no vertex (igraph refuses: its kkconst would be 0), one vertex and an edgeless graph as igraph does", async () => {
    expect(place("kk", 0, []).length).toBe(0);
    expect(place("kk_3d", 0, []).length).toBe(0);
    const calls = ["g.layout_kamada_kawai().coords", "g.layout_kamada_kawai(dim=3).coords"];
    const answers = await runReference([1, 3].map((k) => ({ n: k, edges: [], directed: false, calls })));
    [1, 3].forEach((k, at) => {
      // One vertex stays at igraph's start; without edges every distance is clamped to 0 and nothing moves.
      expect(maxDifference(place("kk", k, []), answerValue<number[][]>(answers[at]?.[0]), 2)).toBeLessThan(1e-12);
      expect(maxDifference(place("kk_3d", k, []), answerValue<number[][]>(answers[at]?.[1]), 3)).toBeLessThan(1e-12);
    });
  });

  it("refuses bad parameters with ComputeInputError naming the field", () => {
    const refuses = (name: string, params: Record<string, unknown>, field: string) => {
      let error: unknown;
      try {
        place(name, n, edges, params);
      } catch (e) {
        error = e;
      }
      expect(error, JSON.stringify(params)).toBeInstanceOf(ComputeInputError);
      expect((error as ComputeInputError).field).toBe(field);
    };
    refuses("kk", { seed: [[0, 0]] }, "seed");
    refuses("kk", { seed: Array.from({ length: n }, () => [0, 0, 0]) }, "seed");
    refuses("kk_3d", { seed: Array.from({ length: n }, () => [0, 0]) }, "seed");
    refuses("kk", { seed: Array.from({ length: n }, () => [0, "a"]) }, "seed");
    refuses("kk", { minx: [1, 2] }, "minx");
    refuses("kk", { maxy: Array.from({ length: n }, () => "high") }, "maxy");
    refuses("kk", { minx: Array.from({ length: n }, () => 2), maxx: Array.from({ length: n }, () => 1) }, "minx");
    refuses("kk_3d", { minz: Array.from({ length: n }, () => 1), maxz: Array.from({ length: n }, () => 0) }, "minz");
    refuses("kk", { weights: new Float64Array(edges.length).fill(0) }, "weights");
    refuses("kk", { weights: new Float64Array(2).fill(1) }, "weights");
    expect(Object.keys(layout("kk").params)).not.toContain("minz");
    expect(layout("kk_3d").params.minz?.type).toBe("json");
  });

  it("parses a request's layout entry with igraph's keywords; dim must name the entry's own dimension", () => {
    const parsed = parseLayout({ libraries: ["igraph"], alg: "kamada_kawai", params: { maxiter: 20, dim: 2, seed: null } });
    expect(parsed.entry.name).toBe("kamada_kawai");
    expect(parsed.params).toMatchObject({ maxiter: 20, epsilon: 0, kkconst: null, dim: 2 });
    const fieldOf = (raw: unknown) => {
      try {
        parseLayout(raw);
      } catch (e) {
        return (e as { details?: { field?: string } }).details?.field;
      }
      return undefined;
    };
    expect(fieldOf({ libraries: ["igraph"], alg: "kk", params: { dim: 3 } })).toBe("layout.params.dim");
    expect(fieldOf({ libraries: ["igraph"], alg: "kk_3d", params: { dim: 2 } })).toBe("layout.params.dim");
    expect(fieldOf({ libraries: ["igraph"], alg: "kk", params: { kkconst: 0 } })).toBe("layout.params.kkconst");
    expect(fieldOf({ libraries: ["igraph"], alg: "kk", params: { maxiter: -1 } })).toBe("layout.params.maxiter");
    expect(fieldOf({ libraries: ["igraph"], alg: "kk", params: { niter: 5 } })).toBe("layout.params.niter");
  });
});
