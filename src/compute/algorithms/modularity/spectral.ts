// cuGraph's spectral clusterings: an embedding by the leading eigenvectors (Lanczos) of the modularity matrix
// (modularity maximisation) or of the normalised adjacency D^-1/2 A D^-1/2 (balanced cut: the smallest of the
// normalised Laplacian), then k-means on the embedding's rows.
import type { ComputeGraph } from "../../../../kernels/cpu/csr.ts";
import { spmv, spmvUndirectedCsr } from "../../../../kernels/cpu/spmv.ts";
import type { ComputeContext } from "../../types.ts";
import { largestEigen, type Vector } from "./eigen.ts";
import { loopsAndStrengths, type WGraph } from "./graph.ts";
import { kmeans } from "./kmeans.ts";
import { rng } from "./rng.ts";

export type SpectralOptions = {
  clusters: number;
  eigenVectors: number;
  evsTolerance: number;
  evsMaxIter: number;
  kmeansTolerance: number;
  kmeansMaxIter: number;
  seed: number;
};

/**
 * What the clusterings read of the graph: its size, each node's loop term and strength, their total, and the product
 * with its adjacency less the loops (y = A x, into y; x float64, or a float32 basis vector as the solver stores it).
 */
export type SpectralGraph = {
  n: number;
  loop: Float64Array;
  strength: Float64Array;
  total: number;
  product(x: Vector, y: Float64Array): void;
};

/** The modularity graph with its products on the "spmv" kernel (OpenCL when the run's backend has it). */
export function viewOperator(g: WGraph, ctx: ComputeContext): SpectralGraph {
  const { n, start, nbr } = g;
  // The spmv kernel takes float64 weights (only aggregates and ECG have others), and a float64 vector.
  const weight = g.w === null || g.w instanceof Float64Array ? g.w : Float64Array.from(g.w);
  const kernel = ctx.kernel("spmv", spmv);
  let wide: Float64Array | undefined;
  return {
    ...g,
    product: (x, y) => {
      let input: Float64Array;
      if (x instanceof Float64Array) input = x;
      else {
        wide ??= new Float64Array(n);
        wide.set(x);
        input = wide;
      }
      void kernel({ n, start, nbr, weight, x: input, y });
    },
  };
}

/**
 * The same graph read straight from the CSR on the CPU (spmvUndirectedCsr): no undirected view, no weight per entry.
 * Loops and strengths as weightedUndirected counts them (graph.ts).
 */
export function csrOperator(graph: ComputeGraph, weights: Float64Array | null): SpectralGraph {
  return {
    n: graph.n,
    ...loopsAndStrengths(graph, weights),
    product: (x, y) => void spmvUndirectedCsr({ ...graph, weight: weights, x, y }),
  };
}

export function spectralClustering(g: SpectralGraph, kind: "modularity" | "balanced", o: SpectralOptions, ctx: ComputeContext): Int32Array {
  const { n, strength, loop, total } = g;
  if (n === 0) return new Int32Array(0);
  const r = rng(o.seed);
  // The solver's basis in float32 where the tolerance allows (the memory is mostly the basis: see below).
  const float32 = o.evsTolerance >= 1e-6;
  // Balanced cut's operator is D^-1/2 A D^-1/2: x scaled first (into its own array), the product scaled after; the
  // scaling and the scaled vector as precise as the basis.
  const balanced = kind === "balanced";
  const inv = balanced ? (float32 ? new Float32Array(n) : new Float64Array(n)) : undefined;
  if (inv) for (let v = 0; v < n; v++) inv[v] = (strength[v] as number) > 0 ? 1 / Math.sqrt(strength[v] as number) : 0;
  const scaledX = balanced ? (float32 ? new Float32Array(n) : new Float64Array(n)) : undefined;
  const apply = (x: Vector, y: Float64Array) => {
    let input = x;
    if (inv && scaledX) {
      for (let v = 0; v < n; v++) scaledX[v] = (inv[v] as number) * (x[v] as number);
      input = scaledX;
    }
    // Straight into y, the loops added after (no array of its own for the product).
    g.product(input, y);
    for (let v = 0; v < n; v++) y[v] = (y[v] as number) + (loop[v] as number) * (input[v] as number);
    if (inv) {
      for (let v = 0; v < n; v++) y[v] = (inv[v] as number) * (y[v] as number);
      return;
    }
    if (total <= 0) return;
    let kx = 0;
    for (let v = 0; v < n; v++) kx += (strength[v] as number) * (x[v] as number);
    const f = kx / total;
    for (let v = 0; v < n; v++) y[v] = (y[v] as number) - (strength[v] as number) * f;
  };
  ctx.progress({ phase: "eigenvectors" });
  const d = Math.max(1, Math.min(o.eigenVectors, n));
  // The basis is the solver's memory: float32 (the tolerance, cuGraph's 1e-5 by default, is far above its rounding)
  // and 2d + 8 vectors rather than 2d + 10 and at least 20. At 1M edges (d = 2) the basis took 16.8 MB, about the
  // CSR's own bytes; now 5.2 MB, and the solve is faster (fewer vectors to orthogonalise against between restarts).
  const eig = largestEigen(n, apply, {
    k: d,
    tol: o.evsTolerance,
    maxRestarts: o.evsMaxIter,
    rng: r,
    float32,
    basisSize: Math.max(2 * d + 8, 12),
  });
  ctx.checkCancelled();
  // The embedding is the eigenvectors themselves (balanced cut's scaled back by D^-1/2, in place).
  if (inv) for (const vec of eig.vectors) for (let v = 0; v < n; v++) vec[v] = (vec[v] as number) * (inv[v] as number);
  ctx.progress({ phase: "k-means" });
  return kmeans(eig.vectors, n, { k: o.clusters, tol: o.kmeansTolerance, maxIter: o.kmeansMaxIter, rng: r, scratch: eig.spare });
}
