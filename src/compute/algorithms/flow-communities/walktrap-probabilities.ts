// Walktrap's probability vectors: where a random walk of `length` steps from a community lands, divided by the square
// root of each vertex's strength, kept full (n values) or sparse (sorted vertices) as Pons & Latapy's code keeps them.
import type { WalkGraph } from "./walktrap-graph.ts";

export type Probabilities = { size: number; p: Float64Array; vertices: Int32Array | null };

/** The scratch vectors every computation shares (swapped between steps as the original swaps them). */
export class WalkScratch {
  v1: Float64Array;
  v2: Float64Array;
  id: Int32Array;
  verts1: Int32Array;
  verts2: Int32Array;
  currentId = 0;
  constructor(n: number) {
    this.v1 = new Float64Array(n);
    this.v2 = new Float64Array(n);
    this.id = new Int32Array(n);
    this.verts1 = new Int32Array(n);
    this.verts2 = new Int32Array(n);
  }
}

/** The vector of a community whose members are listed from `first` through `members` (next member, -1 at the end). */
export function walkFrom(
  g: WalkGraph,
  s: WalkScratch,
  length: number,
  first: number,
  stop: number,
  size: number,
  members: Int32Array,
): Probabilities {
  const n = g.n;
  const { start, nbr, w, strength } = g;
  let nb1 = 0;
  let nb2 = 0;
  const initial = 1 / size;
  for (let m = first; m !== stop; m = members[m] as number) {
    s.v1[m] = initial;
    s.verts1[nb1++] = m;
  }
  for (let t = 0; t < length; t++) {
    s.currentId++;
    const v1 = s.v1;
    const v2 = s.v2;
    if (nb1 > Math.floor(n / 2)) {
      nb2 = n;
      v2.fill(0);
      if (nb1 === n) {
        for (let i = 0; i < n; i++) {
          const proba = (v1[i] as number) / (strength[i] as number);
          for (let j = start[i] as number; j < (start[i + 1] as number); j++) {
            const u = nbr[j] as number;
            v2[u] = (v2[u] as number) + proba * (w[j] as number);
          }
        }
      } else {
        const verts1 = s.verts1;
        for (let i = 0; i < nb1; i++) {
          const x = verts1[i] as number;
          const proba = (v1[x] as number) / (strength[x] as number);
          for (let j = start[x] as number; j < (start[x + 1] as number); j++) {
            const u = nbr[j] as number;
            v2[u] = (v2[u] as number) + proba * (w[j] as number);
          }
        }
      }
    } else {
      nb2 = 0;
      const verts1 = s.verts1;
      const verts2 = s.verts2;
      const id = s.id;
      const cur = s.currentId;
      for (let i = 0; i < nb1; i++) {
        const x = verts1[i] as number;
        const proba = (v1[x] as number) / (strength[x] as number);
        for (let j = start[x] as number; j < (start[x + 1] as number); j++) {
          const u = nbr[j] as number;
          if ((id[u] as number) === cur) v2[u] = (v2[u] as number) + proba * (w[j] as number);
          else {
            v2[u] = proba * (w[j] as number);
            id[u] = cur;
            verts2[nb2++] = u;
          }
        }
      }
    }
    s.v1 = v2;
    s.v2 = v1;
    const tv = s.verts2;
    s.verts2 = s.verts1;
    s.verts1 = tv;
    nb1 = nb2;
  }
  const v1 = s.v1;
  if (nb1 > Math.floor(n / 2)) {
    const p = new Float64Array(n);
    if (nb1 === n) {
      for (let i = 0; i < n; i++) p[i] = (v1[i] as number) / Math.sqrt(strength[i] as number);
    } else {
      for (let i = 0; i < nb1; i++) {
        const x = s.verts1[i] as number;
        p[x] = (v1[x] as number) / Math.sqrt(strength[x] as number);
      }
    }
    return { size: n, p, vertices: null };
  }
  const p = new Float64Array(nb1);
  const vertices = new Int32Array(nb1);
  let j = 0;
  const cur = s.currentId;
  for (let i = 0; i < n; i++) {
    if ((s.id[i] as number) === cur) {
      p[j] = (v1[i] as number) / Math.sqrt(strength[i] as number);
      vertices[j] = i;
      j++;
    }
  }
  return { size: nb1, p, vertices };
}

