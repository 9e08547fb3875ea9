// The aggregation of Louvain and Leiden: the graph whose nodes are a partition's communities, written into a space
// reused level after level, or kept grouped over the base graph where writing it would keep most of its entries.
import { type List, lists, type WGraph } from "./graph.ts";

/**
 * Above this share of the base graph's entries, an aggregate level stays grouped (see Groups in graph.ts) instead of
 * being written: a written level costs up to this share of the base's entry bytes beside it, a grouped one reads
 * all the base's entries where the written one would read this share of them.
 */
export const GROUP_ABOVE_SHARE = 0.1;

/**
 * Room for an aggregate graph's entries, reused level after level. Level 0 (the full graph, never in a space) is
 * aggregated into the space; every later level is aggregated from the space into the same space, in place: its
 * entries are never more than the graph's, and the communities' rows are written in order as soon as the rows still
 * to be read lie past them. A community's row that would overwrite rows not yet read waits in the side ring until
 * they are read. The weights' bytes are read as float64 or, for integer weights, as int32.
 */
export type AggregateSpace = {
  nbr: Int32Array;
  w: ArrayBuffer;
  ringNbr: Int32Array;
  ringW: ArrayBuffer;
  /**
   * The aggregation's own working arrays, grown as needed and reused by every level (at millions of edges, new
   * ones per level and run are tens of MB of garbage before the collector runs). A grouped level's arrays are
   * views of them: they are dead once that level is aggregated (its aggregate reads only its `of` and its base),
   * while a written level gets arrays of its own.
   */
  mStart: Int32Array;
  members: Int32Array;
  seen: Int32Array;
  touched: Int32Array;
  start: Int32Array;
  acc: Float64Array;
  loop: Float64Array;
  strength: Float64Array;
};

export const aggregateSpace = (): AggregateSpace => ({
  nbr: new Int32Array(0),
  w: new ArrayBuffer(0),
  ringNbr: new Int32Array(0),
  ringW: new ArrayBuffer(0),
  mStart: new Int32Array(0),
  members: new Int32Array(0),
  seen: new Int32Array(0),
  touched: new Int32Array(0),
  start: new Int32Array(0),
  acc: new Float64Array(0),
  loop: new Float64Array(0),
  strength: new Float64Array(0),
});

/** The first `length` slots of a space's working int32 array, grown (not copied) when too short. */
function ints(space: AggregateSpace | undefined, key: "mStart" | "members" | "seen" | "touched" | "start", length: number): Int32Array {
  if (!space) return new Int32Array(length);
  if (space[key].length < length) space[key] = new Int32Array(length);
  return space[key].subarray(0, length);
}

/** The same for a float64 array (its old values left: the caller writes every slot). */
function floats(space: AggregateSpace | undefined, key: "loop" | "strength", length: number): Float64Array {
  if (!space) return new Float64Array(length);
  if (space[key].length < length) space[key] = new Float64Array(length);
  return space[key].subarray(0, length);
}

/** Past this an aggregate of integer weights keeps float64 weights (an int32 sum could overflow). */
const INT_WEIGHT_LIMIT = 2 ** 31 - 1;

/**
 * The graph whose nodes are the k communities of `membership` (0..k-1): parallel edges merged, edges inside a
 * community turned into its self-loop weight. Strengths and the total carry over. With `space`, the entries are
 * written there (grown when too small; in place when g's own entries lie there) instead of into new arrays.
 * Integer weights (none, or int32) sum to integers: the aggregate keeps them as int32 while every sum fits.
 * Where it would have more than `groupAbove` entries, the aggregate of a graph that is not written in a space is
 * answered grouped over it, and takes `membership` as its groups' `of` (the caller leaves it as it is). A grouped
 * graph's aggregate is its base's by the composed membership.
 */
