// igraph's auto (and automatic, auto_3d): python-igraph's Graph.layout_auto rule (kk for a connected graph of at
// most 100 vertices, fr up to 1000, drl beyond; the 3D forms in 3D), each branch running the registry's layout.
import { describe, expect, it } from "vitest";
import { computeGraph } from "../../kernels/cpu/csr.ts";
import { cpuContext } from "../../src/compute/types.ts";
import { autoChoice, autoLayout } from "../../src/layout/algorithms/stress/auto.ts";
import { findLayout } from "../../src/layout/registry.ts";
import type { LayoutEntry } from "../../src/layout/types.ts";
import { answerValue, runReference } from "../helpers/graph-reference.ts";
import { allFinite, randomGraph } from "../helpers/layout-quality.ts";

type Edges = [number, number][];
const graphOf = (n: number, edges: Edges) => computeGraph(n, edges, { directed: false });
const layout = (name: string) => findLayout("igraph", name) as LayoutEntry;

/** A path 0-1-...-(n-1) plus random chords: connected. */
function connected(n: number, chords: number, seed: number): Edges {
  const edges: Edges = Array.from({ length: n - 1 }, (_, i): [number, number] => [i, i + 1]);
  const seen = new Set(edges.map(([a, b]) => a * n + b));
  for (const [a, b] of randomGraph(n, chords, seed)) if (!seen.has(Math.min(a, b) * n + Math.max(a, b))) edges.push([a, b]);
  return edges;
}

describe("igraph auto", () => {
  it("chooses as python-igraph's layout_auto does, at every threshold", async () => {
    // python-igraph runs its choice through graph.layout(algo): a stand-in for that method answers the name.
    const cases = [
      { n: 1, edges: [] as Edges, want: "kk" },
      { n: 100, edges: connected(100, 20, 1), want: "kk" },
      { n: 101, edges: connected(101, 20, 2), want: "fr" },
      { n: 60, edges: randomGraph(60, 30, 3), want: "fr" },
      { n: 1000, edges: connected(1000, 50, 4), want: "fr" },
      { n: 1001, edges: connected(1001, 50, 5), want: "drl" },
      { n: 0, edges: [] as Edges, want: "fr" },
    ];
    const choice = "(setattr(g, 'layout', lambda algo, *args, **kwds: algo), g.layout_auto())[1]";
    const answers = await runReference(cases.map(({ n, edges }) => ({ n, edges, directed: false, calls: [choice] })));
    cases.forEach(({ n, edges, want }, k) => {
      expect(answerValue<string>(answers[k]?.[0]), `igraph, ${n} vertices`).toBe(want);
      expect(autoChoice(graphOf(n, edges), 2), `${n} vertices`).toBe(want);
      expect(autoChoice(graphOf(n, edges), 3), `${n} vertices, 3D`).toBe(`${want}_3d`);
    });
  });

  it("lays a small connected graph out as layout_auto() does (igraph's Kamada-Kawai), under auto and automatic", async () => {
    const n = 30;
    const edges = connected(n, 15, 6);
    const [answers] = await runReference([{ n, edges, directed: false, calls: ["g.layout_auto().coords", "g.layout_auto(dim=3).coords"] }]);
    const graph = graphOf(n, edges);
    for (const [name, dims, at] of [
      ["auto", 2, 0],
      ["automatic", 2, 0],
      ["auto_3d", 3, 1],
    ] as const) {
      expect(layout(name).dims).toBe(dims);
      const ours = layout(name).place(graph, {}, cpuContext);
      const theirs = answerValue<number[][]>(answers?.[at]).flat();
      expect(ours.length).toBe(n * dims);
      for (let i = 0; i < ours.length; i++)
        expect(Math.abs((ours[i] as number) - (theirs[i] as number)), `${name} value ${i}`).toBeLessThan(1e-6);
    }
    const out = layout("auto_3d").run(graph, {}, cpuContext, "layout");
    expect(out.kind === "nodes" && out.columns.map((c) => c.name)).toEqual(["x", "y", "z"]);
  });

  it.skipIf(!findLayout("igraph", "fr") || !findLayout("igraph", "fr_3d"))(
    "runs fr (fr_3d) with its defaults on a disconnected or larger graph",
    () => {
      for (const [n, edges] of [
        [60, randomGraph(60, 30, 3)],
        [150, connected(150, 40, 7)],
      ] as [number, Edges][]) {
        const graph = graphOf(n, edges);
        for (const [name, chosen] of [
          ["auto", "fr"],
          ["auto_3d", "fr_3d"],
        ]) {
          const ours = layout(name as string).place(graph, {}, cpuContext);
          expect(allFinite(ours)).toBe(true);
          expect(Array.from(ours)).toEqual(Array.from(layout(chosen as string).place(graph, {}, cpuContext)));
        }
      }
    },
  );

  it("hands the chosen layout its own defaults", () => {
    const calls: { name: string; params: Record<string, unknown> }[] = [];
    const stand = (name: string, dims: 2 | 3): LayoutEntry => ({
      ...layout("kk"),
      name,
      dims,
      params: { niter: { type: "integer", default: 500 }, seed: { type: "json", nullable: true } },
      place: (g, params) => {
        calls.push({ name, params });
        return new Float64Array(g.n * dims);
      },
    });
    const find = (_library: string, name: string) => stand(name, name.endsWith("_3d") ? 3 : 2);
    expect(autoLayout(graphOf(1001, connected(1001, 10, 9)), cpuContext, 2, find).length).toBe(2002);
    expect(autoLayout(graphOf(5, []), cpuContext, 3, find).length).toBe(15);
    expect(calls).toEqual([
      { name: "drl", params: { niter: 500 } },
      { name: "fr_3d", params: { niter: 500 } },
    ]);
  });

  it.skipIf(!findLayout("igraph", "drl"))("runs drl beyond 1000 vertices", () => {
    const n = 1001;
    const ours = layout("auto").place(graphOf(n, connected(n, 200, 8)), {}, cpuContext);
    expect(ours.length).toBe(n * 2);
    expect(allFinite(ours)).toBe(true);
  });

  it("lays out no vertex, and takes only python-igraph's dim (its own dimension)", () => {
    expect(layout("auto").place(graphOf(0, []), {}, cpuContext).length).toBe(0);
    expect(layout("auto").params).toEqual({ dim: expect.objectContaining({ type: "integer", min: 2, max: 2 }) });
    expect(layout("auto_3d").params).toEqual({ dim: expect.objectContaining({ type: "integer", min: 3, max: 3 }) });
  });
});
