// The graph every kernel and algorithm reads: compressed sparse rows both ways over node rows, built once per
// dataset version (from the GFQL adjacency index's endpoint rows) and kept. Edge e runs src[e] -> dst[e]. Its arrays
// (and the undirected view's) live in shared memory: kernel pools read them without a copy.
import { sharedInt32 } from "./shared-arrays.ts";

export type Csr = {
  /** Nodes (rows of the node table) and edges (rows of the edge table). */
  n: number;
  m: number;
  /** Node row of each edge's source and destination. */
  src: Int32Array;
  dst: Int32Array;
  /** Edges leaving node r: outEdges[outStart[r] .. outStart[r + 1]), in edge order; outDst[j] = dst[outEdges[j]]. */
  outStart: Int32Array;
  outEdges: Int32Array;
  outDst: Int32Array;
  /** Edges arriving at node r, likewise; inSrc[j] = src[inEdges[j]]. */
  inStart: Int32Array;
  inEdges: Int32Array;
  inSrc: Int32Array;
};

/** What an algorithm runs on: the CSR, how the graph is read, and the bound edge weight (cuGraph weighs by it). */
export type ComputeGraph = Csr & {
  /** pygraphistry's `directed`: false reads every edge both ways. */
  directed: boolean;
  /** The bound `edge_weight` column per edge, null when none is bound (or a value is null: then 1). */
  weight: Float64Array | null;
};

/** Undirected adjacency: every edge listed at both ends (a self-loop twice at its node), with its edge row. */
export type Undirected = { start: Int32Array; nbr: Int32Array; edge: Int32Array };

/** Edges grouped by the node row in `rows` (a counting sort that keeps edge order within a node). */
function group(rows: Int32Array, n: number): { start: Int32Array; edges: Int32Array } {
  const start = sharedInt32(n + 1);
  for (let i = 0; i < rows.length; i++) {
    const at = (rows[i] as number) + 1;
    start[at] = (start[at] as number) + 1;
  }
  for (let r = 0; r < n; r++) start[r + 1] = (start[r + 1] as number) + (start[r] as number);
  const next = start.slice(0, n);
  const edges = sharedInt32(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i] as number;
    edges[next[r] as number] = i;
    next[r] = (next[r] as number) + 1;
  }
  return { start, edges };
}

function gather(edges: Int32Array, ends: Int32Array): Int32Array {
  const out = sharedInt32(edges.length);
  for (let j = 0; j < edges.length; j++) out[j] = ends[edges[j] as number] as number;
  return out;
}

/** The CSR of n nodes and the edges src[e] -> dst[e] (node rows, each in [0, n)). */
export function buildCsr(n: number, src: Int32Array, dst: Int32Array): Csr {
  if (src.length !== dst.length) throw new Error("src and dst differ in length");
  for (let e = 0; e < src.length; e++) {
    const s = src[e] as number;
    const d = dst[e] as number;
    if (s < 0 || s >= n || d < 0 || d >= n) throw new Error(`edge ${e} names a node row outside [0, ${n})`);
  }
  const out = group(src, n);
  const into = group(dst, n);
  return {
    n,
    m: src.length,
    src,
    dst,
    outStart: out.start,
    outEdges: out.edges,
    outDst: gather(out.edges, dst),
    inStart: into.start,
    inEdges: into.edges,
    inSrc: gather(into.edges, src),
  };
}

/** A ComputeGraph from plain arrays, as tests and benchmarks make them. */
export function computeGraph(
  n: number,
  edges: ArrayLike<readonly [number, number]> | { src: Int32Array; dst: Int32Array },
  options: { directed?: boolean; weight?: ArrayLike<number> | null } = {},
): ComputeGraph {
  let src: Int32Array;
  let dst: Int32Array;
  if ("src" in edges) {
    src = edges.src;
    dst = edges.dst;
  } else {
    src = new Int32Array(edges.length);
    dst = new Int32Array(edges.length);
    for (let e = 0; e < edges.length; e++) {
      const pair = edges[e] as readonly [number, number];
      src[e] = pair[0];
      dst[e] = pair[1];
    }
  }
  const weight = options.weight ? Float64Array.from(options.weight) : null;
  return { ...buildCsr(n, src, dst), directed: options.directed ?? true, weight };
}

const undirectedCache = new WeakMap<Csr, Undirected>();

/**
 * Each node's neighbours with the graph read undirected: its out-edges, then its in-edges (cached per CSR).
 * `edge` (the edge row of each entry) is built on first read and kept: algorithms that only walk neighbours
 * (traversals, cores, unweighted modularity) never pay for it, so the kept view is then half its size.
 */
export function undirected(csr: Csr): Undirected {
  const hit = undirectedCache.get(csr);
  if (hit) return hit;
  const { n } = csr;
  const start = sharedInt32(n + 1);
  for (let r = 0; r < n; r++) {
    start[r + 1] =
      (start[r] as number) +
      ((csr.outStart[r + 1] as number) - (csr.outStart[r] as number)) +
      ((csr.inStart[r + 1] as number) - (csr.inStart[r] as number));
  }
  const nbr = sharedInt32(start[n] as number);
  for (let r = 0; r < n; r++) {
    let k = start[r] as number;
    for (let j = csr.outStart[r] as number; j < (csr.outStart[r + 1] as number); j++, k++) nbr[k] = csr.outDst[j] as number;
    for (let j = csr.inStart[r] as number; j < (csr.inStart[r + 1] as number); j++, k++) nbr[k] = csr.inSrc[j] as number;
  }
  const value = { start, nbr } as Undirected;
  // On first read the accessor replaces itself by a plain data property (loops reading view.edge[j] then pay nothing).
  Object.defineProperty(value, "edge", {
    configurable: true,
    enumerable: true,
    get(): Int32Array {
      const edge = undirectedEdges(csr, start);
      Object.defineProperty(value, "edge", { value: edge, enumerable: true, writable: false, configurable: false });
      return edge;
    },
  });
  undirectedCache.set(csr, value);
  return value;
}

/** The edge row of each entry of the undirected view, in the view's order. */
function undirectedEdges(csr: Csr, start: Int32Array): Int32Array {
  const { n } = csr;
  const edge = sharedInt32(start[n] as number);
  for (let r = 0; r < n; r++) {
    let k = start[r] as number;
    for (let j = csr.outStart[r] as number; j < (csr.outStart[r + 1] as number); j++, k++) edge[k] = csr.outEdges[j] as number;
    for (let j = csr.inStart[r] as number; j < (csr.inStart[r + 1] as number); j++, k++) edge[k] = csr.inEdges[j] as number;
  }
  return edge;
}
