// bench/compute: seeded power-law (Chung-Lu) graphs, written to one binary file that our runner, graphology and
// python-igraph all read, so every library times the same graph.
//
// File layout (little-endian): int32 header [MAGIC, n, m, hub], int32 src[m], int32 dst[m], float64 weight[m].
// Edges are simple (no self-loops, no pair twice in either direction), randomly oriented and shuffled; node rows
// are a seeded permutation of the Chung-Lu indices, `hub` the row of the highest-weight node (the source for BFS/SSSP).
import { closeSync, openSync, readSync, writeFileSync } from "node:fs";
import { seeded } from "../../test/helpers/seeded.ts";

const MAGIC = 0x43475248;
const HEADER = 16;

export type BenchGraph = { n: number; m: number; hub: number; src: Int32Array; dst: Int32Array; weight: Float64Array };

/**
 * Chung-Lu: node i has expected degree proportional to (i + 1)^(-1 / (gamma - 1)); each candidate edge picks both
 * ends by that weight. Candidates are drawn until m distinct undirected pairs exist.
 */
export function powerLawGraph(m: number, n: number, seed: number, gamma = 2.5): BenchGraph {
  const rng = seeded(seed);
  const beta = 1 / (gamma - 1);
  const cdf = new Float64Array(n);
  let total = 0;
  for (let i = 0; i < n; i++) {
    total += (i + 1) ** -beta;
    cdf[i] = total;
  }
  const pick = (): number => {
    const x = rng.next() * total;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((cdf[mid] as number) < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  // Distinct unordered pairs as keys lo * n + hi (exact in a double while n^2 < 2^53).
  let keys = new Float64Array(0);
  while (keys.length < m) {
    const want = Math.ceil((m - keys.length) * 1.08) + 16;
    const more = new Float64Array(keys.length + want);
    more.set(keys);
    let k = keys.length;
    for (let t = 0; t < want; t++) {
      const a = pick();
      const b = pick();
      if (a === b) continue;
      more[k++] = a < b ? a * n + b : b * n + a;
    }
    const sorted = more.subarray(0, k).sort();
    let u = 0;
    for (let i = 0; i < sorted.length; i++) {
      if (i === 0 || sorted[i] !== sorted[i - 1]) sorted[u++] = sorted[i] as number;
    }
    keys = sorted.slice(0, u);
  }
  // Shuffle the pairs (Fisher-Yates), keep m, orient each at random, and relabel nodes by a seeded permutation.
  for (let i = keys.length - 1; i > 0; i--) {
    const j = Math.floor(rng.next() * (i + 1));
    const t = keys[i] as number;
    keys[i] = keys[j] as number;
    keys[j] = t;
  }
  const perm = new Int32Array(n);
  for (let i = 0; i < n; i++) perm[i] = i;
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rng.next() * (i + 1));
    const t = perm[i] as number;
    perm[i] = perm[j] as number;
    perm[j] = t;
  }
  const src = new Int32Array(m);
  const dst = new Int32Array(m);
  const weight = new Float64Array(m);
  for (let e = 0; e < m; e++) {
    const key = keys[e] as number;
    const lo = Math.floor(key / n);
    const hi = key - lo * n;
    const flip = rng.next() < 0.5;
    src[e] = perm[flip ? hi : lo] as number;
    dst[e] = perm[flip ? lo : hi] as number;
    weight[e] = 1 + Math.floor(rng.next() * 1000) / 100;
  }
  return { n, m, hub: perm[0] as number, src, dst, weight };
}

/** The largest weakly connected component, relabelled to rows 0..n'-1 (for algorithms that refuse disconnected graphs). */
export function largestComponent(g: BenchGraph): BenchGraph {
  const parent = new Int32Array(g.n);
  for (let i = 0; i < g.n; i++) parent[i] = i;
  const find = (x: number): number => {
    let r = x;
    while (parent[r] !== r) r = parent[r] as number;
    while (parent[x] !== r) {
      const next = parent[x] as number;
      parent[x] = r;
      x = next;
    }
    return r;
  };
  for (let e = 0; e < g.m; e++) {
    const a = find(g.src[e] as number);
    const b = find(g.dst[e] as number);
    if (a !== b) parent[a] = b;
  }
  const size = new Int32Array(g.n);
  for (let i = 0; i < g.n; i++) {
    const r = find(i);
    size[r] = (size[r] as number) + 1;
  }
  let best = 0;
  for (let i = 0; i < g.n; i++) if ((size[i] as number) > (size[best] as number)) best = i;
  const row = new Int32Array(g.n).fill(-1);
  let n = 0;
  for (let i = 0; i < g.n; i++) if (find(i) === best) row[i] = n++;
  let m = 0;
  for (let e = 0; e < g.m; e++) if ((row[g.src[e] as number] as number) >= 0) m++;
  const src = new Int32Array(m);
  const dst = new Int32Array(m);
  const weight = new Float64Array(m);
  let k = 0;
  for (let e = 0; e < g.m; e++) {
    const s = row[g.src[e] as number] as number;
    if (s < 0) continue;
    src[k] = s;
    dst[k] = row[g.dst[e] as number] as number;
    weight[k++] = g.weight[e] as number;
  }
  const hub = (row[g.hub] as number) >= 0 ? (row[g.hub] as number) : 0;
  return { n, m, hub, src, dst, weight };
}

export function writeGraph(file: string, g: BenchGraph): void {
  const bytes = new Uint8Array(HEADER + g.m * 16);
  const view = new DataView(bytes.buffer);
  view.setInt32(0, MAGIC, true);
  view.setInt32(4, g.n, true);
  view.setInt32(8, g.m, true);
  view.setInt32(12, g.hub, true);
  bytes.set(new Uint8Array(g.src.buffer, g.src.byteOffset, g.src.byteLength), HEADER);
  bytes.set(new Uint8Array(g.dst.buffer, g.dst.byteOffset, g.dst.byteLength), HEADER + g.m * 4);
  bytes.set(new Uint8Array(g.weight.buffer, g.weight.byteOffset, g.weight.byteLength), HEADER + g.m * 8);
  writeFileSync(file, bytes);
}

/**
 * The tables back from the file, each read straight into its own array (as a dataset's columns would be held):
 * no whole-file buffer is read and dropped, so no freed memory stays resident under the memory baseline.
 */
export function readGraph(file: string): BenchGraph {
  const fd = openSync(file, "r");
  try {
    const header = new Int32Array(HEADER / 4);
    const into = (view: ArrayBufferView, position: number) => {
      const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
      for (let done = 0; done < bytes.length; ) {
        const got = readSync(fd, bytes, done, bytes.length - done, position + done);
        if (got === 0) throw new Error(`${file} is shorter than its header says`);
        done += got;
      }
    };
    into(header, 0);
    const [magic, n = 0, m = 0, hub = 0] = header;
    if (magic !== MAGIC) throw new Error(`${file} is not a bench graph`);
    const src = new Int32Array(m);
    const dst = new Int32Array(m);
    const weight = new Float64Array(m);
    into(src, HEADER);
    into(dst, HEADER + m * 4);
    into(weight, HEADER + m * 8);
    return { n, m, hub, src, dst, weight };
  } finally {
    closeSync(fd);
  }
}
