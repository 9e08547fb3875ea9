// Walktrap (Pons & Latapy) as igraph 0.10 runs it: agglomerative merging of the adjacent pair of communities with the
// smallest sigma increase (random-walk distance, walks of `steps`), lazily refreshed in a min-heap; records the merges
// and the modularity after each one.
import type { ComputeContext } from "../../types.ts";
import type { WalkGraph } from "./walktrap-graph.ts";
import { distance, mergeProbabilities, type Probabilities, WalkScratch, walkFrom } from "./walktrap-probabilities.ts";

export type Dendrogram = { merges: Int32Array; q: Float64Array };

/** Pairs of adjacent communities in a pool of records (typed arrays), listed at both communities and in the heap. */
class Neighbors {
  c1: Int32Array;
  c2: Int32Array;
  next1: Int32Array;
  prev1: Int32Array;
  next2: Int32Array;
  prev2: Int32Array;
  heapIndex: Int32Array;
  delta: Float64Array;
  weight: Float64Array;
  exact: Uint8Array;
  private free: number[] = [];
  private used = 0;
  constructor(capacity: number) {
    this.c1 = new Int32Array(capacity);
    this.c2 = new Int32Array(capacity);
    this.next1 = new Int32Array(capacity);
    this.prev1 = new Int32Array(capacity);
    this.next2 = new Int32Array(capacity);
    this.prev2 = new Int32Array(capacity);
    this.heapIndex = new Int32Array(capacity);
    this.delta = new Float64Array(capacity);
    this.weight = new Float64Array(capacity);
    this.exact = new Uint8Array(capacity);
  }
  alloc(): number {
    const id = this.free.length > 0 ? (this.free.pop() as number) : this.used++;
    this.next1[id] = -1;
    this.prev1[id] = -1;
    this.next2[id] = -1;
    this.prev2[id] = -1;
    this.heapIndex[id] = -1;
    return id;
  }
  release(id: number): void {
    this.free.push(id);
  }
}