/** The vector of the union of two communities (sizes s1, s2): the size-weighted mean of theirs. */
export function mergeProbabilities(n: number, s: WalkScratch, P1: Probabilities, P2: Probabilities, s1: number, s2: number): Probabilities {
  const w1 = s1 / (s1 + s2);
  const w2 = s2 / (s1 + s2);
  if (P1.size === n && P2.size === n) {
    const p = new Float64Array(n);
    for (let i = 0; i < n; i++) p[i] = (P1.p[i] as number) * w1 + (P2.p[i] as number) * w2;
    return { size: n, p, vertices: null };
  }
  if (P1.size === n || P2.size === n) {
    // One full vector F (weight wf), one partial S (weight ws); F's term is written first as the original does.
    const fullFirst = P1.size === n;
    const F = fullFirst ? P1 : P2;
    const S = fullFirst ? P2 : P1;
    const wf = fullFirst ? w1 : w2;
    const ws = fullFirst ? w2 : w1;
    const sv = S.vertices as Int32Array;
    const p = new Float64Array(n);
    let j = 0;
    for (let i = 0; i < S.size; i++) {
      const at = sv[i] as number;
      for (; j < at; j++) p[j] = (F.p[j] as number) * wf;
      p[j] = fullFirst ? (F.p[j] as number) * wf + (S.p[i] as number) * ws : (S.p[i] as number) * ws + (F.p[j] as number) * wf;
      j++;
    }
    for (; j < n; j++) p[j] = (F.p[j] as number) * wf;
    return { size: n, p, vertices: null };
  }
  const a = P1.vertices as Int32Array;
  const b = P2.vertices as Int32Array;
  const tmp = s.v1;
  const verts = s.verts1;
  let i = 0;
  let j = 0;
  let nb = 0;
  while (i < P1.size && j < P2.size) {
    const x = a[i] as number;
    const y = b[j] as number;
    if (x < y) {
      tmp[x] = (P1.p[i] as number) * w1;
      verts[nb++] = x;
      i++;
    } else if (x > y) {
      tmp[y] = (P2.p[j] as number) * w2;
      verts[nb++] = y;
      j++;
    } else {
      tmp[x] = (P1.p[i] as number) * w1 + (P2.p[j] as number) * w2;
      verts[nb++] = x;
      i++;
      j++;
    }
  }
  if (i === P1.size) {
    for (; j < P2.size; j++) {
      const y = b[j] as number;
      tmp[y] = (P2.p[j] as number) * w2;
      verts[nb++] = y;
    }
  } else {
    for (; i < P1.size; i++) {
      const x = a[i] as number;
      tmp[x] = (P1.p[i] as number) * w1;
      verts[nb++] = x;
    }
  }
  if (nb > Math.floor(n / 2)) {
    const p = new Float64Array(n);
    for (let k = 0; k < nb; k++) p[verts[k] as number] = tmp[verts[k] as number] as number;
    return { size: n, p, vertices: null };
  }
  const p = new Float64Array(nb);
  const vertices = new Int32Array(nb);
  for (let k = 0; k < nb; k++) {
    vertices[k] = verts[k] as number;
    p[k] = tmp[verts[k] as number] as number;
  }
  return { size: nb, p, vertices };
}

/** The squared distance between two vectors, summed in the original's order. */
export function distance(A: Probabilities, B: Probabilities): number {
  let r = 0;
  const pa = A.p;
  const pb = B.p;
  const sa = A.size;
  const sb = B.size;
  if (A.vertices) {
    const va = A.vertices;
    if (B.vertices) {
      const vb = B.vertices;
      let i = 0;
      let j = 0;
      while (i < sa && j < sb) {
        const x = va[i] as number;
        const y = vb[j] as number;
        if (x < y) {
          r += (pa[i] as number) * (pa[i] as number);
          i++;
        } else if (x > y) {
          r += (pb[j] as number) * (pb[j] as number);
          j++;
        } else {
          const d = (pa[i] as number) - (pb[j] as number);
          r += d * d;
          i++;
          j++;
        }
      }
      if (i === sa) for (; j < sb; j++) r += (pb[j] as number) * (pb[j] as number);
      else for (; i < sa; i++) r += (pa[i] as number) * (pa[i] as number);
    } else {
      let i = 0;
      for (let j = 0; j < sa; j++) {
        const at = va[j] as number;
        for (; i < at; i++) r += (pb[i] as number) * (pb[i] as number);
        const d = (pa[j] as number) - (pb[i] as number);
        r += d * d;
        i++;
      }
      for (; i < sb; i++) r += (pb[i] as number) * (pb[i] as number);
    }
  } else if (B.vertices) {
    const vb = B.vertices;
    let i = 0;
    for (let j = 0; j < sb; j++) {
      const at = vb[j] as number;
      for (; i < at; i++) r += (pa[i] as number) * (pa[i] as number);
      const d = (pa[i] as number) - (pb[j] as number);
      r += d * d;
      i++;
    }
    for (; i < sa; i++) r += (pa[i] as number) * (pa[i] as number);
  } else {
    for (let i = 0; i < sa; i++) {
      const d = (pa[i] as number) - (pb[i] as number);
      r += d * d;
    }
  }
  return r;
}
