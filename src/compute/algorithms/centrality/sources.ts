// Source nodes for the all-sources kernels (betweenness, distance sums): all of them, or k sampled without
// replacement with a seeded generator (cuGraph's and networkx's `k` and `seed`), run in slices with progress and
// cancellation between slices, and on the CPU backend split across a kernel pool when the work is large.
import { type ComputeContext, ComputeInputError } from "../../types.ts";
import { type KernelPool, kernelPool, poolMinimum, poolThreads } from "./threads.ts";

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

/** A kernel over a slice of sources: where it lives (for pool threads), this thread's copy, its other arguments. */
export type SourceKernel<A extends { sources: Int32Array }, R> = {
  /** The kernel's name (ctx.kernel) and the module and export holding its CPU twin. */
  name: string;
  module: URL;
  exportName: string;
  local: (args: A) => R;
  base: Omit<A, "sources">;
  /** Work per source, roughly (nodes + adjacency entries): large totals are split across threads. */
  perSource: number;
  /** No OpenCL version exists: the pool splits it on either backend. */
  cpuOnly?: boolean;
};

/** Work (sources x per-source) above which a pool pays for its start-up. */
const POOL_WORK = 2e8;

/**
 * Runs the kernel over `sources` in slices, calling take(result, offset of the slice in sources) for each; on the
 * CPU backend the slices of a round run on a kernel pool's threads at once.
 */
export function overSources<A extends { sources: Int32Array }, R>(
  ctx: ComputeContext,
  phase: string,
  kernel: SourceKernel<A, R>,
  sources: Int32Array,
  take: (result: R, offset: number) => void,
): void {
  const threads = poolThreads();
  const parallel =
    (ctx.backend === "cpu" || kernel.cpuOnly === true) && threads > 1 && sources.length * kernel.perSource >= poolMinimum(POOL_WORK);
  const run = parallel ? kernel.local : ctx.kernel(kernel.name, kernel.local);
  let pool: KernelPool<A, R> | undefined;
  try {
    if (parallel) pool = kernelPool<A, R>(kernel.module, kernel.exportName, kernel.base as A, kernel.local, threads);
    const width = pool ? pool.size : 1;
    const rounds = pool ? 10 : 50;
    const slice = Math.max(pool ? 1 : 64, Math.ceil(sources.length / (rounds * width)));
    for (let at = 0; at < sources.length; ) {
      ctx.checkCancelled();
      const parts: { sources: Int32Array; offset: number }[] = [];
      for (let t = 0; t < width && at < sources.length; t++, at += slice) {
        parts.push({ sources: sources.subarray(at, Math.min(sources.length, at + slice)), offset: at });
      }
      if (pool) {
        const results = pool.run(parts.map((p) => ({ sources: p.sources.slice() }) as Partial<A>));
        for (const [i, result] of results.entries()) take(result, (parts[i] as { offset: number }).offset);
      } else {
        for (const p of parts) take(run({ ...kernel.base, sources: p.sources } as A), p.offset);
      }
      ctx.progress({ phase, fraction: Math.min(1, at / sources.length) });
    }
  } finally {
    pool?.close();
  }
}

/** Sums node and edge scores over slices (the betweenness kernels' results). */
export function summed(
  n: number,
  links: number,
): {
  node: Float64Array;
  edge: Float64Array;
  take: (part: { node: Float64Array; edge: Float64Array | null }) => void;
} {
  const node = new Float64Array(n);
  const edge = new Float64Array(links);
  return {
    node,
    edge,
    take(part) {
      for (let i = 0; i < n; i++) node[i] = (node[i] as number) + (part.node[i] as number);
      if (part.edge) for (let j = 0; j < links; j++) edge[j] = (edge[j] as number) + (part.edge[j] as number);
    },
  };
}
