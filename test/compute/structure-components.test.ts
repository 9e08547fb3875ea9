// Components and cores against python-igraph and networkx on seeded graphs (isolated nodes, multi-edges, self-loops).
import { beforeAll, describe, expect, it } from "vitest";
import { components } from "../../kernels/cpu/components.ts";
import { corePeelings } from "../../kernels/cpu/core-number.ts";
import { computeGraph } from "../../kernels/cpu/csr.ts";
import { entries } from "../../src/compute/algorithms/structure/index.ts";
import { createComputeContext } from "../../src/compute/backend.ts";
import { type ComputeContext, type ComputeOutput, cpuContext } from "../../src/compute/types.ts";
import { answerValue as answerOf, runReference } from "../helpers/graph-reference.ts";
import { seeded } from "../helpers/seeded.ts";
import { backends } from "../kernels/backends.ts";

type Edge = readonly [number, number];

/** n nodes (the last few isolated), m random edges, some repeated, some self-loops. */
function randomGraph(seed: number, n: number, m: number): Edge[] {
  const rng = seeded(seed);
  const edges: Edge[] = [];
  const active = n - 3;
  for (let i = 0; i < m; i++) {
    const s = rng.int(0, active - 1);
    const r = rng.next();
    const t = r < 0.05 ? s : rng.int(0, active - 1);
    edges.push([s, t]);
    if (r > 0.93) edges.push([s, t]);
  }
  return edges;
}

function run(
  lib: string,
  name: string,
  graph: ReturnType<typeof computeGraph>,
  params: Record<string, unknown> = {},
  label = name,
): ComputeOutput {
  const entry = entries.find((e) => e.library === lib && e.name === name);
  if (!entry) throw new Error(`${lib} ${name} is not registered`);
  const filled: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(entry.params)) if (spec.default !== undefined) filled[key] = spec.default;
  return entry.run(graph, { ...filled, ...params }, ctx, label);
}

function column(out: ComputeOutput, name: string): number[] {
  if (out.kind === "graph") throw new Error("a graph answer");
  const col = out.columns.find((c) => c.name === name);
  if (!col) throw new Error(`no column ${name}`);
  return Array.from(col.values as ArrayLike<number>);
}

/** Membership renumbered 0, 1, ... by first appearance (smallest node row). */
function bySmallestRow(membership: number[]): number[] {
  const seen = new Map<number, number>();
  return membership.map((c) => {
    if (!seen.has(c)) seen.set(c, seen.size);
    return seen.get(c) as number;
  });
}