export function aggregate(
  g: WGraph,
  membership: Int32Array,
  k: number,
  space?: AggregateSpace,
  groupAbove = Number.POSITIVE_INFINITY,
): WGraph {
  if (g.groups) {
    // Composed in place: g's groups are read no more (the aggregate of g is its base's by the composed membership).
    const { base, of } = g.groups;
    for (let x = 0; x < base.n; x++) of[x] = membership[of[x] as number] as number;
    return aggregate(base, of, k, space, groupAbove);
  }
  const { n } = g;
  // Members of each community (counting sort).
  const mStart = ints(space, "mStart", k + 1).fill(0);
  for (let v = 0; v < n; v++) {
    const c = (membership[v] as number) + 1;
    mStart[c] = (mStart[c] as number) + 1;
  }
  for (let c = 0; c < k; c++) mStart[c + 1] = (mStart[c + 1] as number) + (mStart[c] as number);
  const mFill = ints(space, "touched", k);
  mFill.set(mStart.subarray(0, k));
  const members = ints(space, "members", n);
  for (let v = 0; v < n; v++) {
    const c = membership[v] as number;
    members[mFill[c] as number] = v;
    mFill[c] = (mFill[c] as number) + 1;
  }
  const gl = lists(g);
  const seen = ints(space, "seen", k).fill(-1);
  const counts = ints(space, "start", k + 1);
  counts[0] = 0;
  const loops = floats(space, "loop", k);
  const strengths = floats(space, "strength", k);
  // First pass: how many neighbouring communities each community has (the exact sizes: no growth, no copies), its
  // self-loop term (its members' own and the entries between them) and its strength.
  for (let c = 0; c < k; c++) {
    let count = 0;
    let self = 0;
    let str = 0;
    for (let i = mStart[c] as number; i < (mStart[c + 1] as number); i++) {
      const v = members[i] as number;
      self += g.loop[v] as number;
      str += g.strength[v] as number;
      for (let l = 0; l < gl.length; l++) {
        const { start: st, nbr: nb, w: gw, table: tb } = gl[l] as List;
        for (let j = st[v] as number; j < (st[v + 1] as number); j++) {
          const d = membership[nb[j] as number] as number;
          if (d === c) self += gw === null ? 1 : tb === null ? (gw[j] as number) : (tb[gw[j] as number] as number);
          else if (seen[d] !== c) {
            seen[d] = c;
            count++;
          }
        }
      }
    }
    counts[c + 1] = (counts[c] as number) + count;
    loops[c] = self;
    strengths[c] = str;
  }
  const entries = counts[k] as number;
  const written = space !== undefined && g.nbr.buffer === space.nbr.buffer;
  if (entries > groupAbove && !written) {
    const groups = { base: g, of: membership, mStart, members, degrees: counts };
    const { start2, nbr2, w2, table } = g;
    return {
      n: k,
      start: g.start,
      nbr: g.nbr,
      w: g.w,
      start2,
      nbr2,
      w2,
      ...(table ? { table } : {}),
      groups,
      loop: loops,
      strength: strengths,
      total: g.total,
    };
  }
  // A written level's own arrays (the space's are the next aggregation's).
  const start = counts.slice();
  const loop = loops.slice();
  const strength = strengths.slice();
  seen.fill(-1);
  if (space && space.acc.length < k) space.acc = new Float64Array(k);
  const acc = space ? space.acc.subarray(0, k) : new Float64Array(k);
  const touched = ints(space, "touched", k);
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
  let out = 0;
  for (let c = 0; c < k; c++) {
    let nt = 0;
    for (let i = mStart[c] as number; i < (mStart[c + 1] as number); i++) {
      const v = members[i] as number;
      for (let l = 0; l < gl.length; l++) {
        const { start: st, nbr: nb, w: gw, table: tb } = gl[l] as List;
        for (let j = st[v] as number; j < (st[v + 1] as number); j++) {
          const d = membership[nb[j] as number] as number;
          if (d === c) continue;
          if (seen[d] !== c) {
            seen[d] = c;
            acc[d] = 0;
            touched[nt++] = d;
          }
          acc[d] = (acc[d] as number) + (gw === null ? 1 : tb === null ? (gw[j] as number) : (tb[gw[j] as number] as number));
        }
      }
    }
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
