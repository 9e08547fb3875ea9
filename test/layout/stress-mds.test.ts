// igraph's mds: classical multidimensional scaling against python-igraph's layout_mds, compared up to rotation and
// reflection (pairwise distances), a given distance matrix drawn exactly, disconnected graphs laid out per component
// and packed without overlap, tiny graphs and refused parameters.
import { describe, expect, it } from "vitest";
import { computeGraph } from "../../kernels/cpu/csr.ts";
import { ComputeInputError, cpuContext } from "../../src/compute/types.ts";
import { findLayout } from "../../src/layout/registry.ts";
import { randomPositions, seededRandom } from "../../src/layout/seeded.ts";
import type { LayoutEntry } from "../../src/layout/types.ts";
import { answerValue, runReference } from "../helpers/graph-reference.ts";
import { allFinite, layoutStress, randomGraph } from "../helpers/layout-quality.ts";

type Edges = [number, number][];
const mds = () => findLayout("igraph", "mds") as LayoutEntry;
const place = (n: number, edges: Edges, params: Record<string, unknown> = {}) =>
  mds().place(computeGraph(n, edges, { directed: false }), params, cpuContext);

/** A connected graph on vertices offset..offset+n-1: a random graph plus a path where its edges are missing. */
function connected(n: number, m: number, seed: number, offset = 0): Edges {
  const edges = randomGraph(n, m, seed);
  const seen = new Set(edges.map(([a, b]) => Math.min(a, b) * n + Math.max(a, b)));
  for (let i = 0; i + 1 < n; i++) if (!seen.has(i * n + i + 1)) edges.push([i, i + 1]);
  return edges.map(([a, b]): [number, number] => [a + offset, b + offset]);
}

const gap = (p: ArrayLike<number>, i: number, j: number) =>
  Math.hypot((p[i * 2] as number) - (p[j * 2] as number), (p[i * 2 + 1] as number) - (p[j * 2 + 1] as number));

/** The largest difference of pairwise distances among `vertices` (all when omitted) between two layouts. */
function distanceMismatch(ours: Float64Array, theirs: number[][], vertices?: number[]): number {
  const flat = theirs.flat();
  const vs = vertices ?? theirs.map((_, i) => i);
  let worst = 0;
  for (const i of vs) for (const j of vs) if (i < j) worst = Math.max(worst, Math.abs(gap(ours, i, j) - gap(flat, i, j)));
  return worst;
}