const CASES = [
  { seed: 1, n: 40, m: 45 },
  { seed: 2, n: 60, m: 120 },
  { seed: 3, n: 120, m: 150 },
  { seed: 4, n: 200, m: 600 },
  { seed: 5, n: 30, m: 20 },
];

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

    describe("components", () => {
      it("the union-find kernel labels each node with its component's smallest row", () => {
        const label = components({ n: 6, src: Int32Array.of(5, 3, 4), dst: Int32Array.of(3, 1, 0) });
        expect(Array.from(label)).toEqual([0, 1, 2, 1, 0, 1]);
      });

      for (const directed of [true, false]) {
        it(`igraph clusters and cuGraph labels equal igraph's membership (${directed ? "directed" : "undirected"})`, async () => {
          const graphs = CASES.map((c) => ({ ...c, edges: randomGraph(c.seed, c.n, c.m) }));
          const answers = await referenceOnce(
            graphs.map((g) => ({
              n: g.n,
              edges: g.edges,
              directed,
              calls: ['g.connected_components(mode="strong").membership', 'g.connected_components(mode="weak").membership'],
            })),
          );
          graphs.forEach((g, i) => {
            const graph = computeGraph(g.n, g.edges, { directed });
            const strong = answerOf<number[]>(answers[i]?.[0]);
            const weak = answerOf<number[]>(answers[i]?.[1]);
            expect(column(run("igraph", "clusters", graph), "clusters")).toEqual(strong);
            expect(column(run("igraph", "clusters", graph, { mode: "weak" }), "clusters")).toEqual(weak);
            expect(column(run("cugraph", "weakly_connected_components", graph, {}, "c"), "c")).toEqual(weak);
            expect(column(run("cugraph", "connected_components", graph, {}, "c"), "c")).toEqual(weak);
            expect(column(run("cugraph", "connected_components", graph, { connection: "strong" }, "c"), "c")).toEqual(
              bySmallestRow(strong),
            );
            expect(column(run("cugraph", "strongly_connected_components", graph, {}, "c"), "c")).toEqual(bySmallestRow(strong));
          });
        });
      }
    });

    describe("cores", () => {
      it("core numbers equal igraph's coreness per mode and networkx's core_number", async () => {
        const graphs = CASES.map((c) => ({ ...c, edges: randomGraph(c.seed + 10, c.n, c.m * 2) }));
        // networkx's core_number takes simple graphs: no self-loops, no parallel edges (either way).
        const loopless = graphs.map((g) => {
          const seen = new Set<string>();
          return g.edges.filter(([s, t]) => {
            const key = `${Math.min(s, t)} ${Math.max(s, t)}`;
            if (s === t || seen.has(key)) return false;
            seen.add(key);
            return true;
          });
        });
        const answers = await referenceOnce([
          ...graphs.map((g) => ({
            n: g.n,
            edges: g.edges,
            directed: true,
            calls: [
              'g.coreness(mode="all")',
              'g.coreness(mode="in")',
              'g.coreness(mode="out")',
              "[h.vcount() for h in g.k_core() if h.vcount() > 0][-1]",
            ],
          })),
          ...graphs.map((g, i) => ({
            n: g.n,
            edges: loopless[i] as Edge[],
            directed: false,
            calls: [
              "(lambda c: [c[v] for v in range(len(c))])(nx.core_number(nx.Graph(G)))",
              "g.k_core(2).vcount()",
              "g.k_core(2).ecount()",
              "g.coreness()",
            ],
          })),
        ]);
        graphs.forEach((g, i) => {
          const graph = computeGraph(g.n, g.edges, { directed: true });
          const [all, inn, out, innermost] = (answers[i] ?? []).map((a) => answerOf(a)) as [number[], number[], number[], number];
          expect(column(run("cugraph", "core_number", graph), "core_number")).toEqual(all);
          expect(column(run("cugraph", "core_number", graph, { degree_type: "incoming" }), "core_number")).toEqual(inn);
          expect(column(run("cugraph", "core_number", graph, { degree_type: "outgoing" }), "core_number")).toEqual(out);
          const core = run("igraph", "k_core", graph);
          expect(core.kind === "graph" && core.nodeRows?.length).toBe(innermost);

          const plain = computeGraph(g.n, loopless[i] as Edge[], { directed: false });
          const [nxCore, k2Nodes, k2Edges, coreness] = (answers[graphs.length + i] ?? []).map((a) => answerOf(a)) as [
            number[],
            number,
            number,
            number[],
          ];
          expect(column(run("cugraph", "core_number", plain), "core_number")).toEqual(nxCore);
          for (const [lib, params] of [
            ["igraph", { k: 2 }],
            ["cugraph", { k: 2 }],
          ] as const) {
            const sub = run(lib, "k_core", plain, params);
            if (sub.kind !== "graph" || !sub.nodeRows || !sub.edgeRows) throw new Error("k_core answers a graph");
            expect(sub.nodeRows.length).toBe(k2Nodes);
            expect(sub.edgeRows.length).toBe(k2Edges);
            expect(Array.from(sub.nodeRows)).toEqual(coreness.flatMap((c, v) => (c >= 2 ? [v] : [])));
          }
        });
      });

      it("level peeling and bucket peeling give the same core numbers in every direction", () => {
        for (const c of CASES) {
          const graph = computeGraph(c.n, randomGraph(c.seed + 20, c.n, c.m * 3), { directed: true });
          const both = { n: graph.n, start: graph.inStart, nbr: graph.inSrc, rstart: graph.outStart, rnbr: graph.outDst };
          const level = corePeelings.levelPeel(both);
          expect(level).not.toBeNull();
          expect(Array.from(level ?? [])).toEqual(Array.from(corePeelings.bucketPeel(both)));
        }
      });

      it("k_core takes precomputed core numbers and defaults k to the largest", () => {
        const graph = computeGraph(
          5,
          [
            [0, 1],
            [1, 2],
            [2, 0],
            [3, 4],
          ],
          { directed: false },
        );
        const given = run("cugraph", "k_core", graph, { core_number: Float64Array.of(0, 0, 3, 3, 1) });
        expect(given.kind === "graph" && Array.from(given.nodeRows ?? [])).toEqual([2, 3]);
        const innermost = run("cugraph", "k_core", graph);
        expect(innermost.kind === "graph" && Array.from(innermost.edgeRows ?? [])).toEqual([0, 1, 2]);
      });
    });
  });
}
