// Spanning trees and Gomory-Hu trees against python-igraph and networkx on seeded weighted graphs.
import { describe, expect, it } from "vitest";
import { type ComputeGraph, computeGraph } from "../../kernels/cpu/csr.ts";
import { entries } from "../../src/compute/algorithms/structure/index.ts";
import { sortByWeight } from "../../src/compute/algorithms/structure/sort-by-weight.ts";
import { ComputeInputError, type ComputeOutput, cpuContext } from "../../src/compute/types.ts";
import { answerValue as answerOf, runReference } from "../helpers/graph-reference.ts";
import { seeded } from "../helpers/seeded.ts";

type Edge = readonly [number, number];

/** n nodes (the last few isolated), m random edges, some repeated, some self-loops, integer weights 1 .. 9. */
function randomGraph(seed: number, n: number, m: number): { edges: Edge[]; weight: number[] } {
  const rng = seeded(seed);
  const edges: Edge[] = [];
  const weight: number[] = [];
  const active = n - 3;
  for (let i = 0; i < m; i++) {
    const s = rng.int(0, active - 1);
    const r = rng.next();
    const t = r < 0.05 ? s : rng.int(0, active - 1);
    const copies = r > 0.93 ? 2 : 1;
    for (let c = 0; c < copies; c++) {
      edges.push([s, t]);
      weight.push(rng.int(1, 9));
    }
  }
  return { edges, weight };
}

function run(lib: string, name: string, graph: ComputeGraph, params: Record<string, unknown> = {}): ComputeOutput {
  const entry = entries.find((e) => e.library === lib && e.name === name);
  if (!entry) throw new Error(`${lib} ${name} is not registered`);
  const filled: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(entry.params)) if (spec.default !== undefined) filled[key] = spec.default;
  return entry.run(graph, { ...filled, ...params }, cpuContext, name);
}

/** Number of components of the undirected graph. */
function componentCount(n: number, edges: readonly Edge[]): number {
  const parent = Array.from({ length: n }, (_, i) => i);
  const find = (x: number): number => {
    let r = x;
    while (parent[r] !== r) r = parent[r] as number;
    return r;
  };
  let count = n;
  for (const [s, t] of edges) {
    const a = find(s);
    const b = find(t);
    if (a !== b) {
      parent[a] = b;
      count--;
    }
  }
  return count;
}

/** Checks the kept rows form a spanning forest (no cycle, one tree per component) and answers its weight. */
function forestWeight(graph: ComputeGraph, edges: readonly Edge[], weight: readonly number[], out: ComputeOutput): number {
  if (out.kind !== "graph" || !out.edgeRows) throw new Error("a graph of kept edges");
  expect(out.nodeRows).toBeNull();
  const kept = Array.from(out.edgeRows, (e) => edges[e] as Edge);
  expect(componentCount(graph.n, kept)).toBe(graph.n - kept.length); // acyclic
  expect(componentCount(graph.n, kept)).toBe(componentCount(graph.n, edges)); // spanning
  return Array.from(out.edgeRows).reduce((sum, e) => sum + (weight[e] as number), 0);
}

const CASES = [
  { seed: 21, n: 30, m: 50 },
  { seed: 22, n: 80, m: 120 },
  { seed: 23, n: 200, m: 800 },
];

describe("spanning trees", () => {
  it("orders edges by weight then row as a comparator sort does (negatives, ties, fractions, huge values)", () => {
    const rng = seeded(5);
    const w = Float64Array.from({ length: 5000 }, () => {
      const r = rng.next();
      return r < 0.2
        ? rng.int(-5, 5)
        : r < 0.4
          ? (rng.next() - 0.5) * 1e-300
          : r < 0.5
            ? (rng.next() - 0.5) * 1e300
            : (rng.next() - 0.5) * 100;
    });
    const want = Array.from(w, (_, i) => i).sort((a, b) => (w[a] as number) - (w[b] as number) || a - b);
    expect(Array.from(sortByWeight(w))).toEqual(want);
    // Small integers share their low digits: the passes over them are skipped.
    const ints = Float64Array.from({ length: 3000 }, () => rng.int(-3, 40));
    const intOrder = Array.from(ints, (_, i) => i).sort((a, b) => (ints[a] as number) - (ints[b] as number) || a - b);
    expect(Array.from(sortByWeight(ints))).toEqual(intOrder);
  });

  it("minimum_spanning_tree and spanning_tree weigh what networkx's and igraph's trees weigh", async () => {
    const graphs = CASES.map((c) => ({ ...c, ...randomGraph(c.seed, c.n, c.m) }));
    const answers = await runReference(
      graphs.flatMap((g) => [
        {
          n: g.n,
          edges: g.edges,
          directed: false,
          edgeAttrs: { weight: g.weight },
          calls: [
            'sum(d["weight"] for _, _, d in nx.minimum_spanning_edges(G, keys=False, data=True))',
            'sum(g.spanning_tree(weights="weight").es["weight"])',
            "g.spanning_tree().ecount()",
          ],
        },
        {
          n: g.n,
          edges: g.edges,
          directed: true,
          edgeAttrs: { weight: g.weight },
          calls: ['sum(g.spanning_tree(weights="weight").es["weight"])'],
        },
      ]),
    );
    graphs.forEach((g, i) => {
      const [nxWeight, igraphWeight, unweightedCount] = (answers[2 * i] ?? []).map((a) => answerOf<number>(a));
      const directedWeight = answerOf<number>(answers[2 * i + 1]?.[0]);
      const graph = computeGraph(g.n, g.edges, { directed: false, weight: g.weight });
      expect(forestWeight(graph, g.edges, g.weight, run("cugraph", "minimum_spanning_tree", graph))).toBe(nxWeight);
      const weights = Float64Array.from(g.weight);
      expect(forestWeight(graph, g.edges, g.weight, run("igraph", "spanning_tree", graph, { weights }))).toBe(igraphWeight);
      const plain = run("igraph", "spanning_tree", graph);
      expect(plain.kind === "graph" && plain.edgeRows?.length).toBe(unweightedCount);
      const directed = computeGraph(g.n, g.edges, { directed: true });
      expect(forestWeight(directed, g.edges, g.weight, run("igraph", "spanning_tree", directed, { weights }))).toBe(directedWeight);
    });
  });

  it("minimum_spanning_tree refuses directed graphs as cuGraph does", () => {
    const entry = entries.find((e) => e.library === "cugraph" && e.name === "minimum_spanning_tree");
    expect(entry?.undirectedOnly).toBe(true);
  });
});

