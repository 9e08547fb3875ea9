// igraph's gomory_hu_tree: Gusfield's algorithm as igraph 0.10 runs it (n - 1 maximum flows, Dinic's algorithm
// here), each cut's source side being the nodes that cannot reach the target in the residual graph, as igraph's
// maxflow partition. Answers the tree as new edges (i, parent of i) with the flow column. CPU only.
import type { ComputeGraph } from "../../../../kernels/cpu/csr.ts";
import { type AlgorithmEntry, type ComputeContext, ComputeInputError } from "../../types.ts";

/** Arc-based residual network of the undirected graph: edge e gives arcs 2e (src -> dst) and 2e + 1 (back). */
type Network = { n: number; start: Int32Array; arc: Int32Array; head: Int32Array; cap: Float64Array };

function network(graph: ComputeGraph, capacity: Float64Array | null): Network {
  const { n, m, src, dst } = graph;
  const start = new Int32Array(n + 1);
  for (let e = 0; e < m; e++) {
    if (src[e] === dst[e]) continue;
    start[(src[e] as number) + 1] = (start[(src[e] as number) + 1] as number) + 1;
    start[(dst[e] as number) + 1] = (start[(dst[e] as number) + 1] as number) + 1;
  }
  for (let r = 0; r < n; r++) start[r + 1] = (start[r + 1] as number) + (start[r] as number);
  const fill = start.slice(0, n);
  const arc = new Int32Array(start[n] as number);
  const head = new Int32Array(2 * m);
  const cap = new Float64Array(2 * m);
  for (let e = 0; e < m; e++) {
    const s = src[e] as number;
    const d = dst[e] as number;
    head[2 * e] = d;
    head[2 * e + 1] = s;
    const c = capacity ? (capacity[e] as number) : 1;
    cap[2 * e] = c;
    cap[2 * e + 1] = c;
    if (s === d) continue;
    const at = fill[s] as number;
    arc[at] = 2 * e;
    fill[s] = at + 1;
    const bt = fill[d] as number;
    arc[bt] = 2 * e + 1;
    fill[d] = bt + 1;
  }
  return { n, start, arc, head, cap };
}

/** Maximum s-t flow by Dinic's algorithm; `side` gets 1 for the nodes that cannot reach t in the residual graph. */
function maxflow(net: Network, s: number, t: number, res: Float64Array, eps: number, side: Uint8Array, work: Int32Array[]): number {
  const { n, start, arc, head, cap } = net;
  res.set(cap);
  const [level, it, queue, path] = work as [Int32Array, Int32Array, Int32Array, Int32Array];
  let total = 0;
  for (;;) {
    level.fill(-1);
    level[s] = 0;
    let qh = 0;
    let qt = 0;
    queue[qt++] = s;
    while (qh < qt) {
      const v = queue[qh++] as number;
      for (let j = start[v] as number; j < (start[v + 1] as number); j++) {
        const a = arc[j] as number;
        const w = head[a] as number;
        if ((level[w] as number) < 0 && (res[a] as number) > eps) {
          level[w] = (level[v] as number) + 1;
          queue[qt++] = w;
        }
      }
    }
    if ((level[t] as number) < 0) break;
    for (let v = 0; v < n; v++) it[v] = start[v] as number;
    // Blocking flow: advance along level arcs, augment at t, retreat from dead ends.
    let depth = 0;
    let v = s;
    for (;;) {
      if (v === t) {
        let push = Number.POSITIVE_INFINITY;
        for (let i = 0; i < depth; i++) {
          const r = res[path[i] as number] as number;
          if (r < push) push = r;
        }
        let cut = -1;
        for (let i = 0; i < depth; i++) {
          const a = path[i] as number;
          res[a] = (res[a] as number) - push;
          res[a ^ 1] = (res[a ^ 1] as number) + push;
          if (cut < 0 && (res[a] as number) <= eps) cut = i;
        }
        total += push;
        depth = cut;
        v = depth === 0 ? s : (head[path[depth - 1] as number] as number);
        continue;
      }
      let found = -1;
      const end = start[v + 1] as number;
      while ((it[v] as number) < end) {
        const a = arc[it[v] as number] as number;
        const w = head[a] as number;
        if ((res[a] as number) > eps && (level[w] as number) === (level[v] as number) + 1) {
          found = a;
          break;
        }
        it[v] = (it[v] as number) + 1;
      }
      if (found >= 0) {
        path[depth++] = found;
        v = head[found] as number;
      } else {
        level[v] = -1;
        if (depth === 0) break;
        depth--;
        v = head[(path[depth] as number) ^ 1] as number;
        it[v] = (it[v] as number) + 1;
      }
    }
  }
  // Nodes that reach t: backwards from t over arcs x -> y with residual capacity.
  side.fill(1);
  side[t] = 0;
  let qh = 0;
  let qt = 0;
  queue[qt++] = t;
  while (qh < qt) {
    const y = queue[qh++] as number;
    for (let j = start[y] as number; j < (start[y + 1] as number); j++) {
      const back = (arc[j] as number) ^ 1; // the arc x -> y
      const x = head[arc[j] as number] as number;
      if (side[x] && (res[back] as number) > eps) {
        side[x] = 0;
        queue[qt++] = x;
      }
    }
  }
  return total;
}