describe("igraph mds against python-igraph", () => {
  it("draws connected graphs as layout_mds() does, up to rotation and reflection", async () => {
    const cases = [
      { n: 30, edges: connected(30, 40, 2) },
      { n: 200, edges: connected(200, 300, 5) },
      // a symmetric tree: the two largest eigenvalues are equal (each Lanczos run deflates the pairs found before)
      {
        n: 7,
        edges: [
          [0, 1],
          [2, 3],
          [0, 4],
          [2, 4],
          [4, 5],
          [5, 6],
        ] as Edges,
      },
    ];
    const answers = await runReference(cases.map(({ n, edges }) => ({ n, edges, directed: false, calls: ["g.layout_mds().coords"] })));
    cases.forEach(({ n, edges }, k) => {
      const ours = place(n, edges);
      expect(allFinite(ours)).toBe(true);
      const theirs = answerValue<number[][]>(answers[k]?.[0]);
      expect(distanceMismatch(ours, theirs), `${n} vertices`).toBeLessThan(1e-6);
      expect(layoutStress(n, edges, ours)).toBeLessThan(layoutStress(n, edges, randomPositions(n, 2, 3)));
    });
  });

  it("takes a distance matrix (dist): points of the plane come back at their distances, as igraph draws them", async () => {
    const n = 25;
    const random = seededRandom(4);
    const points = Array.from({ length: n }, () => [random() * 10, random() * 10] as [number, number]);
    const dist = points.map(([x, y]) => points.map(([u, v]) => Math.hypot(x - u, y - v)));
    const edges = connected(n, 30, 6);
    const [answers] = await runReference([{ n, edges, directed: false, calls: [`g.layout_mds(dist=${JSON.stringify(dist)}).coords`] }]);
    const ours = place(n, edges, { dist, arpack_options: { maxiter: 10 } });
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) expect(Math.abs(gap(ours, i, j) - (dist[i]?.[j] as number))).toBeLessThan(1e-8);
    expect(distanceMismatch(ours, answerValue<number[][]>(answers?.[0]))).toBeLessThan(1e-6);
  });

  it("lays a disconnected graph out per component as igraph does and packs the pieces without overlap", async () => {
    // Components: 25 and 20 vertices, a path of three, a single edge, two isolated vertices.
    const edges: Edges = [...connected(25, 35, 7), ...connected(20, 26, 8, 25), [45, 46], [46, 47], [48, 49]];
    const n = 52;
    const components = [
      Array.from({ length: 25 }, (_, i) => i),
      Array.from({ length: 20 }, (_, i) => 25 + i),
      [45, 46, 47],
      [48, 49],
      [50],
      [51],
    ];
    const [answers] = await runReference([{ n, edges, directed: false, calls: ["g.layout_mds().coords"] }]);
    const theirs = answerValue<number[][]>(answers?.[0]);
    const ours = place(n, edges);
    expect(allFinite(ours)).toBe(true);
    // igraph packs the pieces at random: each piece's own drawing (scaled to its disc) is what must agree.
    for (const comp of components) expect(distanceMismatch(ours, theirs, comp), `component of ${comp[0]}`).toBeLessThan(1e-6);
    expect(layoutStress(n, edges, ours)).toBeLessThan(layoutStress(n, edges, theirs.flat()) * 1.1);
    // Each piece fills a disc of radius size^0.75 (its bounding box's half-diagonal); the discs do not overlap
    // beyond the merge grid's resolution (200 cells across ±√(5·Σ r²)).
    const discs = components.map((comp) => {
      const xs = comp.map((v) => ours[v * 2] as number);
      const ys = comp.map((v) => ours[v * 2 + 1] as number);
      const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
      return { x: (x0 + x1) / 2, y: (y0 + y1) / 2, half: Math.hypot(x1 - x0, y1 - y0) / 2, r: comp.length ** 0.75 };
    });
    const cell = (2 * Math.sqrt(5 * discs.reduce((s, d) => s + d.r * d.r, 0))) / 200;
    for (const d of discs) if (d.half > 0) expect(d.half).toBeCloseTo(d.r, 9);
    for (let a = 0; a < discs.length; a++)
      for (let b = a + 1; b < discs.length; b++) {
        const [p, q] = [discs[a], discs[b]] as [(typeof discs)[0], (typeof discs)[0]];
        expect(Math.hypot(p.x - q.x, p.y - q.y)).toBeGreaterThan(p.r + q.r - 3 * cell);
      }
    expect(Array.from(place(n, edges))).toEqual(Array.from(ours));
  });

  it("lays out no vertex, one vertex (the origin: igraph refuses a graph smaller than 2D), and two as igraph does", async () => {
    expect(place(0, []).length).toBe(0);
    expect(Array.from(place(1, []))).toEqual([0, 0]);
    const [answers] = await runReference([{ n: 2, edges: [[0, 1]], directed: false, calls: ["g.layout_mds().coords"] }]);
    expect(Array.from(place(2, [[0, 1]]))).toEqual(answerValue<number[][]>(answers?.[0]).flat());
    const out = mds().run(
      computeGraph(
        3,
        [
          [0, 1],
          [1, 2],
        ],
        { directed: false },
      ),
      {},
      cpuContext,
      "layout",
    );
    expect(out.kind === "nodes" && out.columns.map((c) => c.name)).toEqual(["x", "y"]);
  });

  it("refuses a distance matrix of the wrong shape or with non-numbers, naming dist", () => {
    for (const dist of [
      [[0, 1]],
      [[0, 1], [1]],
      [
        [0, "a"],
        [1, 0],
      ],
      [
        [0, null],
        [1, 0],
      ],
      "far",
    ]) {
      let error: unknown;
      try {
        place(2, [[0, 1]], { dist });
      } catch (e) {
        error = e;
      }
      expect(error, JSON.stringify(dist)).toBeInstanceOf(ComputeInputError);
      expect((error as ComputeInputError).field).toBe("dist");
    }
  });
});
