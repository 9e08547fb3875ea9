// bench/compute: the quality figures the targets read: modularity of a membership, Spearman rank correlation.
import type { BenchGraph } from "./graph-file.ts";

/** Newman modularity of `membership` (one community per node row) on the graph read undirected, unweighted. */
export function modularity(g: Pick<BenchGraph, "n" | "m" | "src" | "dst">, membership: ArrayLike<number>): number {
  const dense = new Int32Array(g.n);
  const ids = new Map<number, number>();
  for (let i = 0; i < g.n; i++) {
    const c = membership[i] as number;
    let id = ids.get(c);
    if (id === undefined) {
      id = ids.size;
      ids.set(c, id);
    }
    dense[i] = id;
  }
  const inside = new Float64Array(ids.size);
  const degree = new Float64Array(ids.size);
  for (let e = 0; e < g.m; e++) {
    const a = dense[g.src[e] as number] as number;
    const b = dense[g.dst[e] as number] as number;
    degree[a] = (degree[a] as number) + 1;
    degree[b] = (degree[b] as number) + 1;
    if (a === b) inside[a] = (inside[a] as number) + 1;
  }
  let q = 0;
  const m2 = 2 * g.m;
  for (let c = 0; c < ids.size; c++) q += (2 * (inside[c] as number)) / m2 - ((degree[c] as number) / m2) ** 2;
  return q;
}

/** Ranks 1..n, ties sharing their average rank. */
function ranks(values: ArrayLike<number>): Float64Array {
  const order = Array.from({ length: values.length }, (_, i) => i).sort((a, b) => (values[a] as number) - (values[b] as number));
  const out = new Float64Array(values.length);
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j + 1 < order.length && values[order[j + 1] as number] === values[order[i] as number]) j++;
    const rank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) out[order[k] as number] = rank;
    i = j + 1;
  }
  return out;
}

/** Spearman's rank correlation (Pearson's over tie-averaged ranks); NaN values count as 0. */
export function spearman(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) throw new Error("spearman: lengths differ");
  const clean = (v: ArrayLike<number>) => Float64Array.from({ length: v.length }, (_, i) => (Number.isFinite(v[i]) ? (v[i] as number) : 0));
  const ra = ranks(clean(a));
  const rb = ranks(clean(b));
  const n = ra.length;
  const mean = (n + 1) / 2;
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  for (let i = 0; i < n; i++) {
    const x = (ra[i] as number) - mean;
    const y = (rb[i] as number) - mean;
    sab += x * y;
    saa += x * x;
    sbb += y * y;
  }
  return sab / Math.sqrt(saa * sbb);
}
