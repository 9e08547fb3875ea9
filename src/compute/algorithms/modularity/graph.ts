// The weighted undirected graph the community algorithms optimise: symmetric CSR without self-loops, each node's
// self-loop weight apart, and the aggregation that turns a partition's communities into the nodes of the next level.
import { type ComputeGraph, undirected } from "../../../../kernels/cpu/csr.ts";
import { ComputeInputError } from "../../types.ts";

/** Per-entry weights (see WGraph.w), or codes into WGraph.table. */
export type Weights = Float64Array | Int32Array | Float32Array | Uint8Array | Uint16Array;

export type WGraph = {
  n: number;
  /**
   * Neighbours of v: nbr[start[v] .. start[v + 1]) with weights w (null: 1 each); every non-loop edge listed at
   * both ends. (Without self-loops and weights, these are the CSR's cached undirected view itself: no copy.)
   */
  start: Int32Array;
  nbr: Int32Array;
  /**
   * Float64 in general; Int32 on aggregates of integer weights (their sums are exact in both: same numbers, half the
   * bytes); Float32 for ECG's co-membership weights (cuGraph's own weights are float32).
   */
  w: Weights | null;
  /**
   * A second list per node, read after the first (`splitUndirected`: the CSR's in-edges after its out-edges, so the
   * graph needs no undirected view): absent on every other graph. Only Louvain and Leiden take such a graph, and
   * what they call on it (localMove, aggregate, modularity, pottsQuality, refine) reads both lists.
   */
  start2?: Int32Array;
  nbr2?: Int32Array;
  w2?: Weights | null;
  /**
   * Coded weights: entry j weighs table[w[j]] (table[w2[j]] in the second list). ECG's reweighted graph, whose
   * weights take one of ensemble size + 1 values: its votes are the codes, a byte per entry instead of a float32.
   * Louvain (localMove, modularity, aggregate) reads them; the levels it writes have plain weights.
   */
  table?: Float64Array;
  /**
   * A grouped graph: a coarse level kept without entries of its own (see Groups). Its lists above are the base
   * graph's, read through `groups`.
   */
  groups?: Groups;
  /** Twice the weight of v's self-loops (a loop adds 2w to A_vv, as igraph counts it). */
  loop: Float64Array;
  /** Strength of v: the sum of its row of A (loops counted twice). */
  strength: Float64Array;
  /** The sum of all strengths (2m). */
  total: number;
};

/**
 * The nodes of a grouped graph are groups of its base graph's nodes: group v is members[mStart[v] .. mStart[v + 1])
 * (ascending), and a base neighbour x is group of[x]; entries between two members of one group are left out (they
 * are in loop[v]). Aggregation keeps a level grouped where writing it would keep most of the base's entries (Leiden's
 * refined levels keep 70-90% of them): the level then costs two int32 per base node instead of two numbers per
 * entry, and reading it costs the base's entries instead of the level's.
 */
export type Groups = {
  /** The graph whose nodes are grouped (never itself grouped). */
  base: WGraph;
  of: Int32Array;
  mStart: Int32Array;
  members: Int32Array;
  /** Neighbouring groups of each group, as prefix sums (k + 1): what the written level's start would be. */
  degrees: Int32Array;
};

/** Checks per-edge weights for a modularity algorithm: finite and not negative. */
export function checkWeights(weights: Float64Array | null, m: number, field: string): void {
  if (!weights) return;
  if (weights.length !== m) throw new ComputeInputError(`${field} must give one value per edge`, field);
  for (let e = 0; e < m; e++) {
    const x = weights[e] as number;
    if (!(x >= 0) || !Number.isFinite(x)) throw new ComputeInputError(`${field} must be finite and not negative (edge ${e}: ${x})`, field);
  }
}

