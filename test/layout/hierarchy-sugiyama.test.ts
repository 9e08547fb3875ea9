// igraph's sugiyama and bipartite layouts against python-igraph 0.10's layout_sugiyama / layout_bipartite: given
// layers (with gaps, upward and same-layer edges), computed layers for undirected graphs (weighted or not) and for
// directed graphs above 1000 vertices (igraph's Eades path), several components, gaps and sweep limits; then the
// defining properties (rows = layers, edges of a DAG pointing down, bipartite rows vgap apart) and bad input.
import pl from "nodejs-polars";
import { describe, expect, it } from "vitest";
import { computeGraph } from "../../kernels/cpu/csr.ts";
import { resolveParams } from "../../src/compute/params.ts";
import { ComputeInputError, cpuContext } from "../../src/compute/types.ts";
import { parseLayout } from "../../src/layout/parse.ts";
import { findLayout } from "../../src/layout/registry.ts";
import { answerValue, runReference } from "../helpers/graph-reference.ts";
import { allFinite, randomGraph } from "../helpers/layout-quality.ts";

function lcg(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (Math.imul(a, 1103515245) + 12345) >>> 0;
    return a / 4294967296;
  };
}

/** A random DAG: edges from a lower to a higher position of a shuffled order. */
function randomDag(n: number, m: number, seed: number): [number, number][] {
  const random = lcg(seed);
  const label = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [label[i], label[j]] = [label[j] as number, label[i] as number];
  }
  return randomGraph(n, m, seed).map(([a, b]) => [label[Math.min(a, b)] as number, label[Math.max(a, b)] as number]);
}

/** Longest-path layers of a DAG (sources at 0). */
function longestPathLayers(n: number, edges: [number, number][]): number[] {
  const layer = new Array<number>(n).fill(0);
  for (let round = 0; round < n; round++) {
    let changed = false;
    for (const [s, t] of edges)
      if ((layer[t] as number) < (layer[s] as number) + 1) {
        layer[t] = (layer[s] as number) + 1;
        changed = true;
      }
    if (!changed) break;
  }
  return layer;
}

type Case = {
  label: string;
  n: number;
  edges: [number, number][];
  directed: boolean;
  py: string;
  params: Record<string, unknown>;
  weight?: number[];
  alg?: "sugiyama" | "bipartite";
};

const dag = randomDag(40, 70, 3);
const cyclic = randomGraph(45, 90, 4);
const random = lcg(9);
const randomLayers = Array.from({ length: 45 }, () => Math.floor(random() * 5));
const gappy = Array.from({ length: 40 }, (_, i) => [0, 5, 10, 11][i % 4] as number);
const weights = Array.from({ length: 120 }, (_, i) => 1 + ((i * 7) % 5));
const bigDag = randomDag(1100, 1800, 5);
const bigCyclic = randomGraph(1050, 1600, 6);
const types = Array.from({ length: 30 }, (_, i) => (i * 7) % 3 === 0);
const bipartiteEdges = randomGraph(30, 200, 8)
  .filter(([a, b]) => types[a] !== types[b])
  .slice(0, 40);

// A multigraph: parallel edges, both directions of some pairs, self-loops (igraph orders parallel edges by
// decreasing id; its edge lookups and Sugiyama's tie-breaks follow that order).
const multi: [number, number][] = [
  ...cyclic,
  ...cyclic.slice(0, 20),
  ...cyclic.slice(10, 30).map(([a, b]) => [b, a] as [number, number]),
  [3, 3],
  [5, 5],
  [5, 5],
];

