// Seeded test graphs for the kernel suites: skewed (power-law-like) random graphs with isolated nodes, self-loops
// and parallel edges, as CSR over node rows.
import { buildCsr, type Csr } from "../../kernels/cpu/csr.ts";
import { seeded } from "../helpers/seeded.ts";

/** n nodes, m edges whose endpoints favour low rows (squared uniform), the last tenth of the rows left isolated. */
export function skewedGraph(seed: number, n: number, m: number): Csr {
  const rng = seeded(seed);
  const live = Math.max(1, Math.floor(n * 0.9));
  const src = new Int32Array(m);
  const dst = new Int32Array(m);
  for (let e = 0; e < m; e++) {
    src[e] = Math.floor(rng.next() ** 2 * live);
    dst[e] = Math.floor(rng.next() * live);
  }
  return buildCsr(n, src, dst);
}

/** Seeded positive weights, one per edge, in (0.1, 5). */
export function weights(seed: number, m: number): Float64Array {
  const rng = seeded(seed);
  const w = new Float64Array(m);
  for (let e = 0; e < m; e++) w[e] = 0.1 + 4.9 * rng.next();
  return w;
}

/** Relative difference |a - b| / max(|a|, |b|, tiny), the suites' tolerance measure. */
export function relDiff(a: number, b: number): number {
  if (a === b) return 0;
  return Math.abs(a - b) / Math.max(Math.abs(a), Math.abs(b), 1e-300);
}

export function maxRelDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) return Number.POSITIVE_INFINITY;
  let worst = 0;
  for (let i = 0; i < a.length; i++) {
    const d = Number.isNaN(a[i] as number) && Number.isNaN(b[i] as number) ? 0 : relDiff(a[i] as number, b[i] as number);
    if (!(d <= worst)) worst = d;
  }
  return worst;
}