/** The graph read undirected, weighted by `weights` (null = 1 per edge); parallel edges stay separate entries. */
export function weightedUndirected(graph: ComputeGraph, weights: Float64Array | null): WGraph {
  const { n, m, src, dst } = graph;
  let loops = false;
  for (let e = 0; e < m && !loops; e++) if (src[e] === dst[e]) loops = true;
  if (!loops) {
    // The shared undirected view already lists every edge at both ends: only the weights are gathered.
    const view = undirected(graph);
    const strength = new Float64Array(n);
    let w: Float64Array | null = null;
    if (weights) {
      w = new Float64Array(view.nbr.length);
      for (let j = 0; j < w.length; j++) w[j] = weights[view.edge[j] as number] as number;
    }
    let total = 0;
    for (let v = 0; v < n; v++) {
      let s = 0;
      if (w) for (let j = view.start[v] as number; j < (view.start[v + 1] as number); j++) s += w[j] as number;
      else s = (view.start[v + 1] as number) - (view.start[v] as number);
      strength[v] = s;
      total += s;
    }
    return { n, start: view.start, nbr: view.nbr, w, loop: new Float64Array(n), strength, total };
  }
  const start = new Int32Array(n + 1);
  for (let e = 0; e < m; e++) {
    const s = src[e] as number;
    const d = dst[e] as number;
    if (s !== d) {
      start[s + 1] = (start[s + 1] as number) + 1;
      start[d + 1] = (start[d + 1] as number) + 1;
    }
  }
  for (let v = 0; v < n; v++) start[v + 1] = (start[v + 1] as number) + (start[v] as number);
  const fill = start.slice(0, n);
  const nbr = new Int32Array(start[n] as number);
  // Unweighted: no weight array (1 each), as on the view.
  const w = weights ? new Float64Array(start[n] as number) : null;
  for (let e = 0; e < m; e++) {
    const s = src[e] as number;
    const d = dst[e] as number;
    if (s === d) continue;
    const x = weights ? (weights[e] as number) : 1;
    let k = fill[s] as number;
    nbr[k] = d;
    if (w) w[k] = x;
    fill[s] = k + 1;
    k = fill[d] as number;
    nbr[k] = s;
    if (w) w[k] = x;
    fill[d] = k + 1;
  }
  return { n, start, nbr, w, ...loopsAndStrengths(graph, weights) };
}

/**
 * As weightedUndirected, read straight from the CSR without an undirected view: each node's out-edges, then (the
 * second list) its in-edges; the same neighbours in the same order as the view lists them, so every result is the
 * same. With self-loops, weightedUndirected's graph (its own arrays, no view either). Saves the view's entries (an
 * int32 per edge end) where the view is not already kept.
 */
export function splitUndirected(graph: ComputeGraph, weights: Float64Array | null): WGraph {
  const { n, m, src, dst } = graph;
  for (let e = 0; e < m; e++) if (src[e] === dst[e]) return weightedUndirected(graph, weights);
  const gather = (edges: Int32Array) => {
    if (!weights) return null;
    const out = new Float64Array(edges.length);
    for (let j = 0; j < edges.length; j++) out[j] = weights[edges[j] as number] as number;
    return out;
  };
  return {
    n,
    start: graph.outStart,
    nbr: graph.outDst,
    w: gather(graph.outEdges),
    start2: graph.inStart,
    nbr2: graph.inSrc,
    w2: gather(graph.inEdges),
    ...loopsAndStrengths(graph, weights),
  };
}

/** A list of g's: its rows, weights (null: 1 each) and their code table (null: w holds the weights themselves). */
export type List = { start: Int32Array; nbr: Int32Array; w: Weights | null; table: Float64Array | null };

/** Each list of g: the first, and the second where g has one (see WGraph.start2). */
export function lists(g: WGraph): List[] {
  const table = g.table ?? null;
  const first = { start: g.start, nbr: g.nbr, w: g.w, table };
  return g.start2 && g.nbr2 ? [first, { start: g.start2, nbr: g.nbr2, w: g.w2 ?? null, table }] : [first];
}

/** A node's degree in g (entries in both lists; a group's neighbouring groups). */
export const entriesOf = (g: WGraph, v: number): number =>
  g.groups
    ? (g.groups.degrees[v + 1] as number) - (g.groups.degrees[v] as number)
    : (g.start[v + 1] as number) - (g.start[v] as number) + (g.start2 ? (g.start2[v + 1] as number) - (g.start2[v] as number) : 0);

/** Entries in g's lists: the base's for a grouped graph. */
export const entryCount = (g: WGraph): number =>
  (g.start[g.start.length - 1] as number) + (g.start2 ? (g.start2[g.start2.length - 1] as number) : 0);

/**
 * A grouped graph's groups as locals for a loop over its nodes' entries (nulls on any other graph, whose node v is
 * its own only member): node v reads the lists of members[i] for i in mStart[v] .. mStart[v + 1], maps each
 * neighbour x to of[x], and skips x === v.
 */
