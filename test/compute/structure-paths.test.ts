// BFS, shortest paths and ego graphs against python-igraph and networkx on seeded graphs, and their refusals.
import { beforeAll, describe, expect, it } from "vitest";
import { type ComputeGraph, computeGraph } from "../../kernels/cpu/csr.ts";
import { entries } from "../../src/compute/algorithms/structure/index.ts";
import { createComputeContext } from "../../src/compute/backend.ts";
import { type ComputeContext, ComputeInputError, type ComputeOutput, cpuContext, type OutColumn } from "../../src/compute/types.ts";
import { answerValue as answerOf, runReference } from "../helpers/graph-reference.ts";
import { seeded } from "../helpers/seeded.ts";
import { backends } from "../kernels/backends.ts";

type Edge = readonly [number, number];

/** n nodes (the last few isolated), m random edges, some repeated, some self-loops, weights 0 .. 9.5. */
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
      weight.push(rng.int(0, 19) / 2);
    }
  }
  return { edges, weight };
}

function run(lib: string, name: string, graph: ComputeGraph, params: Record<string, unknown> = {}, label = name): ComputeOutput {
  const entry = entries.find((e) => e.library === lib && e.name === name);
  if (!entry) throw new Error(`${lib} ${name} is not registered`);
  const filled: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(entry.params)) if (spec.default !== undefined) filled[key] = spec.default;
  return entry.run(graph, { ...filled, ...params }, ctx, label);
}

/** A column with nulls as null (invalid entries, NaN and infinities in float columns). */
function column(out: ComputeOutput, name: string): (number | null)[] {
  if (out.kind === "graph") throw new Error("a graph answer");
  const col = out.columns.find((c) => c.name === name) as OutColumn | undefined;
  if (!col) throw new Error(`no column ${name}`);
  return Array.from(col.values as ArrayLike<number>, (v, i) => ((col.valid && !col.valid[i]) || !Number.isFinite(v) ? null : v));
}

const CASES = [
  { seed: 11, n: 40, m: 60 },
  { seed: 12, n: 80, m: 200 },
  { seed: 13, n: 150, m: 170 },
  { seed: 14, n: 300, m: 1200 },
];

/** Checks predecessors: a node one step closer joined by an edge (the smallest such row when `smallest`). */
function checkPredecessors(graph: ComputeGraph, dist: (number | null)[], pred: (number | null)[], source: number, weighted: boolean) {
  for (let v = 0; v < graph.n; v++) {
    if (dist[v] === null || v === source) {
      expect(pred[v]).toBeNull();
      continue;
    }
    const candidates: number[] = [];
    for (let e = 0; e < graph.m; e++) {
      const ends: Edge[] = graph.directed
        ? [[graph.src[e] as number, graph.dst[e] as number]]
        : [
            [graph.src[e] as number, graph.dst[e] as number],
            [graph.dst[e] as number, graph.src[e] as number],
          ];
      for (const [a, b] of ends) {
        if (b !== v || dist[a] === null) continue;
        const step = weighted && graph.weight ? (graph.weight[e] as number) : 1;
        if ((dist[a] as number) + step === dist[v] && (weighted || (dist[a] as number) < (dist[v] as number))) candidates.push(a);
      }
    }
    if (weighted) expect(candidates).toContain(pred[v]);
    else expect(pred[v]).toBe(Math.min(...candidates));
  }
}

/** The references' answers, asked once per distinct request and shared by the backends' blocks. */
const asked = new Map<string, ReturnType<typeof runReference>>();
function referenceOnce(graphs: Parameters<typeof runReference>[0]): ReturnType<typeof runReference> {
  const key = JSON.stringify(graphs);
  let answer = asked.get(key);
  if (!answer) {
    answer = runReference(graphs);
    asked.set(key, answer);
  }
  return answer;
}

/** The context of the backend a block runs on (the CPU twins, or the OpenCL kernels where this machine has them). */
let ctx: ComputeContext = cpuContext;

