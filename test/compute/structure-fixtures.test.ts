// The structure family on the real fixture graphs (US flight routes, Zachary's karate club) against python-igraph
// and networkx, and which kernels each algorithm asks the context for (what the OpenCL backend can replace).
import { beforeAll, describe, expect, it } from "vitest";
import { type ComputeGraph, computeGraph } from "../../kernels/cpu/csr.ts";
import { entries } from "../../src/compute/algorithms/structure/index.ts";
import { createComputeContext } from "../../src/compute/backend.ts";
import { type ComputeContext, type ComputeOutput, cpuContext } from "../../src/compute/types.ts";
import { fixture } from "../helpers/fixtures.ts";
import { answerValue as answerOf, runReference } from "../helpers/graph-reference.ts";
import { backends } from "../kernels/backends.ts";

type Edge = readonly [number, number];
type Loaded = { n: number; edges: Edge[]; weight: number[] };

/** An edge list with node rows in order of first appearance. */
function load(lines: string[][]): Loaded {
  const rows = new Map<string, number>();
  const row = (id: string) => {
    if (!rows.has(id)) rows.set(id, rows.size);
    return rows.get(id) as number;
  };
  const edges = lines.map(([s, t]) => [row(s as string), row(t as string)] as const);
  return { n: rows.size, edges, weight: lines.map((l) => Number(l[2])) };
}

const flights = load(
  fixture("csv/flights-airport.csv")
    .toString("utf8")
    .trim()
    .split("\n")
    .slice(1)
    .map((l) => l.split(",")),
);
const karate = load(
  fixture("csv/karate.csv")
    .toString("utf8")
    .trim()
    .split("\n")
    .map((l) => l.split(" ")),
);

function run(lib: string, name: string, graph: ComputeGraph, params: Record<string, unknown> = {}, context = ctx): ComputeOutput {
  const entry = entries.find((e) => e.library === lib && e.name === name);
  if (!entry) throw new Error(`${lib} ${name} is not registered`);
  const filled: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(entry.params)) if (spec.default !== undefined) filled[key] = spec.default;
  return entry.run(graph, { ...filled, ...params }, context, name);
}