export function groupsOf(g: WGraph): { of: Int32Array | null; mStart: Int32Array | null; members: Int32Array | null } {
  const gm = g.groups;
  return gm ? { of: gm.of, mStart: gm.mStart, members: gm.members } : { of: null, mStart: null, members: null };
}

/**
 * Each node's self-loop term (twice the weight of its loops, as igraph counts A_vv) and strength (its row of A, loops
 * counted twice), and their total (2m), weighted by `weights` (null = 1 per edge).
 */
export function loopsAndStrengths(
  graph: Pick<ComputeGraph, "n" | "m" | "src" | "dst">,
  weights: Float64Array | null,
): Pick<WGraph, "loop" | "strength" | "total"> {
  const { n, m, src, dst } = graph;
  const loop = new Float64Array(n);
  const strength = new Float64Array(n);
  let total = 0;
  for (let e = 0; e < m; e++) {
    const s = src[e] as number;
    const d = dst[e] as number;
    const x = weights ? (weights[e] as number) : 1;
    total += 2 * x;
    if (s === d) {
      loop[s] = (loop[s] as number) + 2 * x;
      strength[s] = (strength[s] as number) + 2 * x;
    } else {
      strength[s] = (strength[s] as number) + x;
      strength[d] = (strength[d] as number) + x;
    }
  }
  return { loop, strength, total };
}

/**
 * Renumbers a membership to 0..k-1 in order of first appearance (as igraph numbers its clusterings), in place;
 * answers k. `scratch` (overwritten) saves the label map's allocation.
 */
export function renumber(membership: Int32Array, scratch?: Int32Array): number {
  let maxLabel = -1;
  for (let v = 0; v < membership.length; v++) if ((membership[v] as number) > maxLabel) maxLabel = membership[v] as number;
  // A caller's scratch array where it is long enough (a new one per call is garbage the size of the labels).
  const map = scratch && scratch.length > maxLabel ? scratch.subarray(0, maxLabel + 1).fill(-1) : new Int32Array(maxLabel + 1).fill(-1);
  let k = 0;
  for (let v = 0; v < membership.length; v++) {
    const c = membership[v] as number;
    let to = map[c] as number;
    if (to < 0) {
      to = k++;
      map[c] = to;
    }
    membership[v] = to;
  }
  return k;
}

/**
 * Newman's modularity of a membership on g, with igraph's resolution (Q = Σ_c e_c/2m - γ (K_c/2m)²). `scratch`: two
 * arrays of at least as many numbers as communities to sum into (a caller's, overwritten), instead of new ones.
 */
export function modularity(g: WGraph, membership: Int32Array, resolution = 1, scratch?: { acc: Float64Array; tot: Float64Array }): number {
  if (g.total === 0) return Number.NaN;
  let k = 0;
  for (let v = 0; v < g.n; v++) if ((membership[v] as number) + 1 > k) k = (membership[v] as number) + 1;
  const gl = lists(g);
  const { of, mStart, members } = groupsOf(g);
  const reuse = scratch !== undefined && scratch.acc.length >= k && scratch.tot.length >= k;
  const inside = reuse ? scratch.acc.subarray(0, k).fill(0) : new Float64Array(k);
  const tot = reuse ? scratch.tot.subarray(0, k).fill(0) : new Float64Array(k);
  for (let v = 0; v < g.n; v++) {
    const c = membership[v] as number;
    tot[c] = (tot[c] as number) + (g.strength[v] as number);
    let s = g.loop[v] as number;
    const i1 = mStart === null ? v + 1 : (mStart[v + 1] as number);
    for (let i = mStart === null ? v : (mStart[v] as number); i < i1; i++) {
      const u = members === null ? i : (members[i] as number);
      for (let l = 0; l < gl.length; l++) {
        const { start: st, nbr: nb, w: gw, table: tb } = gl[l] as List;
        for (let j = st[u] as number; j < (st[u + 1] as number); j++) {
          let x = nb[j] as number;
          if (of !== null) {
            x = of[x] as number;
            if (x === v) continue;
          }
          if (membership[x] === c) s += gw === null ? 1 : tb === null ? (gw[j] as number) : (tb[gw[j] as number] as number);
        }
      }
    }
    inside[c] = (inside[c] as number) + s;
  }
  let q = 0;
  for (let c = 0; c < k; c++) {
    const x = (tot[c] as number) / g.total;
    q += (inside[c] as number) / g.total - resolution * x * x;
  }
  return q;
}