/** The Gomory-Hu tree: parent[i] and flow[i] for i = 1 .. n - 1 (edge i - 1 joins i and parent[i]). */
export function gomoryHu(
  graph: ComputeGraph,
  capacity: Float64Array | null,
  ctx: ComputeContext,
): { parent: Int32Array; flow: Float64Array } {
  const { n } = graph;
  const net = network(graph, capacity);
  let maxCap = 1;
  for (let a = 0; a < net.cap.length; a++) if ((net.cap[a] as number) > maxCap) maxCap = net.cap[a] as number;
  const eps = maxCap * 1e-12;
  const res = new Float64Array(net.cap.length);
  const side = new Uint8Array(n);
  const work = [new Int32Array(n), new Int32Array(n), new Int32Array(n), new Int32Array(n)];
  const parent = new Int32Array(n);
  const flow = new Float64Array(n);
  for (let s = 1; s < n; s++) {
    ctx.checkCancelled();
    const t = parent[s] as number;
    const f = maxflow(net, s, t, res, eps, side, work);
    flow[s] = f;
    for (let mid = 0; mid < n; mid++) {
      if (mid === s || !side[mid]) continue;
      if (parent[mid] === t) parent[mid] = s;
      else if (parent[t] === mid) {
        parent[t] = s;
        parent[s] = mid;
        flow[s] = flow[t] as number;
        flow[t] = f;
      }
    }
    ctx.progress({ phase: "Gomory-Hu tree", iteration: s, fraction: s / (n - 1) });
  }
  return { parent, flow };
}

export const gomoryHuEntries: AlgorithmEntry[] = [
  {
    library: "igraph",
    name: "gomory_hu_tree",
    params: {
      capacity: { type: "edgeColumn", nullable: true, description: "edge capacities (a column); absent: 1 per edge" },
      flow: { type: "string", default: "flow", description: "the name of the tree's flow column" },
    },
    output: "graph",
    backends: ["cpu"],
    undirectedOnly: true,
    doc: "graph: new edges (i, its tree neighbour) for every node i > 0, with the flow column (the minimum cut between them)",
    run: (graph, params, ctx) => {
      const capacity = (params.capacity as Float64Array | null | undefined) ?? null;
      if (capacity) {
        if (capacity.length !== graph.m) throw new ComputeInputError("capacity must give one value per edge", "capacity");
        for (let e = 0; e < graph.m; e++) {
          const c = capacity[e] as number;
          if (!(c >= 0) || !Number.isFinite(c))
            throw new ComputeInputError(`capacity: edge ${e} has capacity ${c}; capacities must be finite and not negative`, "capacity");
        }
      }
      const { parent, flow } = gomoryHu(graph, capacity, ctx);
      const k = Math.max(graph.n - 1, 0);
      const src = new Int32Array(k);
      const dst = new Int32Array(k);
      const values = new Float64Array(k);
      for (let i = 1; i < graph.n; i++) {
        src[i - 1] = i;
        dst[i - 1] = parent[i] as number;
        values[i - 1] = flow[i] as number;
      }
      const name = typeof params.flow === "string" ? params.flow : "flow";
      return { kind: "graph", nodeRows: null, edgeRows: null, newEdges: { src, dst, columns: [{ name, values, type: "float64" }] } };
    },
  },
];
