// The largest eigenpairs of a symmetric operator given as a matrix-vector product: thick-restart Lanczos with full
// reorthogonalisation (Krylov-Schur for symmetric matrices), and a Jacobi eigensolver for the small projected matrix.
import type { Rng } from "./rng.ts";

/** Eigenvalues (descending) and eigenvectors (columns: vecs[i * m + j] = component i of vector j) of a dense m×m symmetric matrix. */
export function jacobiEigen(matrix: Float64Array, m: number): { values: Float64Array; vecs: Float64Array } {
  const a = matrix.slice();
  const v = new Float64Array(m * m);
  for (let i = 0; i < m; i++) v[i * m + i] = 1;
  for (let sweep = 0; sweep < 100; sweep++) {
    let off = 0;
    for (let p = 0; p < m; p++) for (let q = p + 1; q < m; q++) off += (a[p * m + q] as number) ** 2;
    if (off < 1e-30) break;
    for (let p = 0; p < m; p++)
      for (let q = p + 1; q < m; q++) {
        const apq = a[p * m + q] as number;
        if (Math.abs(apq) < 1e-300) continue;
        const app = a[p * m + p] as number;
        const aqq = a[q * m + q] as number;
        const theta = (aqq - app) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < m; k++) {
          const akp = a[k * m + p] as number;
          const akq = a[k * m + q] as number;
          a[k * m + p] = c * akp - s * akq;
          a[k * m + q] = s * akp + c * akq;
        }
        for (let k = 0; k < m; k++) {
          const apk = a[p * m + k] as number;
          const aqk = a[q * m + k] as number;
          a[p * m + k] = c * apk - s * aqk;
          a[q * m + k] = s * apk + c * aqk;
        }
        for (let k = 0; k < m; k++) {
          const vkp = v[k * m + p] as number;
          const vkq = v[k * m + q] as number;
          v[k * m + p] = c * vkp - s * vkq;
          v[k * m + q] = s * vkp + c * vkq;
        }
      }
  }
  const order = Array.from({ length: m }, (_, i) => i).sort((x, y) => (a[y * m + y] as number) - (a[x * m + x] as number));
  const values = new Float64Array(m);
  const vecs = new Float64Array(m * m);
  for (let j = 0; j < m; j++) {
    const src = order[j] as number;
    values[j] = a[src * m + src] as number;
    for (let i = 0; i < m; i++) vecs[i * m + j] = v[i * m + src] as number;
  }
  return { values, vecs };
}

export type Vector = Float64Array | Float32Array;

/**
 * y = M x. Given the basis vectors as stored: float64, or float32 with `float32` (an operator that only ever runs
 * with a float64 basis may take Float64Array alone; method syntax lets it).
 */
type Apply = { product(x: Vector, y: Float64Array): void }["product"];

export type EigenOptions = {
  /** Eigenpairs wanted (the largest algebraic). */
  k: number;
  /** Residual tolerance, relative to the largest |eigenvalue|. */
  tol: number;
  /** Restarts at most. */
  maxRestarts: number;
  rng: Rng;
  /** A start vector (else random). */
  start?: Float64Array;
  /**
   * The basis kept as float32: half its memory (the basis is most of the solver's), with residuals good to about
   * 1e-6 of the largest eigenvalue; for tolerances looser than that (cuGraph's spectral clusterings, 1e-5).
   */
  float32?: boolean;
  /** Basis vectors (the Krylov subspace's size before a restart); default max(2k + 10, 20). */
  basisSize?: number;
};

/**
 * The k largest eigenpairs of the symmetric n×n operator `apply(x, y)` (y = M x). Answers values (descending) and
 * vectors (vectors[j] of length n, unit norm), whether every residual met the tolerance, and an array of n numbers
 * the solver no longer uses (`spare`).
 */