const cases: Case[] = [
  {
    label: "DAG, longest-path layers given",
    n: 40,
    edges: dag,
    directed: true,
    py: `layers=${JSON.stringify(longestPathLayers(40, dag))}`,
    params: { layers: longestPathLayers(40, dag) },
  },
  {
    label: "cyclic directed, random layers",
    n: 45,
    edges: cyclic,
    directed: true,
    py: `layers=${JSON.stringify(randomLayers)}`,
    params: { layers: randomLayers },
  },
  {
    label: "undirected, random layers",
    n: 45,
    edges: cyclic,
    directed: false,
    py: `layers=${JSON.stringify(randomLayers)}`,
    params: { layers: randomLayers },
  },
  {
    label: "directed multigraph, random layers",
    n: 45,
    edges: multi,
    directed: true,
    py: `layers=${JSON.stringify(randomLayers)}`,
    params: { layers: randomLayers },
  },
  { label: "undirected multigraph, computed layers", n: 45, edges: multi, directed: false, py: "", params: {} },
  {
    label: "layers with gaps, vgap 3",
    n: 40,
    edges: dag,
    directed: true,
    py: `layers=${JSON.stringify(gappy)}, vgap=3`,
    params: { layers: gappy, vgap: 3 },
  },
  { label: "undirected, computed layers", n: 60, edges: randomGraph(60, 100, 10), directed: false, py: "", params: {} },
  {
    label: "undirected, weighted",
    n: 60,
    edges: randomGraph(60, 120, 11),
    directed: false,
    py: 'weights="weight"',
    params: {},
    weight: weights,
  },
  {
    label: "undirected tree, hgap 2.5, maxiter 3",
    n: 50,
    edges: randomGraph(50, 49, 12),
    directed: false,
    py: "hgap=2.5, maxiter=3",
    params: { hgap: 2.5, maxiter: 3 },
  },
  { label: "several components and isolated vertices", n: 70, edges: randomGraph(50, 45, 13), directed: false, py: "", params: {} },
  { label: "directed DAG of 1100 vertices, computed layers", n: 1100, edges: bigDag, directed: true, py: "", params: {} },
  { label: "directed cyclic graph of 1050 vertices", n: 1050, edges: bigCyclic, directed: true, py: "", params: {} },
  { label: "no edges", n: 7, edges: [], directed: true, py: "", params: {} },
  { label: "single vertex", n: 1, edges: [], directed: true, py: "", params: {} },
  { label: "empty graph", n: 0, edges: [], directed: true, py: "", params: {} },
  {
    label: "bipartite",
    n: 30,
    edges: bipartiteEdges,
    directed: false,
    py: `types=${JSON.stringify(types).replace(/true/g, "True").replace(/false/g, "False")}`,
    params: { types: Float64Array.from(types, Number) },
    alg: "bipartite",
  },
  {
    label: "bipartite, gaps",
    n: 30,
    edges: bipartiteEdges,
    directed: true,
    py: `types=${JSON.stringify(types).replace(/true/g, "True").replace(/false/g, "False")}, hgap=2, vgap=5`,
    params: { types: Float64Array.from(types, Number), hgap: 2, vgap: 5 },
    alg: "bipartite",
  },
];

function place(alg: string, c: Case): Float64Array {
  const entry = findLayout("igraph", alg);
  if (!entry) throw new Error(`no igraph layout ${alg}`);
  const params = { ...c.params, ...(c.weight ? { weights: c.weight.slice(0, c.edges.length) } : {}) };
  return entry.place(computeGraph(c.n, c.edges, { directed: c.directed }), params, cpuContext);
}

