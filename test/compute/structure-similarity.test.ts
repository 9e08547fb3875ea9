// The similarity family (Jaccard, overlap, Sorensen, plain and weighted) against networkx's own jaccard_coefficient
// and direct computations over networkx's neighbour sets, on seeded graphs with multi-edges and self-loops.
import { beforeAll, describe, expect, it } from "vitest";
import { computeGraph } from "../../kernels/cpu/csr.ts";
import { edgeSimilarity } from "../../kernels/cpu/edge-similarity.ts";
import { edgeSimilarityCsr } from "../../kernels/cpu/edge-similarity-csr.ts";
import { neighbourSets } from "../../src/compute/algorithms/structure/adjacency.ts";
import { entries } from "../../src/compute/algorithms/structure/index.ts";
import { createComputeContext } from "../../src/compute/backend.ts";
import { type ComputeContext, type ComputeOutput, cpuContext } from "../../src/compute/types.ts";
import { answerValue as answerOf, runReference } from "../helpers/graph-reference.ts";
import { seeded } from "../helpers/seeded.ts";
import { backends } from "../kernels/backends.ts";

type Edge = readonly [number, number];

function randomGraph(seed: number, n: number, m: number): { edges: Edge[]; weight: number[] } {
  const rng = seeded(seed);
  const edges: Edge[] = [];
  const weight: number[] = [];
  for (let i = 0; i < m; i++) {
    const s = rng.int(0, n - 1);
    const r = rng.next();
    const t = r < 0.05 ? s : rng.int(0, n - 1);
    const copies = r > 0.9 ? 2 : 1;
    for (let c = 0; c < copies; c++) {
      edges.push(r > 0.95 && c === 1 ? [t, s] : [s, t]);
      weight.push(rng.int(1, 10) / 2);
    }
  }
  return { edges, weight };
}

function run(name: string, graph: ReturnType<typeof computeGraph>, params: Record<string, unknown> = {}): number[] {
  const entry = entries.find((e) => e.library === "cugraph" && e.name === name);
  if (!entry) throw new Error(`cugraph ${name} is not registered`);
  const filled: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(entry.params)) if (spec.default !== undefined) filled[key] = spec.default;
  const out: ComputeOutput = entry.run(graph, { ...filled, ...params }, ctx, "sim");
  if (out.kind !== "edges") throw new Error("an edge column");
  expect(out.columns.map((c) => c.name)).toEqual(["sim"]);
  return Array.from(out.columns[0]?.values as Float64Array);
}

type Weights = Record<string, number>[];

/** The expected similarity per edge from networkx's weighted neighbour maps (weight 1 each when unweighted). */
function expected(edges: readonly Edge[], maps: Weights, metric: "jaccard" | "overlap" | "sorensen", weighted: boolean): number[] {
  return edges.map(([u, v]) => {
    const a = maps[u] ?? {};
    const b = maps[v] ?? {};
    const wa = (x: string) => (weighted ? (a[x] as number) : 1);
    const wb = (x: string) => (weighted ? (b[x] as number) : 1);
    let shared = 0;
    for (const x of Object.keys(a)) if (x in b) shared += Math.min(wa(x), wb(x));
    const ta = Object.keys(a).reduce((s, x) => s + wa(x), 0);
    const tb = Object.keys(b).reduce((s, x) => s + wb(x), 0);
    if (metric === "jaccard") return shared / (ta + tb - shared);
    if (metric === "overlap") return shared / Math.min(ta, tb);
    return (2 * shared) / (ta + tb);
  });
}

