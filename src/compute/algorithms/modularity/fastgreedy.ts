// Greedy modularity agglomeration (Clauset, Newman & Moore), as igraph's community_fastgreedy: merge the pair of
// communities with the largest modularity gain until none is joined, then cut the dendrogram at its best modularity.
import type { ComputeContext } from "../../types.ts";
import { renumber, type WGraph } from "./graph.ts";

/** A max-heap of (gain, a, b) candidate merges; stale entries are skipped when popped. */
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

/** The membership at the dendrogram's best modularity (igraph's as_clustering()), renumbered 0..k-1. */
export function fastGreedy(g: WGraph, ctx: ComputeContext): Int32Array {
  const { n, total } = g;
  const membership = new Int32Array(n);
  for (let v = 0; v < n; v++) membership[v] = v;
  if (total <= 0) return membership;
  // dq[i]: community i's neighbours -> ΔQ of merging them (2(e_ij - a_i a_j)); a[i] = K_i / 2m.
  const dq: Map<number, number>[] = [];
  const a = new Float64Array(n);
  let q = 0;
  for (let v = 0; v < n; v++) {
    a[v] = (g.strength[v] as number) / total;
    q += (g.loop[v] as number) / total - (a[v] as number) * (a[v] as number);
    const row = new Map<number, number>();
    for (let j = g.start[v] as number; j < (g.start[v + 1] as number); j++) {
      const u = g.nbr[j] as number;
      row.set(u, (row.get(u) ?? 0) + (2 * (g.w[j] as number)) / total);
    }
    for (const [u, e] of row) row.set(u, e - 2 * (a[v] as number) * (a[u] as number));
    dq.push(row);
  }
  const heap = new PairHeap();
  for (let v = 0; v < n; v++) for (const [u, x] of dq[v] as Map<number, number>) if (v < u) heap.push(x, v, u);
  // Merges in order: `from` joined `into`; the best prefix is replayed at the end.
  const mergeFrom: number[] = [];
  const mergeInto: number[] = [];
  let bestQ = q;
  let bestSteps = 0;
  while (heap.size > 0) {
    const x = heap.gain[0] as number;
    let i = heap.a[0] as number;
    let j = heap.b[0] as number;
    heap.pop();
    const current = (dq[i] as Map<number, number>).get(j);
    if (current === undefined || current !== x) continue;
    // Merge the smaller neighbourhood into the larger.
    if ((dq[i] as Map<number, number>).size > (dq[j] as Map<number, number>).size) {
      const t = i;
      i = j;
      j = t;
    }
    const di = dq[i] as Map<number, number>;
    const dj = dq[j] as Map<number, number>;
    di.delete(j);
    dj.delete(i);
    for (const [k, xik] of di) {
      const dk = dq[k] as Map<number, number>;
      const xjk = dj.get(k);
      const next = xjk === undefined ? xik - 2 * (a[j] as number) * (a[k] as number) : xik + xjk;
      dj.set(k, next);
      dk.delete(i);
      dk.set(j, next);
      heap.push(next, Math.min(j, k), Math.max(j, k));
    }
    for (const [k, xjk] of dj) {
      if (di.has(k)) continue;
      const dk = dq[k] as Map<number, number>;
      const next = xjk - 2 * (a[i] as number) * (a[k] as number);
      dj.set(k, next);
      dk.set(j, next);
      heap.push(next, Math.min(j, k), Math.max(j, k));
    }
    di.clear();
    a[j] = (a[j] as number) + (a[i] as number);
    a[i] = 0;
    q += x;
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
