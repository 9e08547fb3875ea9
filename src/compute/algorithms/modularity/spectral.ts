// cuGraph's spectral clusterings: an embedding by the leading eigenvectors (Lanczos) of the modularity matrix
// (modularity maximisation) or of the normalised adjacency D^-1/2 A D^-1/2 (balanced cut: the smallest of the
// normalised Laplacian), then k-means on the embedding's rows.
import type { ComputeGraph } from "../../../../kernels/cpu/csr.ts";
import { spmv, spmvUndirectedCsr } from "../../../../kernels/cpu/spmv.ts";
import type { ComputeContext } from "../../types.ts";
import { largestEigen } from "./eigen.ts";
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
 * with its adjacency less the loops (y = A x, into y).
 */
export type SpectralGraph = {
  n: number;
  loop: Float64Array;
  strength: Float64Array;
  total: number;
  product(x: Float64Array, y: Float64Array): void;
};

/** The modularity graph with its products on the "spmv" kernel (OpenCL when the run's backend has it). */
export function viewOperator(g: WGraph, ctx: ComputeContext): SpectralGraph {
  const { n, start, nbr } = g;
  // The spmv kernel takes float64 weights (only aggregates and ECG have others).
  const weight = g.w === null || g.w instanceof Float64Array ? g.w : Float64Array.from(g.w);
  const kernel = ctx.kernel("spmv", spmv);
  return { ...g, product: (x, y) => void kernel({ n, start, nbr, weight, x, y }) };
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
  const inv = new Float64Array(n);
  for (let v = 0; v < n; v++) inv[v] = (strength[v] as number) > 0 ? 1 / Math.sqrt(strength[v] as number) : 0;
  const scaledX = new Float64Array(n);
  // The product's own array, reused by every step (the OpenCL version reads its answer into it too).
  const ax = new Float64Array(n);
  const adjacency = (x: Float64Array, y: Float64Array, scaled: boolean) => {
    if (scaled) for (let v = 0; v < n; v++) scaledX[v] = (inv[v] as number) * (x[v] as number);
    const input = scaled ? scaledX : x;
    g.product(input, ax);
    for (let v = 0; v < n; v++) {
      const acc = (ax[v] as number) + (loop[v] as number) * (input[v] as number);
      y[v] = scaled ? (inv[v] as number) * acc : acc;
    }
  };
  const apply =
    kind === "modularity"
      ? (x: Float64Array, y: Float64Array) => {
          adjacency(x, y, false);
          if (total <= 0) return;
          let kx = 0;
          for (let v = 0; v < n; v++) kx += (strength[v] as number) * (x[v] as number);
          const f = kx / total;
          for (let v = 0; v < n; v++) y[v] = (y[v] as number) - (strength[v] as number) * f;
        }
      : (x: Float64Array, y: Float64Array) => adjacency(x, y, true);
  ctx.progress({ phase: "eigenvectors" });
  const d = Math.max(1, Math.min(o.eigenVectors, n));
  const eig = largestEigen(n, apply, { k: d, tol: o.evsTolerance, maxRestarts: o.evsMaxIter, rng: r });
  ctx.checkCancelled();
  const dims = eig.vectors.length;
  const x = new Float64Array(n * dims);
  for (let j = 0; j < dims; j++) {
    const vec = eig.vectors[j] as Float64Array;
    for (let v = 0; v < n; v++) x[v * dims + j] = kind === "balanced" ? (vec[v] as number) * (inv[v] as number) : (vec[v] as number);
  }
  ctx.progress({ phase: "k-means" });
  return kmeans(x, n, dims, { k: o.clusters, tol: o.kmeansTolerance, maxIter: o.kmeansMaxIter, rng: r });
}