for (const backend of backends) {
  describe(`on ${backend}`, () => {
    beforeAll(() => {
      ctx = createComputeContext({ backend });
    });

    describe("bfs", () => {
      for (const directed of [true, false]) {
        it(`hop distances equal igraph's, predecessors are the smallest parent (${directed ? "directed" : "undirected"})`, async () => {
          const graphs = CASES.map((c) => ({ ...c, ...randomGraph(c.seed, c.n, c.m) }));
          const answers = await referenceOnce(
            graphs.map((g) => ({
              n: g.n,
              edges: g.edges,
              directed,
              calls: ['g.distances(source=0, mode="out")[0]', 'g.distances(source=1, mode="in")[0]', "g.distances(source=2)[0]"],
            })),
          );
          graphs.forEach((g, i) => {
            const graph = computeGraph(g.n, g.edges, { directed });
            const [out0, in1, out2] = (answers[i] ?? []).map((a) => answerOf<(number | null)[]>(a));
            const bfs = run("cugraph", "bfs", graph, { start: 0 }, "hops");
            expect(column(bfs, "hops")).toEqual(out0);
            checkPredecessors(graph, column(bfs, "hops"), column(bfs, "predecessor"), 0, false);
            const reverse = run("cugraph", "bfs_edges", graph, { source: 1, reverse: true });
            expect(column(reverse, "bfs_edges")).toEqual(directed ? in1 : column(run("cugraph", "bfs", graph, { start: 1 }), "bfs"));
            const limited = run("cugraph", "bfs", graph, { start: 2, depth_limit: 2, return_predecessors: false });
            expect(column(limited, "bfs")).toEqual((out2 ?? []).map((d) => (d !== null && d <= 2 ? d : null)));
            expect(limited.kind === "nodes" && limited.columns.map((c) => c.name)).toEqual(["bfs"]);
          });
        });
      }
    });

    describe("shortest paths", () => {
      for (const directed of [true, false]) {
        it(`distances by the bound weight equal igraph's and networkx's (${directed ? "directed" : "undirected"})`, async () => {
          const graphs = CASES.map((c) => ({ ...c, ...randomGraph(c.seed + 100, c.n, c.m) }));
          const answers = await referenceOnce(
            graphs.map((g) => ({
              n: g.n,
              edges: g.edges,
              directed,
              edgeAttrs: { weight: g.weight },
              calls: [
                'g.distances(source=3, weights="weight", mode="out")[0]',
                '(lambda d: [d.get(v) for v in range(len(G))])(nx.single_source_dijkstra_path_length(G, 3, weight="weight"))',
                "g.distances(source=3)[0]",
              ],
            })),
          );
          graphs.forEach((g, i) => {
            const graph = computeGraph(g.n, g.edges, { directed, weight: g.weight });
            const [igraphDist, nxDist, hops] = (answers[i] ?? []).map((a) => answerOf<(number | null)[]>(a));
            expect(igraphDist).toEqual(nxDist);
            const sssp = run("cugraph", "sssp", graph, { source: 3 }, "d");
            expect(column(sssp, "d")).toEqual(igraphDist);
            checkPredecessors(graph, column(sssp, "d"), column(sssp, "predecessor"), 3, true);
            expect(column(run("cugraph", "shortest_path", graph, { source: 3 }), "shortest_path")).toEqual(igraphDist);
            expect(column(run("cugraph", "shortest_path_length", graph, { source: 3 }), "shortest_path_length")).toEqual(igraphDist);
            expect(column(run("cugraph", "sssp", graph, { source: 3, unweighted: true }), "sssp")).toEqual(hops);
            const cut = run("cugraph", "sssp", graph, { source: 3, cutoff: 6 });
            expect(column(cut, "sssp")).toEqual((igraphDist ?? []).map((d) => (d !== null && d <= 6 ? d : null)));
            const target = g.n - 5;
            const one = column(run("cugraph", "shortest_path_length", graph, { source: 3, target }), "shortest_path_length");
            expect(one).toEqual(one.map((_, v) => (v === target ? (igraphDist?.[target] ?? null) : null)));
            // No bound weight: every edge weighs 1.
            const unbound = computeGraph(g.n, g.edges, { directed });
            expect(column(run("cugraph", "sssp", unbound, { source: 3 }), "sssp")).toEqual(hops);
          });
        });
      }

      it("refuses negative weights with a 400 naming the bound weight", () => {
        const graph = computeGraph(
          3,
          [
            [0, 1],
            [1, 2],
          ],
          { weight: [1, -2] },
        );
        for (const name of ["sssp", "shortest_path", "shortest_path_length"]) {
          expect(() => run("cugraph", name, graph, { source: 0 })).toThrow(ComputeInputError);
          expect(() => run("cugraph", name, graph, { source: 0 })).toThrow(/negative/);
        }
        try {
          run("cugraph", "sssp", graph, { source: 0 });
        } catch (error) {
          expect((error as ComputeInputError).field).toBe("edge_weight");
        }
      });
    });

    describe("ego graphs", () => {
      it("ego_graph holds networkx's nodes and edges; batched_ego_graphs counts the seeds' ego graphs holding each edge", async () => {
        const graphs = CASES.map((c) => ({ ...c, ...randomGraph(c.seed + 200, c.n, c.m) }));
        const edgeKeys = (call: string) => `sorted(k for _, _, k in ${call}.edges(keys=True))`;
        const seeds = [0, 5, 7, 5];
        const answers = await referenceOnce(
          graphs.flatMap((g) =>
            [true, false].map((directed) => ({
              n: g.n,
              edges: g.edges,
              directed,
              calls: [
                "sorted(nx.ego_graph(G, 4, radius=2).nodes())",
                edgeKeys("nx.ego_graph(G, 4, radius=2)"),
                "sorted(nx.ego_graph(G, 4, radius=1, center=False).nodes())",
                `[${seeds.map((s) => edgeKeys(`nx.ego_graph(G, ${s}, radius=2)`)).join(", ")}]`,
              ],
            })),
          ),
        );
        graphs.forEach((g, i) => {
          [true, false].forEach((directed, d) => {
            const graph = computeGraph(g.n, g.edges, { directed });
            const [nodes, edges, noCenter, perSeed] = (answers[2 * i + d] ?? []).map((a) => answerOf(a)) as [
              number[],
              number[],
              number[],
              number[][],
            ];
            const ego = run("cugraph", "ego_graph", graph, { n: 4, radius: 2 });
            if (ego.kind !== "graph") throw new Error("ego_graph answers a graph");
            expect(Array.from(ego.nodeRows ?? [])).toEqual(nodes);
            expect(Array.from(ego.edgeRows ?? [])).toEqual(edges);
            const bare = run("cugraph", "ego_graph", graph, { n: 4, radius: 1, center: false });
            expect(bare.kind === "graph" && Array.from(bare.nodeRows ?? [])).toEqual(noCenter);
            const expected = new Array(g.edges.length).fill(0);
            for (const keys of perSeed) for (const k of keys) expected[k]++;
            const batched = run("cugraph", "batched_ego_graphs", graph, { seeds: Int32Array.from(seeds), radius: 2 }, "egos");
            expect(column(batched, "egos")).toEqual(expected);
          });
        });
      });
    });
  });
}
