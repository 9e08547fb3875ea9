// Source nodes for betweenness: all of them, or k sampled without replacement with a seeded generator
// (cuGraph's and networkx's `k` and `seed`), and batching them through a kernel with progress and cancellation.
import { type ComputeContext, ComputeInputError } from "../../types.ts";

/** mulberry32 over the seed; the same seed picks the same pivots. */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** All n nodes, or k of them sampled (seed null: a fresh random seed). */
export function pickSources(n: number, k: number | null | undefined, seed: number | null | undefined): Int32Array {
  const all = new Int32Array(n);
  for (let i = 0; i < n; i++) all[i] = i;
  if (k === null || k === undefined) return all;
  if (k > n) throw new ComputeInputError(`k (${k}) is larger than the number of nodes (${n})`, "k");
  const next = generator(seed ?? Math.floor(Math.random() * 2 ** 32));
  for (let i = 0; i < k; i++) {
    const j = i + Math.floor(next() * (n - i));
    const t = all[i] as number;
    all[i] = all[j] as number;
    all[j] = t;
  }
  return all.slice(0, k);
}

/** Runs `batch` over slices of `sources`, summing the node and edge scores, reporting progress between slices. */
export function inBatches(
  ctx: ComputeContext,
  phase: string,
  sources: Int32Array,
  n: number,
  links: number,
  batch: (slice: Int32Array) => { node: Float64Array; edge: Float64Array | null },
): { node: Float64Array; edge: Float64Array } {
  const node = new Float64Array(n);
  const edge = new Float64Array(links);
  const size = Math.max(64, Math.ceil(sources.length / 50));
  for (let at = 0; at < sources.length; at += size) {
    ctx.checkCancelled();
    const part = batch(sources.subarray(at, Math.min(sources.length, at + size)));
    for (let i = 0; i < n; i++) node[i] = (node[i] as number) + (part.node[i] as number);
    if (part.edge) for (let j = 0; j < links; j++) edge[j] = (edge[j] as number) + (part.edge[j] as number);
    ctx.progress({ phase, fraction: Math.min(1, (at + size) / sources.length) });
  }
  return { node, edge };
}
