// Walktrap's view of the graph (Pons & Latapy as igraph builds it): undirected, multi-edges merged, and a self-loop
// on every vertex weighing its mean incident edge weight (1 for an isolated vertex).
import type { ComputeGraph } from "../../../../kernels/cpu/csr.ts";

export type WalkGraph = {
  n: number;
  /** Each vertex's neighbours (itself included), ascending, with merged weights: nbr/w[start[v] .. start[v + 1]). */
  start: Int32Array;
  nbr: Int32Array;
  w: Float64Array;
  /** Each vertex's strength, its own loop included. */
  strength: Float64Array;
  /** The sum of the input edge weights. */
  total: number;
  /** Input edges (the heap's capacity). */
  m: number;
};

export function walkGraph(graph: ComputeGraph, weights: Float64Array | null): WalkGraph {
  const { n, m, src, dst } = graph;
  const deg = new Int32Array(n);
  const strength = new Float64Array(n);
  let total = 0;
  for (let e = 0; e < m; e++) {
    const a = src[e] as number;
    const b = dst[e] as number;
    const w = weights ? (weights[e] as number) : 1;
    deg[a] = (deg[a] as number) + 1;
    deg[b] = (deg[b] as number) + 1;
    strength[a] = (strength[a] as number) + w;
    strength[b] = (strength[b] as number) + w;
    total += w;
  }
  // Every endpoint listed once, plus the added loop, then sorted by neighbour (stable) and merged.
  const rawStart = new Int32Array(n + 1);
  for (let v = 0; v < n; v++) rawStart[v + 1] = (rawStart[v] as number) + (deg[v] as number) + 1;
  const rawNbr = new Int32Array(rawStart[n] as number);
  const rawW = new Float64Array(rawStart[n] as number);
  const fill = new Int32Array(n);
  for (let v = 0; v < n; v++) {
    const d = deg[v] as number;
    const loop = d === 0 ? 1 : (strength[v] as number) / d;
    const at = rawStart[v] as number;
    rawNbr[at] = v;
    rawW[at] = loop;
    strength[v] = (strength[v] as number) + loop;
    fill[v] = at + 1;
  }
  for (let e = 0; e < m; e++) {
    const a = src[e] as number;
    const b = dst[e] as number;
    const w = weights ? (weights[e] as number) : 1;
    let k = fill[a] as number;
    rawNbr[k] = b;
    rawW[k] = w;
    fill[a] = k + 1;
    k = fill[b] as number;
    rawNbr[k] = a;
    rawW[k] = w;
    fill[b] = k + 1;
  }
  const start = new Int32Array(n + 1);
  const nbr = new Int32Array(rawNbr.length);
  const w = new Float64Array(rawNbr.length);
  const order: number[] = [];
  let out = 0;
  for (let v = 0; v < n; v++) {
    const lo = rawStart[v] as number;
    const hi = rawStart[v + 1] as number;
    order.length = 0;
    for (let k = lo; k < hi; k++) order.push(k);
    order.sort((x, y) => (rawNbr[x] as number) - (rawNbr[y] as number) || x - y);
    start[v] = out;
    for (let i = 0; i < order.length; i++) {
      const k = order[i] as number;
      const u = rawNbr[k] as number;
      if (out > (start[v] as number) && (nbr[out - 1] as number) === u) w[out - 1] = (w[out - 1] as number) + (rawW[k] as number);
      else {
        nbr[out] = u;
        w[out] = rawW[k] as number;
        out++;
      }
    }
  }
  start[n] = out;
  return { n, start, nbr: nbr.subarray(0, out), w: w.subarray(0, out), strength, total, m };
}
