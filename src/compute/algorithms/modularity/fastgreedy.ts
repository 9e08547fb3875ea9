// Greedy modularity agglomeration (Clauset, Newman & Moore), as igraph's community_fastgreedy: merge the pair of
// communities with the largest modularity gain until none is joined, then cut the dendrogram at its best modularity.
import type { ComputeContext } from "../../types.ts";
import { renumber, type WGraph } from "./graph.ts";

/** A max-heap of (gain, community, version) entries; stale entries are skipped when popped. */
class PairHeap {
  gain: Float64Array = new Float64Array(1024);
  a: Int32Array = new Int32Array(1024);
  b: Int32Array = new Int32Array(1024);
  size = 0;
  push(gain: number, a: number, b: number): void {
    if (this.size === this.gain.length) {
      const cap = this.size * 2;
      const g = new Float64Array(cap);
      g.set(this.gain);
      this.gain = g;
      const na = new Int32Array(cap);
      na.set(this.a);
      this.a = na;
      const nb = new Int32Array(cap);
      nb.set(this.b);
      this.b = nb;
    }
    let i = this.size++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if ((this.gain[p] as number) >= gain) break;
      this.gain[i] = this.gain[p] as number;
      this.a[i] = this.a[p] as number;
      this.b[i] = this.b[p] as number;
      i = p;
    }
    this.gain[i] = gain;
    this.a[i] = a;
    this.b[i] = b;
  }
  /** Removes the top (read it from gain[0], a[0], b[0] first). */
  pop(): void {
    const last = --this.size;
    if (last === 0) return;
    const gain = this.gain[last] as number;
    const a = this.a[last] as number;
    const b = this.b[last] as number;
    let i = 0;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= last) break;
      if (c + 1 < last && (this.gain[c + 1] as number) > (this.gain[c] as number)) c++;
      if ((this.gain[c] as number) <= gain) break;
      this.gain[i] = this.gain[c] as number;
      this.a[i] = this.a[c] as number;
      this.b[i] = this.b[c] as number;
      i = c;
    }
    this.gain[i] = gain;
    this.a[i] = a;
    this.b[i] = b;
  }
}

/**
 * The membership at the dendrogram's best modularity (igraph's as_clustering()), renumbered 0..k-1.
 * Lazy CNM: maps hold e_ij (edge weight share between communities), ΔQ_ij = 2(e_ij - a_i a_j) is computed when
 * read; each community's heap entry is an upper bound on its best ΔQ (values only fall as partners grow), checked
 * (and rescanned) when it reaches the top. Merges stop once the best ΔQ is not positive: no later cut is better.
 */
