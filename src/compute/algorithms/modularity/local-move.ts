// The moving phase shared by Louvain and Leiden: nodes move one at a time (a queue of nodes whose neighbourhood
// changed, Traag's fast local moving) to the neighbouring community that most improves the Potts quality
// Σ_c [W_in(c) - γ N_c² / 2] (N_c: the sum of the node weights; modularity when node weights are strengths, γ = res/2m).
import { entriesOf, groupsOf, lists, type Weights, type WGraph } from "./graph.ts";
import type { Rng } from "./rng.ts";
import { shuffled } from "./rng.ts";

/**
 * A round of moves that gains less modularity than this ends a level's moving phase (in weight units the gain is
 * ROUND_THRESHOLD · 2m / 2): the long tail of tiny moves on graphs with weak structure changes almost nothing.
 */
export const ROUND_THRESHOLD = 1e-6;

/** Scratch arrays one optimisation reuses across levels (sized for the first, largest, graph). */
export type Scratch = {
  acc: Float64Array;
  seen: Int32Array;
  touched: Int32Array;
  queue: Int32Array;
  queued: Uint8Array;
  tot: Float64Array;
  count: Int32Array;
  empty: Int32Array;
  /** Leiden's refinement's own, made by its first call. */
  refine?: { rTot: Float64Array; ext: Float64Array; gains: Float64Array };
};

export function scratch(n: number): Scratch {
  return {
    acc: new Float64Array(n),
    seen: new Int32Array(n),
    touched: new Int32Array(n),
    queue: new Int32Array(n),
    queued: new Uint8Array(n),
    tot: new Float64Array(n),
    count: new Int32Array(n),
    empty: new Int32Array(n),
  };
}

/**
 * Moves nodes of g between communities (comm, values in [0, g.n)) until no move improves the quality, or a round
 * (as many visits as nodes were queued when it began) gains less than `minGain` in all; answers the number of
 * moves. `gamma` multiplies node weight products; ties keep the node where it is.
 */
