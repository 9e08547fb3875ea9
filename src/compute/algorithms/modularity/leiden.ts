// Leiden (Traag, Waltman & van Eck 2019): fast local moving, refinement into well-connected sub-communities, and
// aggregation by the refinement, over the Potts quality Σ_c [W_in(c) - γ N_c² / 2] (CPM or modularity by node weights).
import type { ComputeContext } from "../../types.ts";
import { type AggregateSpace, aggregate, aggregateSpace, GROUP_ABOVE_SHARE } from "./aggregate.ts";
import { entryCount, groupsOf, type List, lists, renumber, type Weights, type WGraph } from "./graph.ts";
import { localMove, ROUND_THRESHOLD, type Scratch, scratch } from "./local-move.ts";
import { type Rng, rng, shuffled } from "./rng.ts";

export type LeidenOptions = {
  /** γ as it multiplies node weight products (modularity: resolution / 2m). */
  gamma: number;
  /** Node weights (modularity: strengths; CPM: 1 each unless given). */
  nodeWeight: Float64Array;
  /** Randomness of the refinement: a merge is chosen with probability ∝ exp(gain / beta). */
  beta: number;
  /** Runs of the whole algorithm (each starts from the last answer); negative: until one changes nothing. */
  iterations: number;
  /** Levels at most per run. */
  maxLevels: number;
  initial: Int32Array | null;
  seed: number;
};

/**
 * The Potts quality Σ_c [W_in(c) - γ N_c² / 2] of a membership (W_in counts each edge inside c once). `scratch`: an
 * array of at least as many numbers as communities to sum into (a caller's, overwritten), instead of a new one.
 */
export function pottsQuality(g: WGraph, membership: Int32Array, nodeWeight: Float64Array, gamma: number, scratch?: Float64Array): number {
  let k = 0;
  for (let v = 0; v < g.n; v++) if ((membership[v] as number) + 1 > k) k = (membership[v] as number) + 1;
  const tot = scratch && scratch.length >= k ? scratch.subarray(0, k).fill(0) : new Float64Array(k);
  let inside = 0;
  const gl = lists(g);
  const { of, mStart, members } = groupsOf(g);
  for (let v = 0; v < g.n; v++) {
    const c = membership[v] as number;
    tot[c] = (tot[c] as number) + (nodeWeight[v] as number);
    inside += (g.loop[v] as number) / 2;
    const i1 = mStart === null ? v + 1 : (mStart[v + 1] as number);
    for (let i = mStart === null ? v : (mStart[v] as number); i < i1; i++) {
      const u = members === null ? i : (members[i] as number);
      for (let l = 0; l < gl.length; l++) {
        const { start, nbr, w } = gl[l] as List;
        for (let j = start[u] as number; j < (start[u + 1] as number); j++) {
          let x = nbr[j] as number;
          if (of !== null) {
            x = of[x] as number;
            if (x === v) continue;
          }
          if (membership[x] === c) inside += (w === null ? 1 : (w[j] as number)) / 2;
        }
      }
    }
  }
  let q = inside;
  for (let c = 0; c < k; c++) q -= (gamma * (tot[c] as number) * (tot[c] as number)) / 2;
  return q;
}

/** Adds to `sum` the weights of the row nb[from .. to) to nodes in `self`'s part (grouped: `of` maps, its own skipped). */
function weightTo(
  nb: Int32Array,
  ws: Weights | null,
  from: number,
  to: number,
  of: Int32Array | null,
  self: number,
  part: Int32Array,
  sum: number,
): number {
  const own = part[self] as number;
  let x = sum;
  for (let j = from; j < to; j++) {
    let y = nb[j] as number;
    if (of !== null) {
      y = of[y] as number;
      if (y === self) continue;
    }
    if (part[y] === own) x += ws === null ? 1 : (ws[j] as number);
  }
  return x;
}

/**
 * Adds the row nb[from .. to)'s weights to the refined communities it reaches inside `self`'s part, but `self`'s own
 * (acc, each listed in `touched` the first time `self` meets it); answers the new count of listed ones.
 */
