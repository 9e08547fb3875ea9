// The Lanczos solver (eigen.ts) against a dense Jacobi solve of the same matrix, with its float64 basis and with the
// float32, smaller basis the spectral clusterings use: the same leading eigenpairs within the tolerance asked.
import { describe, expect, it } from "vitest";
import { jacobiEigen, largestEigen } from "../../src/compute/algorithms/modularity/eigen.ts";
import { rng } from "../../src/compute/algorithms/modularity/rng.ts";

/** A symmetric sparse matrix (a random graph's adjacency, weighted, with a diagonal) as rows of (column, value). */
function randomSymmetric(n: number, perRow: number, seed: number) {
  const r = rng(seed);
  const dense = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    dense[i * n + i] = r.next() - 0.5;
    for (let e = 0; e < perRow; e++) {
      const j = r.below(n);
      if (j === i) continue;
      const w = r.next();
      dense[i * n + j] = (dense[i * n + j] as number) + w;
      dense[j * n + i] = (dense[j * n + i] as number) + w;
    }
  }
  const apply = (x: Float64Array, y: Float64Array) => {
    for (let i = 0; i < n; i++) {
      let s = 0;
      for (let j = 0; j < n; j++) s += (dense[i * n + j] as number) * (x[j] as number);
      y[i] = s;
    }
  };
  return { dense, apply };
}

const dot = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i] as number) * (b[i] as number);
  return s;
};

describe("largestEigen", () => {
  const n = 240;
  const k = 3;
  const { dense, apply } = randomSymmetric(n, 4, 7);
  const exact = jacobiEigen(dense, n);

  it.each([
    ["float64, the default basis", {}],
    ["float32, a basis of 2k + 8", { float32: true, basisSize: 2 * k + 8 }],
  ])("%s: the k largest eigenpairs of the dense solve, residuals within the tolerance", (_, options) => {
    const tol = 1e-5;
    const found = largestEigen(n, apply, { k, tol, maxRestarts: 200, rng: rng(1), ...options });
    expect(found.converged).toBe(true);
    const scale = Math.max(Math.abs(exact.values[0] as number), Math.abs(exact.values[n - 1] as number));
    const y = new Float64Array(n);
    for (let j = 0; j < k; j++) {
      expect(Math.abs((found.values[j] as number) - (exact.values[j] as number))).toBeLessThan(1e-6 * scale);
      const v = Float64Array.from(found.vectors[j] as ArrayLike<number>);
      expect(Math.abs(Math.sqrt(dot(v, v)) - 1)).toBeLessThan(1e-6);
      // Against the dense solve's eigenvector (up to sign): the gaps here are wide, so the vectors agree closely.
      const reference = Float64Array.from({ length: n }, (_, i) => exact.vecs[i * n + j] as number);
      expect(Math.abs(dot(v, reference))).toBeGreaterThan(1 - 1e-6);
      apply(v, y);
      let residual = 0;
      for (let i = 0; i < n; i++) residual += ((y[i] as number) - (found.values[j] as number) * (v[i] as number)) ** 2;
      expect(Math.sqrt(residual)).toBeLessThan(10 * tol * scale);
    }
  });

  it("keeps the basis as float32 arrays when asked", () => {
    const found = largestEigen(n, apply, { k: 2, tol: 1e-5, maxRestarts: 200, rng: rng(3), float32: true, basisSize: 12 });
    expect(found.vectors[0]).toBeInstanceOf(Float32Array);
    expect(largestEigen(n, apply, { k: 2, tol: 1e-5, maxRestarts: 200, rng: rng(3) }).vectors[0]).toBeInstanceOf(Float64Array);
  });
});