export function largestEigen(
  n: number,
  apply: Apply,
  o: EigenOptions,
): { values: Float64Array; vectors: Vector[]; converged: boolean; spare: Float64Array } {
  const k = Math.min(o.k, n);
  const m = Math.min(n, Math.max(o.basisSize ?? Math.max(2 * k + 10, 20), k + 2));
  const basis: Vector[] = [];
  for (let j = 0; j <= m; j++) basis.push(o.float32 ? new Float32Array(n) : new Float64Array(n));
  const h = new Float64Array(m * m);
  const w = new Float64Array(n);
  const first = basis[0] as Vector;
  if (o.start && o.start.length === n) first.set(o.start);
  else for (let i = 0; i < n; i++) first[i] = o.rng.next() - 0.5;
  if (!normalize(first)) for (let i = 0; i < n; i++) first[i] = 1;
  normalize(first);
  let kept = 0;
  let values = new Float64Array(k);
  let vectors: Vector[] = [];
  let converged = false;
  // The norm of the residual after the last basis vector: it couples the Ritz vectors to the next one.
  let lastBeta = 0;
  for (let restart = 0; restart <= o.maxRestarts; restart++) {
    let size = m;
    for (let j = kept; j < m; j++) {
      const vj = basis[j] as Vector;
      // A float32 basis vector goes to the product as it is (`apply` takes either).
      apply(vj, w);
      // Full Gram-Schmidt against every basis vector so far; a second pass only when the first cancelled most of
      // w (Kahan's "twice is enough").
      const before = Math.sqrt(dot(w, w));
      for (let pass = 0; pass < 2; pass++) {
        for (let i = 0; i <= j; i++) {
          const vi = basis[i] as Vector;
          const d = dot(vi, w);
          if (pass === 0) {
            h[i * m + j] = d;
            h[j * m + i] = d;
          } else {
            h[i * m + j] = (h[i * m + j] as number) + d;
            h[j * m + i] = h[i * m + j] as number;
          }
          axpy(-d, vi, w);
        }
        if (pass === 0 && Math.sqrt(dot(w, w)) > 0.7 * before) break;
      }
      const beta = Math.sqrt(dot(w, w));
      const next = basis[j + 1] as Vector;
      if (beta < 1e-12 * Math.max(1, Math.abs(h[j * m + j] as number))) {
        // An invariant subspace: the projection is exact over the first j + 1 vectors.
        size = j + 1;
        next.fill(0);
        break;
      }
      for (let i = 0; i < n; i++) next[i] = (w[i] as number) / beta;
      if (j + 1 < m) {
        h[(j + 1) * m + j] = beta;
        h[j * m + j + 1] = beta;
      } else lastBeta = beta;
    }
    const sub = new Float64Array(size * size);
    for (let i = 0; i < size; i++) for (let j = 0; j < size; j++) sub[i * size + j] = h[i * m + j] as number;
    const eig = jacobiEigen(sub, size);
    const want = Math.min(k, size);
    const scale = Math.max(1e-300, Math.abs(eig.values[0] as number), Math.abs(eig.values[size - 1] as number));
    const betaEnd = size === m ? lastBeta : 0;
    converged = true;
    for (let j = 0; j < want; j++) if (Math.abs(betaEnd * (eig.vecs[(size - 1) * size + j] as number)) > o.tol * scale) converged = false;
    // Ritz vectors: the kept ones become the new basis head (k + a few more to speed convergence), computed in
    // place (each component from the old basis's same component: no n-sized arrays beside the basis).
    const keep = converged || restart === o.maxRestarts || size < m ? want : Math.min(size - 1, k + Math.floor((m - k) / 2));
    ritzInPlace(basis, eig.vecs, size, keep, n);
    values = eig.values.slice(0, want);
    if (converged || restart === o.maxRestarts || size < m) {
      vectors = basis.slice(0, want);
      for (const v of vectors) normalize(v);
      break;
    }
    h.fill(0);
    for (let j = 0; j < keep; j++) {
      h[j * m + j] = eig.values[j] as number;
      const coupling = lastBeta * (eig.vecs[(size - 1) * size + j] as number);
      h[j * m + keep] = coupling;
      h[keep * m + j] = coupling;
    }
    (basis[keep] as Vector).set(basis[m] as Vector);
    kept = keep;
    // Column `keep` is recomputed by projection; its couplings to the kept vectors come out the same.
  }
  // The residual's array, free now: a caller's next step may work in it.
  return { values, vectors, converged, spare: w };
}

/**
 * basis[j] = Σ_l vecs[l][j] · basis[l] for j < keep, over l < size in order (zero coefficients skipped), in place:
 * component by component, the old components read into a small array first.
 */
function ritzInPlace(basis: Vector[], vecs: Float64Array, size: number, keep: number, n: number): void {
  const old = new Float64Array(size);
  for (let x = 0; x < n; x++) {
    for (let l = 0; l < size; l++) old[l] = (basis[l] as Vector)[x] as number;
    for (let j = 0; j < keep; j++) {
      let sum = 0;
      for (let l = 0; l < size; l++) {
        const c = vecs[l * size + j] as number;
        if (c !== 0) sum += c * (old[l] as number);
      }
      (basis[j] as Vector)[x] = sum;
    }
  }
}

function dot(a: Vector, b: Vector): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i] as number) * (b[i] as number);
  return s;
}

function axpy(c: number, x: Vector, y: Vector): void {
  for (let i = 0; i < x.length; i++) y[i] = (y[i] as number) + c * (x[i] as number);
}

function normalize(x: Vector): boolean {
  const norm = Math.sqrt(dot(x, x));
  if (!(norm > 0)) return false;
  for (let i = 0; i < x.length; i++) x[i] = (x[i] as number) / norm;
  return true;
}