function addToRefined(
  nb: Int32Array,
  ws: Weights | null,
  from: number,
  to: number,
  of: Int32Array | null,
  self: number,
  part: Int32Array,
  refined: Int32Array,
  seen: Int32Array,
  acc: Float64Array,
  touched: Int32Array,
  listed: number,
): number {
  const own = part[self] as number;
  let nt = listed;
  for (let j = from; j < to; j++) {
    const u = of === null ? (nb[j] as number) : (of[nb[j] as number] as number);
    if (part[u] !== own) continue;
    const c = refined[u] as number;
    if (c === self) continue;
    if (seen[c] !== self) {
      seen[c] = self;
      acc[c] = 0;
      touched[nt++] = c;
    }
    acc[c] = (acc[c] as number) + (ws === null ? 1 : (ws[j] as number));
  }
  return nt;
}

/**
 * Refines each community of `part` from singletons: a node still alone and well connected to its community joins
 * a well-connected sub-community of it with a non-negative gain, picked at random ∝ exp(gain / beta).
 * Answers the refined membership (node ids as labels), written into `into`.
 */
export function refine(
  g: WGraph,
  part: Int32Array,
  nw: Float64Array,
  gamma: number,
  beta: number,
  r: Rng,
  s: Scratch,
  into: Int32Array,
): Int32Array {
  const { n, start, nbr, w, start2, nbr2 } = g;
  const w2 = g.w2 ?? null;
  const { of, mStart, members } = groupsOf(g);
  const refined = into.subarray(0, n);
  // Scratch reused from level to level and run to run (the moving phase's totals and flags are free by now).
  const size = s.acc.length;
  s.refine ??= { rTot: new Float64Array(size), ext: new Float64Array(size), gains: new Float64Array(64) };
  const { rTot, ext } = s.refine;
  // One gain per candidate of a node: grown to the most candidates met.
  let gains = s.refine.gains;
  const partTot = s.tot;
  partTot.fill(0, 0, n);
  const alone = s.queued;
  for (let v = 0; v < n; v++) {
    refined[v] = v;
    rTot[v] = nw[v] as number;
    alone[v] = 1;
    partTot[part[v] as number] = (partTot[part[v] as number] as number) + (nw[v] as number);
    let x = 0;
    // Each row at its own call of an inlined helper (one list or two, grouped or not), as in local moving.
    if (mStart === null || members === null) {
      x = weightTo(nbr, w, start[v] as number, start[v + 1] as number, null, v, part, x);
      if (start2 && nbr2) x = weightTo(nbr2, w2, start2[v] as number, start2[v + 1] as number, null, v, part, x);
    } else {
      for (let i = mStart[v] as number; i < (mStart[v + 1] as number); i++) {
        const u = members[i] as number;
        x = weightTo(nbr, w, start[u] as number, start[u + 1] as number, of, v, part, x);
        if (start2 && nbr2) x = weightTo(nbr2, w2, start2[u] as number, start2[u + 1] as number, of, v, part, x);
      }
    }
    ext[v] = x;
  }
  const { acc, seen, touched } = s;
  seen.fill(-1, 0, n);
  const order = shuffled(n, r, s.queue);
  for (let i = 0; i < n; i++) {
    const v = order[i] as number;
    if (alone[v] === 0) continue;
    const S = part[v] as number;
    const nv = nw[v] as number;
    const rest = (partTot[S] as number) - nv;
    if ((ext[v] as number) < gamma * nv * rest) continue;
    let nt = 0;
    if (mStart === null || members === null) {
      nt = addToRefined(nbr, w, start[v] as number, start[v + 1] as number, null, v, part, refined, seen, acc, touched, nt);
      if (start2 && nbr2)
        nt = addToRefined(nbr2, w2, start2[v] as number, start2[v + 1] as number, null, v, part, refined, seen, acc, touched, nt);
    } else {
      for (let i = mStart[v] as number; i < (mStart[v + 1] as number); i++) {
        const m = members[i] as number;
        nt = addToRefined(nbr, w, start[m] as number, start[m + 1] as number, of, v, part, refined, seen, acc, touched, nt);
        if (start2 && nbr2)
          nt = addToRefined(nbr2, w2, start2[m] as number, start2[m + 1] as number, of, v, part, refined, seen, acc, touched, nt);
      }
    }
    if (gains.length < nt) {
      gains = new Float64Array(Math.max(nt, 2 * gains.length));
      s.refine.gains = gains;
    }
    // Candidates: well-connected sub-communities with a gain of at least 0 (staying alone gains 0).
    let maxGain = 0;
    let best = v;
    let nc = 0;
    for (let t = 0; t < nt; t++) {
      const c = touched[t] as number;
      const tc = rTot[c] as number;
      if ((ext[c] as number) < gamma * tc * ((partTot[S] as number) - tc)) continue;
      const gain = (acc[c] as number) - gamma * nv * tc;
      if (gain < 0) continue;
      touched[nc] = c;
      gains[nc] = gain;
      nc++;
      if (gain > maxGain) {
        maxGain = gain;
        best = c;
      }
    }
    if (nc === 0) continue;
    if (beta > 0) {
      // Staying alone (gain 0) is a candidate too.
      let sum = Math.exp(-maxGain / beta);
      for (let t = 0; t < nc; t++) sum += Math.exp(((gains[t] as number) - maxGain) / beta);
      let x = r.next() * sum - Math.exp(-maxGain / beta);
      if (x < 0) best = v;
      else {
        best = touched[nc - 1] as number;
        for (let t = 0; t < nc; t++) {
          x -= Math.exp(((gains[t] as number) - maxGain) / beta);
          if (x < 0) {
            best = touched[t] as number;
            break;
          }
        }
      }
    }
    if (best === v) continue;
    refined[v] = best;
    alone[v] = 0;
    alone[best] = 0;
    ext[best] = (ext[best] as number) + (ext[v] as number) - 2 * (acc[best] as number);
    rTot[best] = (rTot[best] as number) + nv;
    rTot[v] = 0;
  }
  return refined;
}