export function walktrap(g: WalkGraph, length: number, ctx: ComputeContext): Dendrogram {
  const n = g.n;
  const N = new Neighbors(Math.max(g.start[n] as number, 1) + 2);
  // The heap of pairs by delta sigma (root at 0, children of i at 2i and 2i + 1, as the original indexes it).
  const H = new Int32Array(Math.max(g.m, 1));
  const maxSize = g.m;
  let hsize = 0;
  const swap = (a: number, b: number) => {
    const x = H[a] as number;
    const y = H[b] as number;
    H[a] = y;
    H[b] = x;
    N.heapIndex[y] = a;
    N.heapIndex[x] = b;
  };
  const moveUp = (index: number) => {
    while ((N.delta[H[index >> 1] as number] as number) > (N.delta[H[index] as number] as number)) {
      swap(index >> 1, index);
      index >>= 1;
    }
  };
  const moveDown = (index: number) => {
    for (;;) {
      let min = index;
      if (2 * index < hsize && (N.delta[H[2 * index] as number] as number) < (N.delta[H[min] as number] as number)) min = 2 * index;
      if (2 * index + 1 < hsize && (N.delta[H[2 * index + 1] as number] as number) < (N.delta[H[min] as number] as number))
        min = 2 * index + 1;
      if (min === index) break;
      swap(min, index);
      index = min;
    }
  };
  const heapRemove = (id: number) => {
    const at = N.heapIndex[id] as number;
    if (at === -1 || hsize === 0) return;
    const last = H[--hsize] as number;
    H[at] = last;
    N.heapIndex[last] = at;
    moveUp(at);
    moveDown(N.heapIndex[last] as number);
    N.heapIndex[id] = -1;
  };
  const heapAdd = (id: number) => {
    if (hsize >= maxSize) return;
    N.heapIndex[id] = hsize++;
    H[N.heapIndex[id] as number] = id;
    moveUp(N.heapIndex[id] as number);
  };
  const heapUpdate = (id: number) => {
    const at = N.heapIndex[id] as number;
    if (at === -1) return;
    moveUp(at);
    moveDown(N.heapIndex[id] as number);
  };

  // Communities 0..n-1 are the vertices; merge k makes community n + k.
  const cap = 2 * n;
  const firstMember = new Int32Array(cap);
  const lastMember = new Int32Array(cap);
  const size = new Int32Array(cap);
  const subOf = new Int32Array(cap).fill(-1);
  const totalWeight = new Float64Array(cap);
  const internalWeight = new Float64Array(cap);
  const firstNbr = new Int32Array(cap).fill(-1);
  const lastNbr = new Int32Array(cap).fill(-1);
  const P: (Probabilities | null)[] = new Array(cap).fill(null);
  const members = new Int32Array(n).fill(-1);
  const scratch = new WalkScratch(n);
  for (let i = 0; i < n; i++) {
    firstMember[i] = i;
    lastMember[i] = i;
    size[i] = 1;
    subOf[i] = 0;
  }
  let nbCommunities = n;

  const nextOf = (id: number, c: number) => ((N.c1[id] as number) === c ? (N.next1[id] as number) : (N.next2[id] as number));
  const listAdd = (c: number, id: number) => {
    const last = lastNbr[c] as number;
    if (last !== -1) {
      if ((N.c1[last] as number) === c) N.next1[last] = id;
      else N.next2[last] = id;
      if ((N.c1[id] as number) === c) N.prev1[id] = last;
      else N.prev2[id] = last;
    } else {
      firstNbr[c] = id;
      if ((N.c1[id] as number) === c) N.prev1[id] = -1;
      else N.prev2[id] = -1;
    }
    lastNbr[c] = id;
  };
  const listRemove = (c: number, id: number) => {
    if ((N.c1[id] as number) === c) {
      const next = N.next1[id] as number;
      const prev = N.prev1[id] as number;
      if (next !== -1) N.prev1[next] = prev;
      else lastNbr[c] = prev;
      if (prev !== -1) {
        if ((N.c1[prev] as number) === c) N.next1[prev] = next;
        else N.next2[prev] = next;
      } else firstNbr[c] = next;
    } else {
      const next = N.next2[id] as number;
      const prev = N.prev2[id] as number;
      if (next !== -1) {
        if ((N.c1[next] as number) === c) N.prev1[next] = prev;
        else N.prev2[next] = prev;
      } else lastNbr[c] = prev;
      if (prev !== -1) N.next2[prev] = next;
      else firstNbr[c] = next;
    }
  };
  const addNeighbor = (id: number) => {
    listAdd(N.c1[id] as number, id);
    listAdd(N.c2[id] as number, id);
    heapAdd(id);
  };
  const removeNeighbor = (id: number) => {
    listRemove(N.c1[id] as number, id);
    listRemove(N.c2[id] as number, id);
    heapRemove(id);
  };
  const probabilities = (c: number): Probabilities => {
    let p = P[c];
    if (!p) {
      p = walkFrom(g, scratch, length, firstMember[c] as number, members[lastMember[c] as number] as number, size[c] as number, members);
      P[c] = p;
    }
    return p;
  };
  const deltaSigma = (a: number, b: number): number => {
    const pa = probabilities(a);
    const pb = probabilities(b);
    return (((distance(pa, pb) * (size[a] as number)) as number) * (size[b] as number)) / ((size[a] as number) + (size[b] as number));
  };

  for (let i = 0; i < n; i++) {
    const degI = (g.start[i + 1] as number) - (g.start[i] as number);
    for (let j = g.start[i] as number; j < (g.start[i + 1] as number); j++) {
      const u = g.nbr[j] as number;
      if (i >= u) continue;
      const w = g.w[j] as number;
      totalWeight[i] = (totalWeight[i] as number) + w / 2;
      totalWeight[u] = (totalWeight[u] as number) + w / 2;
      const id = N.alloc();
      N.c1[id] = i;
      N.c2[id] = u;
      N.delta[id] = -1 / Math.min(degI, (g.start[u + 1] as number) - (g.start[u] as number));
      N.weight[id] = w;
      N.exact[id] = 0;
      addNeighbor(id);
    }
  }

  const merges = new Int32Array(2 * Math.max(n - 1, 0));
  const qs: number[] = [];
  const modularity = () => {
    let q = 0;
    for (let i = 0; i < nbCommunities; i++) {
      if ((subOf[i] as number) === 0) {
        q += (internalWeight[i] as number) - ((totalWeight[i] as number) * (totalWeight[i] as number)) / g.total;
      }
    }
    qs.push(q / g.total);
  };
  const refreshTop = () => {
    let top = H[0] as number;
    while (!N.exact[top]) {
      N.delta[top] = deltaSigma(N.c1[top] as number, N.c2[top] as number);
      heapUpdate(top);
      N.exact[top] = 1;
      top = H[0] as number;
    }
    return top;
  };
  if (hsize === 0) {
    // No pair to merge: igraph leaves its zeroed modularity, NaN when the graph has no edges at all.
    qs.push(g.m === 0 ? Number.NaN : 0);
    return { merges: merges.subarray(0, 0), q: Float64Array.from(qs) };
  }
  refreshTop();
  modularity();

  const relink = (tmp: number, other: number, delta: number, weight: number, exact: number) => {
    const id = N.alloc();
    N.weight[id] = weight;
    N.c1[id] = other;
    N.c2[id] = nbCommunities;
    N.delta[id] = delta;
    N.exact[id] = exact;
    if (tmp >= 0) N.release(tmp);
    addNeighbor(id);
  };
  const mergeCommunities = (m: number) => {
    const c1 = N.c1[m] as number;
    const c2 = N.c2[m] as number;
    const md = N.delta[m] as number;
    const nc = nbCommunities;
    firstMember[nc] = firstMember[c1] as number;
    lastMember[nc] = lastMember[c2] as number;
    members[lastMember[c1] as number] = firstMember[c2] as number;
    size[nc] = (size[c1] as number) + (size[c2] as number);
    subOf[nc] = 0;
    totalWeight[nc] = (totalWeight[c1] as number) + (totalWeight[c2] as number);
    internalWeight[nc] = (internalWeight[c1] as number) + (internalWeight[c2] as number) + (N.weight[m] as number);
    subOf[c1] = nc;
    subOf[c2] = nc;
    const p1 = P[c1];
    const p2 = P[c2];
    if (p1 && p2) P[nc] = mergeProbabilities(n, scratch, p1, p2, size[c1] as number, size[c2] as number);
    P[c1] = null;
    P[c2] = null;
    const s1 = size[c1] as number;
    const s2 = size[c2] as number;
    let N1 = firstNbr[c1] as number;
    let N2 = firstNbr[c2] as number;
    const otherOf = (id: number, c: number) => ((N.c1[id] as number) === c ? (N.c2[id] as number) : (N.c1[id] as number));
    while (N1 !== -1 && N2 !== -1) {
      const nb1 = otherOf(N1, c1);
      const nb2 = otherOf(N2, c2);
      if (nb1 < nb2) {
        const tmp = N1;
        N1 = nextOf(N1, c1);
        removeNeighbor(tmp);
        const sn = size[nb1] as number;
        relink(tmp, nb1, ((s1 + sn) * (N.delta[tmp] as number) + s2 * md) / (s1 + s2 + sn), N.weight[tmp] as number, 0);
      }
      if (nb2 < nb1) {
        const tmp = N2;
        N2 = nextOf(N2, c2);
        removeNeighbor(tmp);
        const sn = size[nb2] as number;
        relink(tmp, nb2, (s1 * md + (s2 + sn) * (N.delta[tmp] as number)) / (s1 + s2 + sn), N.weight[tmp] as number, 0);
      }
      if (nb1 === nb2) {
        const t1 = N1;
        const t2 = N2;
        const exact = N.exact[t1] && N.exact[t2] ? 1 : 0;
        N1 = nextOf(N1, c1);
        N2 = nextOf(N2, c2);
        removeNeighbor(t1);
        removeNeighbor(t2);
        const sn = size[nb1] as number;
        const delta = ((s1 + sn) * (N.delta[t1] as number) + (s2 + sn) * (N.delta[t2] as number) - sn * md) / (s1 + s2 + sn);
        const weight = (N.weight[t1] as number) + (N.weight[t2] as number);
        N.release(t2);
        relink(t1, nb1, delta, weight, exact);
      }
    }
    while (N2 !== -1) {
      const nb = otherOf(N2, c2);
      const tmp = N2;
      N2 = nextOf(N2, c2);
      removeNeighbor(tmp);
      const sn = size[nb] as number;
      relink(tmp, nb, (s1 * md + (s2 + sn) * (N.delta[tmp] as number)) / (s1 + s2 + sn), N.weight[tmp] as number, 0);
    }
    while (N1 !== -1) {
      const nb = otherOf(N1, c1);
      const tmp = N1;
      N1 = nextOf(N1, c1);
      removeNeighbor(tmp);
      const sn = size[nb] as number;
      relink(tmp, nb, ((s1 + sn) * (N.delta[tmp] as number) + s2 * md) / (s1 + s2 + sn), N.weight[tmp] as number, 0);
    }
    nbCommunities++;
  };

  let k = 0;
  while (hsize > 0) {
    if ((k & 63) === 0) {
      ctx.checkCancelled();
      ctx.progress({ phase: "walktrap merges", iteration: k, fraction: n > 1 ? k / (n - 1) : 1 });
    }
    const top = refreshTop();
    removeNeighbor(top);
    mergeCommunities(top);
    merges[2 * k] = N.c1[top] as number;
    merges[2 * k + 1] = N.c2[top] as number;
    k++;
    modularity();
    N.release(top);
  }
  return { merges: merges.subarray(0, 2 * k), q: Float64Array.from(qs) };
}
