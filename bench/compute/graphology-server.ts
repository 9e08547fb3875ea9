// bench/compute: graphology timing server (a child process of bench/compute.ts). One JSON request per stdin line,
// {file, directed, op, repeat, capSeconds}, one JSON answer line: {ok, seconds (the call alone, best of repeat), load_seconds (building the graphology
// graph, when this request built it), modularity (clusterings), error}.
import { createRequire } from "node:module";
import { createInterface } from "node:readline";
import { type BenchGraph, readGraph } from "./graph-file.ts";
import { modularity } from "./stats.ts";

// graphology's packages are CommonJS whose typings NodeNext resolution reads as namespaces: required, with the
// few signatures used here.
type Graph = {
  addNode(key: string): void;
  addEdgeWithKey(key: string, source: string, target: string, attributes: Record<string, number>): void;
  forEachNode(callback: (node: string) => void): void;
};
type Call = (graph: Graph, options?: Record<string, unknown>) => Record<string, number>;
const require = createRequire(import.meta.url);
const GraphClass = require("graphology") as new (options: Record<string, unknown>) => Graph;
const louvain = require("graphology-communities-louvain") as Call;
const { connectedComponents, stronglyConnectedComponents } = require("graphology-components") as Record<
  "connectedComponents" | "stronglyConnectedComponents",
  (g: Graph) => string[][]
>;
const metric = (name: string) => require(`graphology-metrics/${name}.js`) as Call;
const [betweenness, closeness, edgeBetweenness, eigenvector, hits, pagerank] = [
  "centrality/betweenness",
  "centrality/closeness",
  "centrality/edge-betweenness",
  "centrality/eigenvector",
  "centrality/hits",
  "centrality/pagerank",
].map(metric) as [Call, Call, Call, Call, Call, Call];
const eccentricity = require("graphology-metrics/node/eccentricity.js") as (graph: Graph, node: string) => number;
const { dijkstra, unweighted } = require("graphology-shortest-path") as {
  dijkstra: { singleSource(graph: Graph, source: string, weight: string): unknown };
  unweighted: { singleSourceLength(graph: Graph, source: string): unknown };
};

type Loaded = { file: string; directed: boolean; graph: Graph; tables: BenchGraph };
let loaded: Loaded | undefined;

function load(file: string, directed: boolean): { value: Loaded; seconds: number } {
  if (loaded && loaded.file === file && loaded.directed === directed) return { value: loaded, seconds: 0 };
  loaded = undefined;
  const start = performance.now();
  const tables = readGraph(file);
  const graph = new GraphClass({ type: directed ? "directed" : "undirected", multi: false, allowSelfLoops: false });
  for (let i = 0; i < tables.n; i++) graph.addNode(String(i));
  for (let e = 0; e < tables.m; e++) {
    graph.addEdgeWithKey(String(e), String(tables.src[e]), String(tables.dst[e]), { weight: tables.weight[e] as number });
  }
  loaded = { file, directed, graph, tables };
  return { value: loaded, seconds: (performance.now() - start) / 1000 };
}

/** Each op runs the graphology call and answers a membership per node row for clusterings. */
const ops: Record<string, (g: Graph, t: BenchGraph) => Int32Array | undefined> = {
  load: () => undefined,
  pagerank: (g) => void pagerank(g, { getEdgeWeight: null, alpha: 0.85 }),
  hits: (g) => void hits(g, { getEdgeWeight: null }),
  eigenvector: (g) => void eigenvector(g, { getEdgeWeight: null }),
  components: (g) => void connectedComponents(g),
  scc: (g) => void stronglyConnectedComponents(g),
  bfs: (g, t) => void unweighted.singleSourceLength(g, String(t.hub)),
  dijkstra: (g, t) => void dijkstra.singleSource(g, String(t.hub), "weight"),
  betweenness: (g) => void betweenness(g, { getEdgeWeight: null }),
  edgeBetweenness: (g) => void edgeBetweenness(g, { getEdgeWeight: null }),
  closeness: (g) => void closeness(g),
  eccentricity: (g) => {
    g.forEachNode((node) => eccentricity(g, node));
    return undefined;
  },
  louvain: (g, t) => {
    const communities = louvain(g, { getEdgeWeight: null });
    const membership = new Int32Array(t.n);
    for (let i = 0; i < t.n; i++) membership[i] = communities[String(i)] ?? -1;
    return membership;
  },
};

type Request = { file: string; directed: boolean; op: string; repeat?: number; capSeconds?: number };

function answer(request: Request): Record<string, unknown> {
  const op = ops[request.op];
  if (!op) throw new Error(`no graphology op ${request.op}`);
  const { value, seconds: loadSeconds } = load(request.file, request.directed);
  let seconds = Number.POSITIVE_INFINITY;
  let membership: Int32Array | undefined;
  let spent = 0;
  let last = 0;
  for (let r = 0; r < Math.max(1, request.repeat ?? 1) && spent + last < (request.capSeconds ?? 1e9); r++) {
    const start = performance.now();
    membership = op(value.graph, value.tables);
    last = (performance.now() - start) / 1000;
    spent += last;
    seconds = Math.min(seconds, last);
  }
  const out: Record<string, unknown> = { ok: true, seconds, load_seconds: loadSeconds };
  if (membership) out.modularity = modularity(value.tables, membership);
  return out;
}

for await (const line of createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  let reply: Record<string, unknown>;
  try {
    reply = answer(JSON.parse(line) as Request);
  } catch (error) {
    reply = { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  process.stdout.write(`${JSON.stringify(reply)}\n`);
}