export function fastGreedy(g: WGraph, ctx: ComputeContext): Int32Array {
  const { n, total } = g;
  const membership = new Int32Array(n);
  for (let v = 0; v < n; v++) membership[v] = v;
  if (total <= 0) return membership;
  const e: Map<number, number>[] = [];
  const a = new Float64Array(n);
  let q = 0;
  for (let v = 0; v < n; v++) {
    a[v] = (g.strength[v] as number) / total;
    q += (g.loop[v] as number) / total - (a[v] as number) * (a[v] as number);
    const row = new Map<number, number>();
    for (let j = g.start[v] as number; j < (g.start[v + 1] as number); j++) {
      const u = g.nbr[j] as number;
      row.set(u, (row.get(u) ?? 0) + (g.w === null ? 1 : (g.w[j] as number)) / total);
    }
    e.push(row);
  }
  const bestK = new Int32Array(n).fill(-1);
  const bound = new Float64Array(n);
  const dirty = new Uint8Array(n);
  const version = new Int32Array(n);
  const heap = new PairHeap();
  const push = (i: number) => {
    version[i] = (version[i] as number) + 1;
    heap.push(bound[i] as number, i, version[i] as number);
  };
  /** i's exact best merge (ties: the lowest community id). */
  const rescan = (i: number) => {
    let bk = -1;
    let bv = Number.NEGATIVE_INFINITY;
    const ai = a[i] as number;
    for (const [k, x] of e[i] as Map<number, number>) {
      const d = 2 * (x - ai * (a[k] as number));
      if (d > bv || (d === bv && k < bk)) {
        bv = d;
        bk = k;
      }
    }
    bestK[i] = bk;
    bound[i] = bv;
    dirty[i] = 0;
    if (bk >= 0) push(i);
  };
  for (let v = 0; v < n; v++) rescan(v);
  // Merges in order: `from` joined `into`; the best prefix is replayed at the end.
  const mergeFrom: number[] = [];
  const mergeInto: number[] = [];
  let bestQ = q;
  let bestSteps = 0;
  while (heap.size > 0) {
    const top = heap.a[0] as number;
    const stamp = heap.b[0] as number;
    const value = heap.gain[0] as number;
    heap.pop();
    if (version[top] !== stamp || (bestK[top] as number) < 0) continue;
    if (dirty[top] === 1) {
      rescan(top);
      continue;
    }
    const partner = bestK[top] as number;
    const x = (e[top] as Map<number, number>).get(partner);
    const actual = x === undefined ? Number.NEGATIVE_INFINITY : 2 * (x - (a[top] as number) * (a[partner] as number));
    if (actual < value - 1e-14) {
      rescan(top);
      continue;
    }
    if (actual <= 0) break;
    let i = top;
    let j = partner;
    // Merge the smaller neighbourhood into the larger.
    if ((e[i] as Map<number, number>).size > (e[j] as Map<number, number>).size) {
      i = partner;
      j = top;
    }
    const ei = e[i] as Map<number, number>;
    const ej = e[j] as Map<number, number>;
    ei.delete(j);
    ej.delete(i);
    const aj = (a[i] as number) + (a[j] as number);
    for (const [k, eik] of ei) {
      const ek = e[k] as Map<number, number>;
      const next = (ej.get(k) ?? 0) + eik;
      ej.set(k, next);
      ek.delete(i);
      ek.set(j, next);
      const d = 2 * (next - aj * (a[k] as number));
      if (bestK[k] === i || bestK[k] === j) {
        dirty[k] = 1;
        if (d > (bound[k] as number)) bound[k] = d;
        push(k);
      } else if (d > (bound[k] as number)) {
        bestK[k] = j;
        bound[k] = d;
        push(k);
      }
    }
    ei.clear();
    // j's pairs: each at most ΔQ_j + ΔQ_i (both sides) or one of them.
    const bi = bound[i] as number;
    const bj = bound[j] as number;
    bound[j] = Math.max(bi, bj, bi + bj);
    dirty[j] = 1;
    a[j] = aj;
    a[i] = 0;
    bestK[i] = -1;
    version[i] = (version[i] as number) + 1;
    if (ej.size > 0) push(j);
    else bestK[j] = -1;
    q += actual;
    mergeFrom.push(i);
    mergeInto.push(j);
    if (q > bestQ + 1e-12) {
      bestQ = q;
      bestSteps = mergeFrom.length;
    }
    if ((mergeFrom.length & 1023) === 0) {
      ctx.checkCancelled();
      ctx.progress({ phase: "fastgreedy", fraction: mergeFrom.length / n });
    }
  }
  // Replay the best prefix with union-find.
  const parent = new Int32Array(n);
  for (let v = 0; v < n; v++) parent[v] = v;
  const find = (v: number): number => {
    let x = v;
    while (parent[x] !== x) {
      parent[x] = parent[parent[x] as number] as number;
      x = parent[x] as number;
    }
    return x;
  };
  for (let s = 0; s < bestSteps; s++) parent[find(mergeFrom[s] as number)] = find(mergeInto[s] as number);
  for (let v = 0; v < n; v++) membership[v] = find(v);
  renumber(membership);
  return membership;
}
