// igraph's Reingold-Tilford layouts (rt, tree, reingold_tilford; rt_circular, reingold_tilford_circular) against
// python-igraph 0.10's layout_reingold_tilford(_circular) on trees, forests, cyclic graphs, directed graphs in
// every mode, given roots and root levels, degree ties and the eccentricity root choice (500+ vertices); then the
// defining property (y = BFS depth from the root, siblings at least 1 apart) and bad input.
import { describe, expect, it } from "vitest";
import { computeGraph } from "../../kernels/cpu/csr.ts";
import { ComputeCancelled, ComputeInputError, cpuContext } from "../../src/compute/types.ts";
import { eccentricities } from "../../src/layout/algorithms/hierarchy/eccentricity.ts";
import { findLayout } from "../../src/layout/registry.ts";
import { answerValue, runReference } from "../helpers/graph-reference.ts";
import { allFinite, randomGraph } from "../helpers/layout-quality.ts";

type Case = { label: string; n: number; edges: [number, number][]; directed: boolean; py: string; params: Record<string, unknown> };

/** A random tree on n vertices with shuffled labels; edges point from parent to child. */
function randomTree(n: number, seed: number): [number, number][] {
  let a = seed;
  const random = () => {
    a = (Math.imul(a, 1103515245) + 12345) >>> 0;
    return a / 4294967296;
  };
  const label = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [label[i], label[j]] = [label[j] as number, label[i] as number];
  }
  const edges: [number, number][] = [];
  for (let i = 1; i < n; i++) edges.push([label[Math.floor(random() * i)] as number, label[i] as number]);
  return edges;
}

const forest = (): [number, number][] => [
  ...randomTree(20, 1),
  ...randomTree(15, 2).map(([s, t]) => [s + 20, t + 20] as [number, number]),
  ...randomTree(9, 3).map(([s, t]) => [s + 35, t + 35] as [number, number]),
];
const ring = (n: number): [number, number][] => Array.from({ length: n }, (_, i) => [i, (i + 1) % n] as [number, number]);
const gridGraph = (w: number, h: number): [number, number][] => {
  const out: [number, number][] = [];
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      if (x + 1 < w) out.push([y * w + x, y * w + x + 1]);
      if (y + 1 < h) out.push([y * w + x, (y + 1) * w + x]);
    }
  return out;
};

const cases: Case[] = [
  { label: "out-tree, auto root", n: 60, edges: randomTree(60, 7), directed: true, py: "", params: {} },
  { label: "undirected tree, auto root", n: 60, edges: randomTree(60, 8), directed: false, py: "", params: {} },
  { label: "tree, given root", n: 45, edges: randomTree(45, 9), directed: false, py: "root=[17]", params: { root: [17] } },
  { label: "forest, auto roots", n: 44, edges: forest(), directed: false, py: "", params: {} },
  { label: "directed forest, auto roots", n: 44, edges: forest(), directed: true, py: "", params: {} },
  {
    label: "forest, roots and levels",
    n: 44,
    edges: forest(),
    directed: false,
    py: "root=[3, 25, 40], rootlevel=[0, 2, 1]",
    params: { root: [3, 25, 40], rootlevel: [0, 2, 1] },
  },
  {
    label: "directed forest, roots and levels",
    n: 44,
    edges: forest(),
    directed: true,
    py: "root=[forest_root_a, forest_root_b, forest_root_c], rootlevel=[1, 0, 3]",
    params: {},
  },
  { label: "cyclic graph, given root", n: 80, edges: randomGraph(80, 150, 4), directed: false, py: "root=[3]", params: { root: [3] } },
  { label: "cyclic graph, auto root", n: 80, edges: randomGraph(80, 150, 5), directed: false, py: "", params: {} },
  { label: "directed cyclic, mode out", n: 70, edges: randomGraph(70, 120, 6), directed: true, py: 'mode="out"', params: { mode: "out" } },
  { label: "directed cyclic, mode in", n: 70, edges: randomGraph(70, 120, 6), directed: true, py: 'mode="in"', params: { mode: "in" } },
  { label: "directed cyclic, mode all", n: 70, edges: randomGraph(70, 120, 6), directed: true, py: 'mode="all"', params: { mode: "all" } },
  {
    label: "directed tree, mode in, roots",
    n: 30,
    edges: randomTree(30, 11),
    directed: true,
    py: 'mode="in", root=[2, 9]',
    params: { mode: "in", root: [2, 9] },
  },
  { label: "disconnected with isolated vertices", n: 50, edges: randomGraph(40, 35, 12), directed: false, py: "", params: {} },
  { label: "ring (degree ties)", n: 50, edges: ring(50), directed: false, py: "", params: {} },
  { label: "grid (degree ties)", n: 64, edges: gridGraph(8, 8), directed: false, py: "", params: {} },
  { label: "600-vertex tree (eccentricity root)", n: 600, edges: randomTree(600, 13), directed: false, py: "", params: {} },
  {
    label: "600-vertex forest with isolated vertices (eccentricity roots)",
    n: 600,
    edges: randomTree(550, 15).filter((_, i) => i % 50 !== 7),
    directed: false,
    py: "",
    params: {},
  },
  {
    label: "600-vertex out-polytree (eccentricity roots)",
    n: 600,
    edges: randomTree(600, 16).map(([s, t], i) => (i % 5 === 0 ? [t, s] : [s, t]) as [number, number]),
    directed: true,
    py: "",
    params: {},
  },
  {
    label: "600-vertex in-tree, mode in (eccentricity root)",
    n: 600,
    edges: randomTree(600, 17).map(([s, t]) => [t, s] as [number, number]),
    directed: true,
    py: 'mode="in"',
    params: { mode: "in" },
  },
  { label: "700-vertex graph (eccentricity root)", n: 700, edges: randomGraph(700, 900, 14), directed: false, py: "", params: {} },
  { label: "single vertex", n: 1, edges: [], directed: false, py: "", params: {} },
  { label: "empty graph", n: 0, edges: [], directed: false, py: "", params: {} },
];