const close = (actual: number[], want: number[]) => {
  expect(actual.length).toBe(want.length);
  for (const [i, x] of actual.entries()) {
    const w = want[i] as number;
    expect(Math.abs(x - w)).toBeLessThanOrEqual(1e-12 * Math.max(1, Math.abs(w)));
  }
};

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

    describe("similarity family", () => {
      for (const directed of [true, false]) {
        it(`every name scores each edge's endpoints on the undirected graph (${directed ? "directed" : "undirected"} input)`, async () => {
          const graphs = [
            { seed: 41, n: 20, m: 60 },
            { seed: 42, n: 60, m: 150 },
            { seed: 43, n: 150, m: 1500 },
          ].map((c) => ({ ...c, ...randomGraph(c.seed, c.n, c.m) }));
          const answers = await referenceOnce(
            graphs.map((g) => ({
              n: g.n,
              edges: g.edges,
              directed,
              edgeAttrs: { weight: g.weight },
              calls: [
                "[p for _, _, p in nx.jaccard_coefficient(nx.Graph(G), [(u, v) for u, v, k in sorted(G.edges(keys=True), key=lambda e: e[2])])]",
                '(lambda U: [{x: sum(d["weight"] for d in U.get_edge_data(v, x).values()) for x in U[v]} for v in range(len(U))])(G.to_undirected())',
                "(lambda H: [sorted(H[v]) for v in range(len(H))])(nx.Graph(G))",
              ],
            })),
          );
          graphs.forEach((g, i) => {
            const [nxJaccard, maps, sets] = (answers[i] ?? []).map((a) => answerOf(a)) as [number[], Weights, number[][]];
            // The unweighted maps are networkx's neighbour sets themselves.
            expect(
              maps.map((m) =>
                Object.keys(m)
                  .map(Number)
                  .sort((a, b) => a - b),
              ),
            ).toEqual(sets);
            const graph = computeGraph(g.n, g.edges, { directed, weight: g.weight });
            // networkx's common neighbours leave out the pair's own ends, which only a self-loop puts in both sets:
            // compare with networkx's own function on the edges whose ends have no self-loop.
            const looped = new Set(g.edges.filter(([s, t]) => s === t).map(([s]) => s));
            const plain = g.edges.flatMap(([s, t], e) => (looped.has(s) || looped.has(t) ? [] : [e]));
            expect(plain.length).toBeGreaterThan(g.edges.length / 5);
            const ours = run("jaccard", graph);
            close(
              plain.map((e) => ours[e] as number),
              plain.map((e) => nxJaccard[e] as number),
            );
            close(run("jaccard", graph), expected(g.edges, maps, "jaccard", false));
            close(run("overlap", graph), expected(g.edges, maps, "overlap", false));
            close(run("overlap_coefficient", graph), expected(g.edges, maps, "overlap", false));
            close(run("sorensen", graph), expected(g.edges, maps, "sorensen", false));
            close(run("sorensen_coefficient", graph), expected(g.edges, maps, "sorensen", false));
            for (const metric of ["jaccard", "overlap", "sorensen"] as const) {
              const want = expected(g.edges, maps, metric, true);
              close(run(`${metric}_w`, graph), want);
              close(run(metric, graph, { use_weight: true }), want);
              // No bound weight: the weighted names score as the plain ones.
              close(run(`${metric}_w`, computeGraph(g.n, g.edges, { directed })), expected(g.edges, maps, metric, false));
            }
          });
        });
      }

      it("the CPU's scores straight from the CSR equal the twin's over sorted neighbour lists (zero weights, loops, parallel edges)", () => {
        for (const seed of [1, 2, 3, 4]) {
          const g = randomGraph(seed, 40 + seed * 10, 300);
          // A few zero weights: a zero-weight neighbour is still a neighbour.
          const weight = g.weight.map((w, i) => (i % 7 === 0 ? 0 : w));
          const graph = computeGraph(40 + seed * 10, g.edges, { directed: true, weight });
          for (const w of [null, Float64Array.from(weight)]) {
            const sets = neighbourSets(graph, w);
            for (const metric of [0, 1, 2]) {
              const twin = edgeSimilarity({ ...sets, src: graph.src, dst: graph.dst, metric });
              const csr = edgeSimilarityCsr({ ...graph, weight: w, metric });
              // 0 / 0 (two ends whose edges all weigh 0) is NaN on both.
              expect(Array.from(csr, Number.isNaN)).toEqual(Array.from(twin, Number.isNaN));
              const kept = Array.from(twin.keys()).filter((e) => !Number.isNaN(twin[e] as number));
              expect(kept.length).toBeGreaterThan(twin.length / 2);
              close(
                kept.map((e) => csr[e] as number),
                kept.map((e) => twin[e] as number),
              );
            }
          }
        }
      });

      it("the kernel scores a hub paired with a short list", () => {
        // Node 0 joined to 1..40 (nodes 1..40 list only 0), node 41 joined to 1, 2, 3: the pair (0, 41) shares 3.
        const hub = Array.from({ length: 40 }, (_, i) => i + 1);
        const lists = [hub, ...hub.map(() => [0]), [1, 2, 3]];
        const starts = [0];
        for (const l of lists) starts.push((starts.at(-1) as number) + l.length);
        const args = {
          start: Int32Array.from(starts),
          nbr: Int32Array.from(lists.flat()),
          wt: new Float64Array(0),
          total: Float64Array.from(lists, (l) => l.length),
          src: Int32Array.of(0, 41),
          dst: Int32Array.of(41, 0),
          metric: 0,
        };
        expect(Array.from(edgeSimilarity(args))).toEqual([3 / 40, 3 / 40]);
        expect(Array.from(edgeSimilarity({ ...args, metric: 1 }))).toEqual([1, 1]);
        expect(Array.from(edgeSimilarity({ ...args, metric: 2 }))).toEqual([6 / 43, 6 / 43]);
      });
    });
  });
}