/**
 * Arrays of g0's size that every level and run reuses: at millions of edges, new ones per level and run are tens of
 * MB of garbage before the collector runs (and in the peak).
 */
type Buffers = {
  /** The first for level 0's refinement (a grouped level's groups), the second for every later level's. */
  refined: [Int32Array, Int32Array];
  part: Int32Array;
  /** The next level's partition and node weights, written into the one of each pair the current level does not use. */
  parts: [Int32Array, Int32Array];
  weights: [Float64Array, Float64Array];
  /** The node of the current level each node of g0 lies in, then a run's answer: the one not holding the membership kept. */
  at: [Int32Array, Int32Array];
};

const buffers = (n: number): Buffers => ({
  refined: [new Int32Array(n), new Int32Array(0)],
  part: new Int32Array(n),
  parts: [new Int32Array(0), new Int32Array(0)],
  weights: [new Float64Array(0), new Float64Array(0)],
  at: [new Int32Array(n), new Int32Array(n)],
});

/**
 * Grows the arrays that hold coarse levels (sized by the first coarse level, which has the most nodes; a few
 * tenths of g0's on graphs with structure) to `k` where they are shorter. Called before a level writes into them.
 */
function growCoarse(b: Buffers, k: number): void {
  if (b.parts[0].length >= k) return;
  b.refined[1] = new Int32Array(k);
  b.parts = [new Int32Array(k), new Int32Array(k)];
  b.weights = [new Float64Array(k), new Float64Array(k)];
}

/**
 * One Leiden run from `start` (a membership of g0's nodes); answers the new membership, written into `into`. Every
 * level's aggregate is written into `space` (in place from the second on; the runs share it), or kept grouped.
 */