// The directed forest's own roots (each sub-tree's source) for the rootlevel case.
{
  const c = cases[6] as Case;
  const hasParent = new Set(c.edges.map(([, t]) => t));
  const sources = Array.from({ length: c.n }, (_, i) => i).filter((i) => !hasParent.has(i));
  c.py = `root=${JSON.stringify(sources)}, rootlevel=[1, 0, 3]`;
  c.params = { root: sources, rootlevel: [1, 0, 3] };
}

function place(name: string, c: Case): Float64Array {
  const entry = findLayout("igraph", name);
  if (!entry) throw new Error(`no igraph layout ${name}`);
  const params = { ...c.params, ...(c.params.root ? { root: Int32Array.from(c.params.root as number[]) } : {}) };
  return entry.place(computeGraph(c.n, c.edges, { directed: c.directed }), params, cpuContext);
}

describe("igraph Reingold-Tilford", () => {
  it("matches python-igraph's layout_reingold_tilford and _circular (all aliases)", async () => {
    const answers = await runReference(
      cases.map((c) => ({
        n: c.n,
        edges: c.edges,
        directed: c.directed,
        calls: [`g.layout_reingold_tilford(${c.py}).coords`, `g.layout_reingold_tilford_circular(${c.py}).coords`],
      })),
    );
    for (const [k, c] of cases.entries()) {
      const straight = answerValue<number[][]>(answers[k]?.[0]);
      const circular = answerValue<number[][]>(answers[k]?.[1]);
      for (const [names, expected] of [
        [["rt", "tree", "reingold_tilford"], straight],
        [["rt_circular", "reingold_tilford_circular"], circular],
      ] as const) {
        for (const name of names) {
          const got = place(name, c);
          expect(got.length, c.label).toBe(c.n * 2);
          expect(allFinite(got), c.label).toBe(true);
          let worst = 0;
          for (let i = 0; i < c.n; i++)
            for (let d = 0; d < 2; d++) worst = Math.max(worst, Math.abs((got[i * 2 + d] as number) - (expected[i]?.[d] as number)));
          expect(worst, `${c.label} ${name}`).toBeLessThan(1e-9);
        }
      }
    }
  });

  it("puts every vertex at its BFS depth from the root, siblings at least 1 apart, parents over their children", () => {
    const n = 200;
    const edges = randomTree(n, 21);
    const root = 5;
    const got = findLayout("igraph", "rt")?.place(
      computeGraph(n, edges, { directed: false }),
      { root: Int32Array.of(root) },
      cpuContext,
    ) as Float64Array;
    const adj: number[][] = Array.from({ length: n }, () => []);
    for (const [s, t] of edges) {
      adj[s]?.push(t);
      adj[t]?.push(s);
    }
    const depth = new Array<number>(n).fill(-1);
    const parent = new Array<number>(n).fill(-1);
    depth[root] = 0;
    const queue = [root];
    for (let q = 0; q < queue.length; q++) {
      const u = queue[q] as number;
      for (const w of adj[u] as number[])
        if (depth[w] === -1) {
          depth[w] = (depth[u] as number) + 1;
          parent[w] = u;
          queue.push(w);
        }
    }
    for (let i = 0; i < n; i++) expect(got[i * 2 + 1]).toBe(depth[i]);
    for (let u = 0; u < n; u++) {
      const kids = Array.from({ length: n }, (_, i) => i).filter((i) => parent[i] === u);
      if (kids.length === 0) continue;
      const xs = kids.map((i) => got[i * 2] as number).sort((a, b) => a - b);
      for (let k = 1; k < xs.length; k++) expect((xs[k] as number) - (xs[k - 1] as number)).toBeGreaterThanOrEqual(1 - 1e-9);
      expect(got[u * 2] as number).toBeCloseTo(xs.reduce((a, b) => a + b, 0) / xs.length, 9);
    }
    // Vertices of one depth never overlap.
    const byRow = new Map<number, number[]>();
    for (let i = 0; i < n; i++) byRow.set(got[i * 2 + 1] as number, [...(byRow.get(got[i * 2 + 1] as number) ?? []), got[i * 2] as number]);
    for (const xs of byRow.values()) {
      xs.sort((a, b) => a - b);
      for (let k = 1; k < xs.length; k++) expect((xs[k] as number) - (xs[k - 1] as number)).toBeGreaterThanOrEqual(1 - 1e-9);
    }
    const circ = findLayout("igraph", "rt_circular")?.place(
      computeGraph(n, edges, { directed: false }),
      { root: Int32Array.of(root) },
      cpuContext,
    ) as Float64Array;
    for (let i = 0; i < n; i++) expect(Math.hypot(circ[i * 2] as number, circ[i * 2 + 1] as number)).toBeCloseTo(depth[i] as number, 9);
  });

  it("answers 400s naming the field for bad roots and root levels", () => {
    const g = computeGraph(
      6,
      [
        [0, 1],
        [2, 3],
        [4, 5],
      ],
      { directed: false },
    );
    const error = (params: Record<string, unknown>) => {
      try {
        findLayout("igraph", "rt")?.place(g, params, cpuContext);
      } catch (e) {
        return e;
      }
      return null;
    };
    const wrongLength = error({ root: Int32Array.of(0, 2, 4), rootlevel: [1, 2] });
    expect(wrongLength).toBeInstanceOf(ComputeInputError);
    expect((wrongLength as ComputeInputError).field).toBe("rootlevel");
    expect((error({ root: Int32Array.of(9) }) as ComputeInputError).field).toBe("root");
    expect((error({ root: Int32Array.of(0, 2), rootlevel: [1, 1.5] }) as ComputeInputError).field).toBe("rootlevel");
    expect((error({ root: Int32Array.of(0, 2), rootlevel: [1, 2e9] }) as ComputeInputError).field).toBe("rootlevel");
    expect((error({ mode: "sideways" }) as ComputeInputError).field).toBe("mode");
  });

  it("stops at the job's cancel check (rt's eccentricity root choice, sugiyama's sweeps)", () => {
    const cancelled = {
      ...cpuContext,
      checkCancelled: () => {
        throw new ComputeCancelled();
      },
    };
    const big = computeGraph(600, randomGraph(600, 900, 31), { directed: false });
    expect(() => findLayout("igraph", "rt")?.place(big, {}, cancelled)).toThrow(ComputeCancelled);
    expect(() => findLayout("igraph", "sugiyama")?.place(big, {}, cancelled)).toThrow(ComputeCancelled);
    expect(allFinite(findLayout("igraph", "rt")?.place(big, { root: Int32Array.of(0) }, cancelled) as Float64Array)).toBe(true);
  });

  it("computes eccentricities exactly on forests, polytrees and cyclic graphs (the root choice from 500 vertices)", () => {
    const brute = (n: number, edges: [number, number][], directed: boolean, mode: "out" | "in" | "all") => {
      const adj: number[][] = Array.from({ length: n }, () => []);
      for (const [s, t] of edges) {
        if (!directed || mode !== "in") adj[s]?.push(t);
        if (!directed || mode !== "out") adj[t]?.push(s);
      }
      return Array.from({ length: n }, (_, s) => {
        const dist = new Array<number>(n).fill(-1);
        dist[s] = 0;
        const queue = [s];
        for (let q = 0; q < queue.length; q++)
          for (const w of adj[queue[q] as number] as number[])
            if (dist[w] === -1) {
              dist[w] = (dist[queue[q] as number] as number) + 1;
              queue.push(w);
            }
        return Math.max(...dist);
      });
    };
    const polytree = randomTree(300, 41).map(([s, t], i) => (i % 3 === 0 ? [t, s] : [s, t]) as [number, number]);
    const graphs: [number, [number, number][], boolean][] = [
      [300, randomTree(300, 40), false],
      [320, [...randomTree(300, 42).filter((_, i) => i % 37 !== 3), [5, 5], [7, 8], [8, 7]], false],
      [300, polytree, true],
      [300, [...polytree, [polytree[4]?.[1] as number, polytree[4]?.[0] as number]], true],
      [200, randomGraph(200, 260, 43), true],
      [200, randomGraph(200, 260, 44), false],
    ];
    for (const [n, edges, directed] of graphs)
      for (const mode of ["out", "in", "all"] as const) {
        const got = eccentricities(
          { n, from: Int32Array.from(edges, (e) => e[0]), to: Int32Array.from(edges, (e) => e[1]), directed },
          directed ? mode : "all",
        );
        expect(Array.from(got)).toEqual(brute(n, edges, directed, directed ? mode : "all"));
      }
  });
});