function column(out: ComputeOutput, name: string): (number | null)[] {
  if (out.kind === "graph") throw new Error("a graph answer");
  const col = out.columns.find((c) => c.name === name);
  if (!col) throw new Error(`no column ${name}`);
  return Array.from(col.values as ArrayLike<number>, (v, i) => ((col.valid && !col.valid[i]) || !Number.isFinite(v) ? null : v));
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

    describe("structure on the fixture graphs", () => {
      it("flight routes: components, cores, BFS, SSSP, spanning tree, ego graph and Jaccard equal the references'", async () => {
        const hub = flights.edges[0]?.[1] as number; // ATL
        const [directed, undirected] = await referenceOnce([
          {
            n: flights.n,
            edges: flights.edges,
            directed: true,
            edgeAttrs: { weight: flights.weight },
            calls: [
              'g.connected_components(mode="strong").membership',
              'g.connected_components(mode="weak").membership',
              'g.coreness(mode="in")',
              `g.distances(source=${hub}, mode="out")[0]`,
              `g.distances(source=${hub}, weights="weight", mode="out")[0]`,
              `sorted(k for _, _, k in nx.ego_graph(G, ${hub}, radius=1).edges(keys=True))`,
            ],
          },
          {
            n: flights.n,
            edges: flights.edges,
            directed: false,
            edgeAttrs: { weight: flights.weight },
            calls: [
              "g.coreness()",
              'sum(d["weight"] for _, _, d in nx.minimum_spanning_edges(G, keys=False, data=True))',
              "[p for _, _, p in nx.jaccard_coefficient(nx.Graph(G), [(u, v) for u, v, k in sorted(G.edges(keys=True), key=lambda e: e[2])])]",
              "g.k_core(5).vcount()",
            ],
          },
        ]);
        const [strong, weak, inCores, hops, dist, egoEdges] = (directed ?? []).map((a) => answerOf(a)) as [
          number[],
          number[],
          number[],
          (number | null)[],
          (number | null)[],
          number[],
        ];
        const g = computeGraph(flights.n, flights.edges, { directed: true, weight: flights.weight });
        expect(column(run("igraph", "clusters", g), "clusters")).toEqual(strong);
        expect(column(run("cugraph", "weakly_connected_components", g), "weakly_connected_components")).toEqual(weak);
        expect(column(run("cugraph", "core_number", g, { degree_type: "incoming" }), "core_number")).toEqual(inCores);
        expect(column(run("cugraph", "bfs", g, { start: hub }), "bfs")).toEqual(hops);
        expect(column(run("cugraph", "sssp", g, { source: hub }), "sssp")).toEqual(dist);
        const ego = run("cugraph", "ego_graph", g, { n: hub });
        expect(ego.kind === "graph" && Array.from(ego.edgeRows ?? [])).toEqual(egoEdges);

        const [cores, mstWeight, jaccard, k5] = (undirected ?? []).map((a) => answerOf(a)) as [number[], number, number[], number];
        const u = computeGraph(flights.n, flights.edges, { directed: false, weight: flights.weight });
        expect(column(run("cugraph", "core_number", u), "core_number")).toEqual(cores);
        const mst = run("cugraph", "minimum_spanning_tree", u);
        expect(mst.kind === "graph" && Array.from(mst.edgeRows ?? []).reduce((s, e) => s + (flights.weight[e] as number), 0)).toBe(
          mstWeight,
        );
        const ours = column(run("cugraph", "jaccard", u), "jaccard");
        for (const [e, x] of ours.entries()) expect(Math.abs((x as number) - (jaccard[e] as number))).toBeLessThan(1e-12);
        const core5 = run("igraph", "k_core", u, { k: 5 });
        expect(core5.kind === "graph" && core5.nodeRows?.length).toBe(k5);
      });

      it("karate club (each edge listed both ways): Gomory-Hu tree, clusters and cores equal igraph's", async () => {
        const [answers] = await referenceOnce([
          {
            n: karate.n,
            edges: karate.edges,
            directed: false,
            calls: [
              "g.gomory_hu_tree().get_edgelist()",
              'g.gomory_hu_tree().es["flow"]',
              "g.coreness()",
              "g.connected_components().membership",
            ],
          },
        ]);
        const [tree, flows, cores, membership] = (answers ?? []).map((a) => answerOf(a)) as [
          [number, number][],
          number[],
          number[],
          number[],
        ];
        const g = computeGraph(karate.n, karate.edges, { directed: false });
        const out = run("igraph", "gomory_hu_tree", g);
        if (out.kind !== "graph" || !out.newEdges) throw new Error("new edges");
        const { src, dst, columns } = out.newEdges;
        expect(Array.from(src, (s, k) => [Math.min(s, dst[k] as number), Math.max(s, dst[k] as number)])).toEqual(tree);
        expect(Array.from(columns[0]?.values as Float64Array)).toEqual(flows);
        expect(column(run("cugraph", "core_number", g), "core_number")).toEqual(cores);
        expect(column(run("igraph", "clusters", g), "clusters")).toEqual(membership);
      });

      it("every algorithm claiming the OpenCL backend asks the context for a kernel, by the kernel's name", () => {
        const g = computeGraph(karate.n, karate.edges, { directed: false, weight: karate.weight });
        const params: Record<string, Record<string, unknown>> = {
          bfs: { start: 0 },
          bfs_edges: { source: 0 },
          sssp: { source: 0 },
          shortest_path: { source: 0 },
          shortest_path_length: { source: 0 },
          ego_graph: { n: 0 },
          batched_ego_graphs: { seeds: Int32Array.of(0, 33) },
        };
        const used: Record<string, string[]> = {};
        for (const entry of entries) {
          const names: string[] = [];
          const ctx: ComputeContext = {
            ...cpuContext,
            kernel: (name, cpu) => {
              names.push(name);
              return cpu;
            },
          };
          run(entry.library, entry.name, g, params[entry.name] ?? {}, ctx);
          used[`${entry.library}/${entry.name}`] = [...new Set(names)];
          if (entry.backends.includes("opencl")) expect(names.length).toBeGreaterThan(0);
        }
        expect(used["cugraph/connected_components"]).toEqual(["components"]);
        expect(used["cugraph/core_number"]).toEqual(["core-number"]);
        expect(used["cugraph/bfs"]).toEqual(["bfs"]);
        expect(used["cugraph/sssp"]).toEqual(["sssp"]);
        expect(used["cugraph/jaccard_w"]).toEqual(["edge-similarity"]);
        expect(Object.keys(used).sort()).toEqual(
          [
            ...[
              "connected_components",
              "weakly_connected_components",
              "strongly_connected_components",
              "core_number",
              "k_core",
              "bfs",
              "bfs_edges",
              "sssp",
              "shortest_path",
              "shortest_path_length",
              "ego_graph",
              "batched_ego_graphs",
              "minimum_spanning_tree",
              "jaccard",
              "jaccard_w",
              "overlap",
              "overlap_coefficient",
              "overlap_w",
              "sorensen",
              "sorensen_coefficient",
              "sorensen_w",
            ].map((n) => `cugraph/${n}`),
            ...["clusters", "k_core", "spanning_tree", "gomory_hu_tree"].map((n) => `igraph/${n}`),
          ].sort(),
        );
      });
    });
  });
}