describe("Gomory-Hu tree", () => {
  it("is igraph's tree, flows included, and every pair's minimum cut equals igraph's maxflow", async () => {
    const small = [
      { seed: 31, n: 12, m: 25 },
      { seed: 32, n: 16, m: 30 },
      { seed: 33, n: 25, m: 70 },
    ].map((c) => ({ ...c, ...randomGraph(c.seed, c.n, c.m) }));
    const answers = await runReference(
      small.map((g) => ({
        n: g.n,
        edges: g.edges,
        directed: false,
        edgeAttrs: { cap: g.weight },
        calls: [
          'g.gomory_hu_tree(capacity="cap").get_edgelist()',
          'g.gomory_hu_tree(capacity="cap").es["flow"]',
          `[[g.maxflow_value(s, t, capacity="cap") for t in range(${g.n})] for s in range(${g.n})]`,
          'g.gomory_hu_tree().es["flow"]',
        ],
      })),
    );
    small.forEach((g, i) => {
      const [edgeList, flows, cuts, unitFlows] = (answers[i] ?? []).map((a) => answerOf(a)) as [
        [number, number][],
        number[],
        number[][],
        number[],
      ];
      const graph = computeGraph(g.n, g.edges, { directed: false });
      const out = run("igraph", "gomory_hu_tree", graph, { capacity: Float64Array.from(g.weight), flow: "cut" });
      if (out.kind !== "graph" || !out.newEdges) throw new Error("gomory_hu_tree answers new edges");
      const { src, dst, columns } = out.newEdges;
      expect(columns[0]?.name).toBe("cut");
      const flow = Array.from(columns[0]?.values as Float64Array);
      const pairs = Array.from(src, (s, k) => [Math.min(s, dst[k] as number), Math.max(s, dst[k] as number)]);
      expect(pairs).toEqual(edgeList);
      expect(flow).toEqual(flows);
      // Every pair's minimum cut: the lightest edge on the tree path between them.
      const adj: [number, number][][] = Array.from({ length: g.n }, () => []);
      src.forEach((s, k) => {
        adj[s]?.push([dst[k] as number, flow[k] as number]);
        adj[dst[k] as number]?.push([s, flow[k] as number]);
      });
      for (let s = 0; s < g.n; s++) {
        const best = new Array<number>(g.n).fill(-1);
        best[s] = Number.POSITIVE_INFINITY;
        const stack = [s];
        while (stack.length) {
          const v = stack.pop() as number;
          for (const [w, f] of adj[v] ?? []) {
            if (best[w] !== -1) continue;
            best[w] = Math.min(best[v] as number, f);
            stack.push(w);
          }
        }
        for (let t = 0; t < g.n; t++) if (t !== s) expect(best[t]).toBe(cuts[s]?.[t]);
      }
      const unit = run("igraph", "gomory_hu_tree", graph);
      expect(unit.kind === "graph" && Array.from(unit.newEdges?.columns[0]?.values as Float64Array)).toEqual(unitFlows);
    });
  });

  it("refuses negative capacities and directed graphs", () => {
    const graph = computeGraph(
      3,
      [
        [0, 1],
        [1, 2],
      ],
      { directed: false },
    );
    expect(() => run("igraph", "gomory_hu_tree", graph, { capacity: Float64Array.of(1, -1) })).toThrow(ComputeInputError);
    expect(entries.find((e) => e.name === "gomory_hu_tree")?.undirectedOnly).toBe(true);
  });
});
