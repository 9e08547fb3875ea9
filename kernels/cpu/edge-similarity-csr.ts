// The similarity family on the CPU straight from the CSR: for each edge, the Jaccard / overlap / Sorensen similarity
// of its endpoints' neighbour sets on the undirected graph, the same values as kernel "edge-similarity"
// (edge-similarity.ts) without its sorted distinct neighbour lists (an int32 per entry, and a float64 per entry when
// weighted: about 1.5x the CSR's own bytes at 1M edges). Only arrays of n entries and the result are allocated.
//
// A node's neighbours are read from its out-edges, then its in-edges (a self-loop's in-edge entry skipped: the loop
// is listed once, so a node with a loop is its own neighbour, its weight counted once per loop edge); repeats (parallel
// edges) are told apart with stamps, and their weights summed. Each edge is scored at the end with more distinct
// neighbours (ties: the smaller row), as the twin does: that end's neighbours are marked once, then the other end's
// are scanned against the marks. Weighted sums may be added in another order than the twin's (CSR order, not row
// order): they agree to rounding.

import type { Csr } from "./csr.ts";

export type EdgeSimilarityCsrArgs = Omit<Csr, "m"> & {
  /** Per edge row; null: every distinct neighbour weighs 1. */
  weight: Float64Array | null;
  /** 0 = Jaccard, 1 = overlap, 2 = Sorensen. */
  metric: number;
};

/**
 * The neighbour entries of r: its out-edges, then its in-edges but a self-loop's. Filled into `entries` (node, edge
 * row) and answered as a count: loops over one flat list stay monomorphic and fast, where a callback per entry would
 * not. `entries` holds 2 * (the largest degree) numbers.
 */
function entriesOf(args: EdgeSimilarityCsrArgs, r: number, entries: Int32Array): number {
  const { outStart, outEdges, outDst, inStart, inEdges, inSrc } = args;
  let k = 0;
  const outEnd = outStart[r + 1] as number;
  for (let j = outStart[r] as number; j < outEnd; j++) {
    entries[k++] = outDst[j] as number;
    entries[k++] = outEdges[j] as number;
  }
  const inEnd = inStart[r + 1] as number;
  for (let j = inStart[r] as number; j < inEnd; j++) {
    const x = inSrc[j] as number;
    if (x === r) continue;
    entries[k++] = x;
    entries[k++] = inEdges[j] as number;
  }
  return k;
}