describe("igraph sugiyama and bipartite", () => {
  it("match python-igraph's layout_sugiyama and layout_bipartite (original vertices)", async () => {
    const answers = await runReference(
      cases.map((c) => ({
        n: c.n,
        edges: c.edges,
        directed: c.directed,
        ...(c.weight ? { edgeAttrs: { weight: c.weight.slice(0, c.edges.length) } } : {}),
        calls: [`g.layout_${c.alg ?? "sugiyama"}(${c.py}).coords`],
      })),
    );
    for (const [k, c] of cases.entries()) {
      const expected = answerValue<number[][]>(answers[k]?.[0]);
      const got = place(c.alg ?? "sugiyama", c);
      expect(got.length, c.label).toBe(c.n * 2);
      expect(allFinite(got), c.label).toBe(true);
      let worst = 0;
      for (let i = 0; i < c.n; i++)
        for (let d = 0; d < 2; d++) worst = Math.max(worst, Math.abs((got[i * 2 + d] as number) - (expected[i]?.[d] as number)));
      expect(worst, c.label).toBeLessThan(1e-9);
    }
  });

  it("draws a DAG of up to 1000 vertices with every edge pointing down and rows by layer", () => {
    for (const [n, m, seed] of [
      [200, 400, 21],
      [500, 700, 22],
    ] as const) {
      const edges = randomDag(n, m, seed);
      const got = place("sugiyama", { label: "", n, edges, directed: true, py: "", params: {} });
      for (const [s, t] of edges) expect(got[t * 2 + 1] as number).toBeGreaterThan(got[s * 2 + 1] as number);
      for (let i = 0; i < n; i++) expect(Number.isInteger(got[i * 2 + 1])).toBe(true);
      // Vertices of one row are at least hgap (1) apart.
      const rows = new Map<number, number[]>();
      for (let i = 0; i < n; i++) rows.set(got[i * 2 + 1] as number, [...(rows.get(got[i * 2 + 1] as number) ?? []), got[i * 2] as number]);
      for (const xs of rows.values()) {
        xs.sort((a, b) => a - b);
        for (let k = 1; k < xs.length; k++) expect((xs[k] as number) - (xs[k - 1] as number)).toBeGreaterThanOrEqual(1 - 1e-9);
      }
    }
    // Given layers are the rows (times vgap), whatever the edges.
    const layers = Array.from({ length: 45 }, (_, i) => (i * 5) % 7);
    const got = place("sugiyama", { label: "", n: 45, edges: cyclic, directed: true, py: "", params: { layers, vgap: 2 } });
    for (let i = 0; i < 45; i++) expect(got[i * 2 + 1]).toBe((layers[i] as number) * 2);
  });

  it("puts bipartite types in two rows vgap apart", () => {
    const got = place("bipartite", {
      label: "",
      n: 30,
      edges: bipartiteEdges,
      directed: false,
      py: "",
      params: { types: Float64Array.from(types, Number), vgap: 4 },
    });
    for (let i = 0; i < 30; i++) expect(got[i * 2 + 1]).toBe(types[i] ? 0 : 4);
  });

  it("answers 400s naming the field for bad layers and types", () => {
    const g = computeGraph(
      4,
      [
        [0, 1],
        [1, 2],
      ],
      { directed: true },
    );
    const error = (alg: string, params: Record<string, unknown>) => {
      try {
        findLayout("igraph", alg)?.place(g, params, cpuContext);
      } catch (e) {
        if (e instanceof ComputeInputError) return e.field;
        throw e;
      }
      return null;
    };
    expect(error("sugiyama", { layers: [0, 1, 2] })).toBe("layers");
    expect(error("sugiyama", { layers: [0, 1, -2, 3] })).toBe("layers");
    expect(error("sugiyama", { layers: [0, 1, 1.5, 3] })).toBe("layers");
    expect(error("sugiyama", { layers: "rank" })).toBe("layers");
    expect(error("sugiyama", { weights: [1, 2, 3] })).toBe("weights");
    expect(error("sugiyama", { weights: "w" })).toBe("weights");
    expect(error("bipartite", { types: Float64Array.of(0, 1, 2, 1) })).toBe("types");
    expect(error("bipartite", { types: Float64Array.of(0, 1, 1) })).toBe("types");
    expect(error("bipartite", { types: Float64Array.of(0, 1, 1, 0), hgap: -1 })).toBe("hgap");
  });

  it("reads layers and types from node columns as pygraphistry passes them (params: {layers: 'degree'}), or lists", () => {
    const n = 30;
    const tables = {
      nodes: pl.DataFrame({
        id: Array.from({ length: n }, (_, i) => `v${i}`),
        rank: Array.from({ length: n }, (_, i) => i % 4),
        type: types,
      }),
      edges: undefined,
      nodeId: "id",
    };
    const g = computeGraph(n, bipartiteEdges, { directed: false });
    const request = (alg: string, params: Record<string, unknown>) => {
      const parsed = parseLayout({ libraries: ["igraph"], alg, params, directed: false });
      return findLayout("igraph", alg)?.place(g, resolveParams(parsed, tables), cpuContext) as Float64Array;
    };
    const byColumn = request("sugiyama", { layers: "rank" });
    const byList = request("sugiyama", { layers: Array.from({ length: n }, (_, i) => i % 4) });
    expect(Array.from(byColumn)).toEqual(Array.from(byList));
    for (let i = 0; i < n; i++) expect(byColumn[i * 2 + 1]).toBe(i % 4);
    const byDefaultColumn = request("bipartite", {});
    expect(Array.from(request("bipartite", { types }))).toEqual(Array.from(byDefaultColumn));
    for (let i = 0; i < n; i++) expect(byDefaultColumn[i * 2 + 1]).toBe(types[i] ? 0 : 1);
    expect(() => request("bipartite", { types: "missing" })).toThrow(/no column "missing"/);
    expect(() => request("sugiyama", { layers: "id" })).toThrow(/not numeric/);
  });
});