export function localMove(g: WGraph, comm: Int32Array, nodeWeight: Float64Array, gamma: number, r: Rng, s: Scratch, minGain = 0): number {
  const { n } = g;
  // The graph's lists (two on a graph read straight from the CSR: out-edges, then in-edges), as locals: the loops
  // below are the hottest of Louvain and Leiden.
  // (indexed, not destructured: an array pattern runs the iterator protocol, an object per call)
  const gl = lists(g);
  const first = gl[0];
  const second = gl[1];
  const { start, nbr, w, table } = first as NonNullable<typeof first>;
  const start2 = second?.start;
  const nbr2 = second?.nbr ?? nbr;
  const w2 = second?.w ?? null;
  const sides = start2 ? 2 : 1;
  // A grouped graph's node reads its members' entries, through `of`, its own skipped (graph.ts groupsOf).
  const { of, mStart, members } = groupsOf(g);
  const { acc, seen, touched, queue, queued, tot, count, empty } = s;
  tot.fill(0, 0, n);
  seen.fill(-1, 0, n);
  count.fill(0, 0, n);
  for (let v = 0; v < n; v++) {
    const c = comm[v] as number;
    tot[c] = (tot[c] as number) + (nodeWeight[v] as number);
    count[c] = (count[c] as number) + 1;
  }
  let nEmpty = 0;
  for (let c = n - 1; c >= 0; c--) if (count[c] === 0) empty[nEmpty++] = c;
  // The queue starts as the nodes in random order (shuffled in its own slots), those without entries left out.
  const order = shuffled(n, r, queue);
  // The queue is a ring over n slots: every node at most once in it.
  let head = 0;
  let size = 0;
  for (let i = 0; i < n; i++) {
    const v = order[i] as number;
    if (entriesOf(g, v) > 0) {
      queue[size++] = v;
      queued[v] = 1;
    } else queued[v] = 0;
  }
  let moves = 0;
  let stamp = 0;
  let roundLeft = size;
  let roundGain = 0;
  while (size > 0) {
    if (roundLeft === 0) {
      if (roundGain < minGain) {
        for (let i = 0; i < size; i++) queued[queue[(head + i) % n] as number] = 0;
        break;
      }
      roundLeft = size;
      roundGain = 0;
    }
    roundLeft--;
    const v = queue[head] as number;
    head = head + 1 === n ? 0 : head + 1;
    size--;
    queued[v] = 0;
    const c = comm[v] as number;
    const nv = nodeWeight[v] as number;
    stamp++;
    let nt = 0;
    seen[c] = stamp;
    acc[c] = 0;
    touched[nt++] = c;
    // Each row at its own call (the helper is inlined, so each call's loop is specialised: one list or two, grouped
    // or not).
    if (mStart === null || members === null) {
      nt = addRow(nbr, w, table, start[v] as number, start[v + 1] as number, null, v, comm, seen, stamp, acc, touched, nt);
      if (start2) nt = addRow(nbr2, w2, table, start2[v] as number, start2[v + 1] as number, null, v, comm, seen, stamp, acc, touched, nt);
    } else {
      for (let i = mStart[v] as number; i < (mStart[v + 1] as number); i++) {
        const u = members[i] as number;
        nt = addRow(nbr, w, table, start[u] as number, start[u + 1] as number, of, v, comm, seen, stamp, acc, touched, nt);
        if (start2) nt = addRow(nbr2, w2, table, start2[u] as number, start2[u + 1] as number, of, v, comm, seen, stamp, acc, touched, nt);
      }
    }
    tot[c] = (tot[c] as number) - nv;
    const gnv = gamma * nv;
    let best = c;
    const stayGain = (acc[c] as number) - gnv * (tot[c] as number);
    let bestGain = stayGain;
    for (let t = 1; t < nt; t++) {
      const d = touched[t] as number;
      const gain = (acc[d] as number) - gnv * (tot[d] as number);
      if (gain > bestGain) {
        bestGain = gain;
        best = d;
      }
    }
    count[c] = (count[c] as number) - 1;
    // Leaving for an empty community gains 0: taken when every neighbouring community (its own too) loses.
    if (bestGain < 0 && (count[c] as number) > 0 && nEmpty > 0) {
      best = empty[--nEmpty] as number;
      bestGain = 0;
    } else if (count[c] === 0 && best !== c) empty[nEmpty++] = c;
    tot[best] = (tot[best] as number) + nv;
    count[best] = (count[best] as number) + 1;
    if (best !== c) {
      comm[v] = best;
      moves++;
      roundGain += bestGain - stayGain;
      const i1 = mStart === null ? v + 1 : (mStart[v + 1] as number);
      for (let i = mStart === null ? v : (mStart[v] as number); i < i1; i++) {
        const u = members === null ? i : (members[i] as number);
        for (let side = 0; side < sides; side++) {
          const st = side === 0 ? start : (start2 as Int32Array);
          const nb = side === 0 ? nbr : nbr2;
          for (let j = st[u] as number; j < (st[u + 1] as number); j++) {
            const x = of === null ? (nb[j] as number) : (of[nb[j] as number] as number);
            if (queued[x] === 0 && comm[x] !== best) {
              queued[x] = 1;
              let at = head + size;
              if (at >= n) at -= n;
              queue[at] = x;
              size++;
            }
          }
        }
      }
    }
  }
  return moves;
}

/**
 * Adds the row nb[from .. to) (weights ws; null: 1 each; codes into tb where tb is given) to the weights of the communities it reaches (acc), each
 * community met for the first time at this `stamp` listed in `touched`; answers the new count of listed ones. On a
 * grouped graph `of` maps each neighbour to its group, and entries to `self`'s own group are skipped.
 */
function addRow(
  nb: Int32Array,
  ws: Weights | null,
  tb: Float64Array | null,
  from: number,
  to: number,
  of: Int32Array | null,
  self: number,
  comm: Int32Array,
  seen: Int32Array,
  stamp: number,
  acc: Float64Array,
  touched: Int32Array,
  listed: number,
): number {
  let nt = listed;
  for (let j = from; j < to; j++) {
    let x = nb[j] as number;
    if (of !== null) {
      x = of[x] as number;
      if (x === self) continue;
    }
    const d = comm[x] as number;
    if (seen[d] !== stamp) {
      seen[d] = stamp;
      acc[d] = 0;
      touched[nt++] = d;
    }
    acc[d] = (acc[d] as number) + (ws === null ? 1 : tb === null ? (ws[j] as number) : (tb[ws[j] as number] as number));
  }
  return nt;
}
