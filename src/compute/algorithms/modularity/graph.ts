// The weighted undirected graph the community algorithms optimise: symmetric CSR without self-loops, each node's
// self-loop weight apart, and the aggregation that turns a partition's communities into the nodes of the next level.
import { type ComputeGraph, undirected } from "../../../../kernels/cpu/csr.ts";
import { ComputeInputError } from "../../types.ts";

export type WGraph = {
  n: number;
  /**
   * Neighbours of v: nbr[start[v] .. start[v + 1]) with weights w (null: 1 each); every non-loop edge listed at
   * both ends. (Without self-loops and weights, these are the CSR's cached undirected view itself: no copy.)
   */
  start: Int32Array;
  nbr: Int32Array;
  /** Float64 in general; Int32 on aggregates of integer weights (their sums are exact in both: same numbers, half the bytes). */
  w: Float64Array | Int32Array | null;
  /**
   * A second list per node, read after the first (`splitUndirected`: the CSR's in-edges after its out-edges, so the
   * graph needs no undirected view): absent on every other graph. Only Louvain and Leiden take such a graph, and
   * what they call on it (localMove, aggregate, modularity, pottsQuality, refine) reads both lists.
   */
  start2?: Int32Array;
  nbr2?: Int32Array;
  w2?: Float64Array | null;
  /** Twice the weight of v's self-loops (a loop adds 2w to A_vv, as igraph counts it). */
  loop: Float64Array;
  /** Strength of v: the sum of its row of A (loops counted twice). */
  strength: Float64Array;
  /** The sum of all strengths (2m). */
  total: number;
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

/** Each list of g: the first, and the second where g has one (see WGraph.start2). */
export function lists(g: WGraph): Array<{ start: Int32Array; nbr: Int32Array; w: Float64Array | Int32Array | null }> {
  const first = { start: g.start, nbr: g.nbr, w: g.w };
  return g.start2 && g.nbr2 ? [first, { start: g.start2, nbr: g.nbr2, w: g.w2 ?? null }] : [first];
}

/** A node's degree in g (entries in both lists). */
export const entriesOf = (g: WGraph, v: number): number =>
  (g.start[v + 1] as number) - (g.start[v] as number) + (g.start2 ? (g.start2[v + 1] as number) - (g.start2[v] as number) : 0);

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
 * answers k.
 */
export function renumber(membership: Int32Array): number {
  let maxLabel = -1;
  for (let v = 0; v < membership.length; v++) if ((membership[v] as number) > maxLabel) maxLabel = membership[v] as number;
  const map = new Int32Array(maxLabel + 1).fill(-1);
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
 * Room for an aggregate graph's entries, reused level after level. Level 0 (the full graph, never in a space) is
 * aggregated into the space; every later level is aggregated from the space into the same space, in place: its
 * entries are never more than the graph's, and the communities' rows are written in order as soon as the rows still
 * to be read lie past them. A community's row that would overwrite rows not yet read waits in the side ring until
 * they are read. The weights' bytes are read as float64 or, for integer weights, as int32.
 */
export type AggregateSpace = { nbr: Int32Array; w: ArrayBuffer; ringNbr: Int32Array; ringW: ArrayBuffer };

export const aggregateSpace = (): AggregateSpace => ({
  nbr: new Int32Array(0),
  w: new ArrayBuffer(0),
  ringNbr: new Int32Array(0),
  ringW: new ArrayBuffer(0),
});

/** Past this an aggregate of integer weights keeps float64 weights (an int32 sum could overflow). */
const INT_WEIGHT_LIMIT = 2 ** 31 - 1;

/**
 * The graph whose nodes are the k communities of `membership` (0..k-1): parallel edges merged, edges inside a
 * community turned into its self-loop weight. Strengths and the total carry over. With `space`, the entries are
 * written there (grown when too small; in place when g's own entries lie there) instead of into new arrays.
 * Integer weights (none, or int32) sum to integers: the aggregate keeps them as int32 while every sum fits.
 */
export function aggregate(g: WGraph, membership: Int32Array, k: number, space?: AggregateSpace): WGraph {
  const { n } = g;
  // Members of each community (counting sort).
  const mStart = new Int32Array(k + 1);
  for (let v = 0; v < n; v++) {
    const c = (membership[v] as number) + 1;
    mStart[c] = (mStart[c] as number) + 1;
  }
  for (let c = 0; c < k; c++) mStart[c + 1] = (mStart[c + 1] as number) + (mStart[c] as number);
  const mFill = mStart.slice(0, k);
  const members = new Int32Array(n);
  for (let v = 0; v < n; v++) {
    const c = membership[v] as number;
    members[mFill[c] as number] = v;
    mFill[c] = (mFill[c] as number) + 1;
  }
  const gl = lists(g);
  const acc = new Float64Array(k);
  const seen = new Int32Array(k).fill(-1);
  const touched = new Int32Array(k);
  const start = new Int32Array(k + 1);
  // First pass: how many neighbouring communities each community has (the exact sizes: no growth, no copies).
  for (let c = 0; c < k; c++) {
    let count = 0;
    for (let i = mStart[c] as number; i < (mStart[c + 1] as number); i++) {
      const v = members[i] as number;
      for (const { start: st, nbr: nb } of gl) {
        for (let j = st[v] as number; j < (st[v + 1] as number); j++) {
          const d = membership[nb[j] as number] as number;
          if (d !== c && seen[d] !== c) {
            seen[d] = c;
            count++;
          }
        }
      }
    }
    start[c + 1] = (start[c] as number) + count;
  }
  seen.fill(-1);
  const entries = start[k] as number;
  // Every aggregate weight is at most half the total (each edge counted at both ends).
  const integral = (g.w === null || g.w instanceof Int32Array) && g.total <= INT_WEIGHT_LIMIT;
  const wBytes = entries * (integral ? 4 : 8);
  // In place: g's entries are the space's own, with weights of the type the aggregate keeps.
  const inSpace =
    space !== undefined &&
    g.nbr.buffer === space.nbr.buffer &&
    g.w !== null &&
    g.w.buffer === space.w &&
    g.w instanceof Int32Array === integral;
  // The most output that waits in the side ring at once: the write loop's rule below, run ahead on the counts.
  let maxWaiting = 0;
  if (inSpace) {
    let hh = 0;
    for (let c = 0; c < k; c++) {
      const limit = c + 1 < k ? (g.start[members[mStart[c + 1] as number] as number] as number) : entries;
      if (hh === c && (start[c + 1] as number) <= limit) {
        hh = c + 1;
        continue;
      }
      const waiting = (start[c + 1] as number) - (start[hh] as number);
      if (waiting > maxWaiting) maxWaiting = waiting;
      while (hh <= c && (start[hh + 1] as number) <= limit) hh++;
    }
  }
  // In place only where the ring takes less than new arrays would (communities of scattered members can hold back
  // nearly every row).
  const inPlace = inSpace && maxWaiting < entries;
  let nbr: Int32Array;
  let w: Float64Array | Int32Array;
  if (space) {
    if (inSpace && !inPlace) {
      // New arrays for the space (g's own stay with g until it is dropped).
      space.nbr = new Int32Array(entries);
      space.w = new ArrayBuffer(wBytes);
    }
    if (space.nbr.length < entries) space.nbr = new Int32Array(entries);
    if (space.w.byteLength < wBytes) space.w = new ArrayBuffer(wBytes);
    nbr = space.nbr.subarray(0, entries);
    w = integral ? new Int32Array(space.w, 0, entries) : new Float64Array(space.w, 0, entries);
  } else {
    nbr = new Int32Array(entries);
    w = integral ? new Int32Array(entries) : new Float64Array(entries);
  }
  // The side ring (in place only): output position p waits at p % ringCap; never more than maxWaiting at once.
  let ringNbr: Int32Array = new Int32Array(0);
  let ringW: Float64Array | Int32Array = new Int32Array(0);
  if (space && inPlace) {
    const bytes = integral ? 4 : 8;
    if (space.ringNbr.length < maxWaiting) space.ringNbr = new Int32Array(maxWaiting);
    if (space.ringW.byteLength < maxWaiting * bytes) space.ringW = new ArrayBuffer(maxWaiting * bytes);
    ringNbr = space.ringNbr;
    const length = Math.floor(space.ringW.byteLength / bytes);
    ringW = integral ? new Int32Array(space.ringW, 0, length) : new Float64Array(space.ringW, 0, length);
  }
  const ringCap = Math.min(ringNbr.length, ringW.length);
  let h = 0;
  const loop = new Float64Array(k);
  const strength = new Float64Array(k);
  let out = 0;
  for (let c = 0; c < k; c++) {
    let nt = 0;
    let self = 0;
    let str = 0;
    for (let i = mStart[c] as number; i < (mStart[c + 1] as number); i++) {
      const v = members[i] as number;
      self += g.loop[v] as number;
      str += g.strength[v] as number;
      for (const { start: st, nbr: nb, w: gw } of gl) {
        for (let j = st[v] as number; j < (st[v + 1] as number); j++) {
          const d = membership[nb[j] as number] as number;
          if (d === c) {
            self += gw === null ? 1 : (gw[j] as number);
            continue;
          }
          if (seen[d] !== c) {
            seen[d] = c;
            acc[d] = 0;
            touched[nt++] = d;
          }
          acc[d] = (acc[d] as number) + (gw === null ? 1 : (gw[j] as number));
        }
      }
    }
    loop[c] = self;
    strength[c] = str;
    if (!inPlace) {
      for (let t = 0; t < nt; t++) {
        const d = touched[t] as number;
        nbr[out] = d;
        w[out] = acc[d] as number;
        out++;
      }
      continue;
    }
    // Rows not read yet start at the next community's first member (first members ascend with the labels).
    const limit = c + 1 < k ? (g.start[members[mStart[c + 1] as number] as number] as number) : entries;
    if (h === c && (start[c + 1] as number) <= limit) {
      for (let t = 0; t < nt; t++) {
        const d = touched[t] as number;
        nbr[out] = d;
        w[out] = acc[d] as number;
        out++;
      }
      h = c + 1;
      continue;
    }
    for (let t = 0; t < nt; t++) {
      const d = touched[t] as number;
      ringNbr[out % ringCap] = d;
      ringW[out % ringCap] = acc[d] as number;
      out++;
    }
    // Waiting rows that now lie before every unread row go to their place.
    while (h <= c && (start[h + 1] as number) <= limit) {
      for (let p = start[h] as number; p < (start[h + 1] as number); p++) {
        nbr[p] = ringNbr[p % ringCap] as number;
        w[p] = ringW[p % ringCap] as number;
      }
      h++;
    }
  }
  return { n: k, start, nbr, w, loop, strength, total: g.total };
}

/** Newman's modularity of a membership on g, with igraph's resolution (Q = Σ_c e_c/2m - γ (K_c/2m)²). */
export function modularity(g: WGraph, membership: Int32Array, resolution = 1): number {
  if (g.total === 0) return Number.NaN;
  let k = 0;
  for (let v = 0; v < g.n; v++) if ((membership[v] as number) + 1 > k) k = (membership[v] as number) + 1;
  const gl = lists(g);
  const inside = new Float64Array(k);
  const tot = new Float64Array(k);
  for (let v = 0; v < g.n; v++) {
    const c = membership[v] as number;
    tot[c] = (tot[c] as number) + (g.strength[v] as number);
    let s = g.loop[v] as number;
    for (const { start: st, nbr: nb, w: gw } of gl)
      for (let j = st[v] as number; j < (st[v + 1] as number); j++)
        if (membership[nb[j] as number] === c) s += gw === null ? 1 : (gw[j] as number);
    inside[c] = (inside[c] as number) + s;
  }
  let q = 0;
  for (let c = 0; c < k; c++) {
    const x = (tot[c] as number) / g.total;
    q += (inside[c] as number) / g.total - resolution * x * x;
  }
  return q;
}