function run(
  g0: WGraph,
  start: Int32Array,
  o: LeidenOptions,
  r: Rng,
  s: Scratch,
  space: AggregateSpace,
  b: Buffers,
  into: Int32Array,
  ctx: ComputeContext,
): Int32Array {
  let g = g0;
  // Levels that would keep most of g0's entries stay grouped over it (Leiden's refined partitions merge little).
  const groupAbove = GROUP_ABOVE_SHARE * entryCount(g0);
  let nw = o.nodeWeight;
  let part = b.part;
  part.set(start);
  renumber(part, s.count);
  // Node of the current graph each original node lies in (then, in place, the run's answer).
  const at = into;
  for (let v = 0; v < g0.n; v++) at[v] = v;
  for (let level = 0; level < o.maxLevels; level++) {
    ctx.checkCancelled();
    localMove(g, part, nw, o.gamma, r, s, (ROUND_THRESHOLD * g0.total) / 2);
    const k = renumber(part, s.count);
    if (k === g.n) break;
    // Level 0's refinement goes into the first array (grouped levels keep it as their groups), later ones' into the second.
    const free = level === 0 ? b.refined[0] : b.refined[1];
    let refined = refine(g, part, nw, o.gamma, o.beta, r, s, free);
    let kr = renumber(refined, s.count);
    // A refinement that merges nothing would leave the graph as it is: aggregate by the partition itself.
    if (kr === g.n) {
      refined = part.slice();
      kr = k;
    }
    // Growing drops only arrays no level holds now: at level 0 the next partition is the first to go into them.
    if (level === 0) growCoarse(b, kr);
    const nextPart = (part.buffer === b.parts[0].buffer ? b.parts[1] : b.parts[0]).subarray(0, kr);
    const nextW = (nw.buffer === b.weights[0].buffer ? b.weights[1] : b.weights[0]).subarray(0, kr).fill(0);
    for (let v = 0; v < g.n; v++) {
      const c = refined[v] as number;
      nextPart[c] = part[v] as number;
      nextW[c] = (nextW[c] as number) + (nw[v] as number);
    }
    for (let v = 0; v < g0.n; v++) at[v] = refined[at[v] as number] as number;
    g = aggregate(g, refined, kr, space, groupAbove);
    nw = nextW;
    part = nextPart;
    ctx.progress({ phase: "leiden", iteration: level + 1 });
  }
  for (let v = 0; v < g0.n; v++) at[v] = part[at[v] as number] as number;
  renumber(at, s.count);
  return at;
}

export function leiden(g0: WGraph, o: LeidenOptions, ctx: ComputeContext): Int32Array {
  // The refinement reads weights as they are: coded weights (ECG's, for Louvain) are not for it.
  if (g0.table) throw new Error("leiden: a graph with coded weights");
  const r = rng(o.seed);
  const s = scratch(g0.n);
  const space = aggregateSpace();
  const b = buffers(g0.n);
  let membership: Int32Array;
  if (o.initial) membership = o.initial.slice();
  else {
    membership = new Int32Array(g0.n);
    for (let v = 0; v < g0.n; v++) membership[v] = v;
  }
  renumber(membership, s.count);
  // Negative iterations: until a run no longer raises the quality (igraph's "stable iteration") by 1e-4 of the
  // modularity scale (the tail of tiny gains on weakly structured graphs), and at most 50 runs.
  const forever = o.iterations < 0;
  const minGain = (1e-4 * g0.total) / 2;
  // The moving phase's community totals are free between runs: the quality sums into them.
  let quality = pottsQuality(g0, membership, o.nodeWeight, o.gamma, s.tot);
  for (let it = 0; forever ? it < 50 : it < o.iterations; it++) {
    // Into the output array that is not the membership kept.
    const next = run(g0, membership, o, r, s, space, b, membership === b.at[0] ? b.at[1] : b.at[0], ctx);
    let same = true;
    for (let v = 0; v < g0.n && same; v++) if (next[v] !== membership[v]) same = false;
    const nextQuality = pottsQuality(g0, next, o.nodeWeight, o.gamma, s.tot);
    if (nextQuality >= quality) membership = next;
    if (same || (forever && !(nextQuality > quality + minGain))) break;
    quality = Math.max(quality, nextQuality);
  }
  return membership;
}