export function edgeSimilarityCsr(args: EdgeSimilarityCsrArgs): Float64Array {
  const { n, src, dst, outStart, outEdges, outDst, inStart, inEdges, inSrc, weight, metric } = args;
  const out = new Float64Array(src.length);
  let most = 0;
  for (let r = 0; r < n; r++) {
    const d = (outStart[r + 1] as number) - (outStart[r] as number) + (inStart[r + 1] as number) - (inStart[r] as number);
    if (d > most) most = d;
  }
  const entries = new Int32Array(2 * most);
  // stamp[x] === tag: x was met since the current tag was taken (tags only grow, so nothing is ever cleared).
  const stamp = new Int32Array(n).fill(-1);
  let tag = -1;
  const degree = new Int32Array(n);
  const total = new Float64Array(n);
  for (let r = 0; r < n; r++) {
    tag++;
    const k = entriesOf(args, r, entries);
    let distinct = 0;
    let sum = 0;
    for (let i = 0; i < k; i += 2) {
      const x = entries[i] as number;
      if ((stamp[x] as number) !== tag) {
        stamp[x] = tag;
        distinct++;
      }
      if (weight) sum += weight[entries[i + 1] as number] as number;
    }
    degree[r] = distinct;
    total[r] = weight ? sum : distinct;
  }
  // The marked end b: markStamp[x] === b for its neighbours x, mark[x] its summed weight to x (weighted only).
  const markStamp = new Int32Array(n).fill(-1);
  const mark = weight ? new Float64Array(n) : new Float64Array(0);
  // The scanned end's summed weight to each shared neighbour, and those neighbours in the order first met.
  const acc = weight ? new Float64Array(n) : new Float64Array(0);
  const met = weight ? new Int32Array(most) : new Int32Array(0);
  // The current marked end and its distinct neighbour count.
  let b = 0;
  let db = 0;
  /** Unweighted: the distinct neighbours of o that b has (only shared ones are stamped). */
  const sharedCount = (o: number): number => {
    tag++;
    let shared = 0;
    const outEnd = outStart[o + 1] as number;
    for (let j = outStart[o] as number; j < outEnd; j++) {
      const x = outDst[j] as number;
      if ((markStamp[x] as number) === b && (stamp[x] as number) !== tag) {
        stamp[x] = tag;
        shared++;
      }
    }
    // A self-loop's in-edge entry names o again: the stamp drops it like any repeat.
    const inEnd = inStart[o + 1] as number;
    for (let j = inStart[o] as number; j < inEnd; j++) {
      const x = inSrc[j] as number;
      if ((markStamp[x] as number) === b && (stamp[x] as number) !== tag) {
        stamp[x] = tag;
        shared++;
      }
    }
    return shared;
  };
  /** Weighted: over the neighbours x of o that b has, the sum of min(w(o, x), w(b, x)) (parallel edges summed first). */
  const sharedWeight = (o: number, w: Float64Array): number => {
    tag++;
    let count = 0;
    const outEnd = outStart[o + 1] as number;
    for (let j = outStart[o] as number; j < outEnd; j++) {
      const x = outDst[j] as number;
      if ((markStamp[x] as number) !== b) continue;
      const value = w[outEdges[j] as number] as number;
      if ((stamp[x] as number) === tag) acc[x] = (acc[x] as number) + value;
      else {
        stamp[x] = tag;
        acc[x] = value;
        met[count++] = x;
      }
    }
    const inEnd = inStart[o + 1] as number;
    for (let j = inStart[o] as number; j < inEnd; j++) {
      const x = inSrc[j] as number;
      if (x === o || (markStamp[x] as number) !== b) continue;
      const value = w[inEdges[j] as number] as number;
      if ((stamp[x] as number) === tag) acc[x] = (acc[x] as number) + value;
      else {
        stamp[x] = tag;
        acc[x] = value;
        met[count++] = x;
      }
    }
    let shared = 0;
    for (let i = 0; i < count; i++) {
      const x = met[i] as number;
      const a = acc[x] as number;
      const c = mark[x] as number;
      shared += a < c ? a : c;
    }
    return shared;
  };
  const scoreAt = (e: number) => {
    const u = src[e] as number;
    const v = dst[e] as number;
    const o = u === b ? v : u;
    const dO = degree[o] as number;
    // Scored at the end with more distinct neighbours (ties: the smaller row) only.
    if (dO > db || (dO === db && o < b)) return;
    const shared = weight ? sharedWeight(o, weight) : sharedCount(o);
    const tb = total[b] as number;
    const to = total[o] as number;
    if (metric === 0) out[e] = shared / (tb + to - shared);
    else if (metric === 1) out[e] = shared / (tb < to ? tb : to);
    else out[e] = (2 * shared) / (tb + to);
  };
  for (b = 0; b < n; b++) {
    const outEnd = outStart[b + 1] as number;
    const inEnd = inStart[b + 1] as number;
    if (outEnd === (outStart[b] as number) && inEnd === (inStart[b] as number)) continue;
    const kb = entriesOf(args, b, entries);
    for (let i = 0; i < kb; i += 2) {
      const x = entries[i] as number;
      if (!weight) markStamp[x] = b;
      else {
        const w = weight[entries[i + 1] as number] as number;
        if ((markStamp[x] as number) !== b) {
          markStamp[x] = b;
          mark[x] = w;
        } else mark[x] = (mark[x] as number) + w;
      }
    }
    db = degree[b] as number;
    // Every edge at b (a self-loop twice: scored twice, to the same value).
    for (let j = outStart[b] as number; j < outEnd; j++) scoreAt(outEdges[j] as number);
    for (let j = inStart[b] as number; j < inEnd; j++) scoreAt(inEdges[j] as number);
  }
  return out;
}
