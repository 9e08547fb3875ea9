// igraph's layout_mds (src/layout/mds.c): classical (Torgerson) multidimensional scaling. The squared distances are
// double-centred and the top two eigenvectors, scaled by √|eigenvalue|, are x and y. A disconnected graph is laid
// out one component at a time (BFS order from its first vertex) and the pieces packed by merge_dla.
import { type ComputeGraph, undirected } from "../../../../kernels/cpu/csr.ts";
import { largestEigen } from "../../../compute/algorithms/modularity/eigen.ts";
import { rng } from "../../../compute/algorithms/modularity/rng.ts";
import { type ComputeContext, ComputeInputError } from "../../../compute/types.ts";
import { DEFAULT_SEED } from "../../seeded.ts";
import { allPairsDistances, checkDenseSize } from "./distances.ts";
import { mergeDla, type Piece } from "./merge-dla.ts";

const DIM = 2;

/** The `dist` parameter: an n×n matrix of finite numbers (diagonal set to 0 as igraph does), or null. */
function givenDistances(value: unknown, n: number): Float64Array | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value) || value.length !== n)
    throw new ComputeInputError(`dist must be an ${n}×${n} matrix (a list of ${n} rows)`, "dist");
  const out = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    const row = value[i];
    if (!Array.isArray(row) || row.length !== n) throw new ComputeInputError(`dist[${i}] must be a row of ${n} numbers`, "dist");
    for (let j = 0; j < n; j++) {
      const v = row[j];
      if (typeof v !== "number" || !Number.isFinite(v)) throw new ComputeInputError(`dist[${i}][${j}] must be a finite number`, "dist");
      out[i * n + j] = i === j ? 0 : v;
    }
  }
  return out;
}

/**
 * The `count` largest eigenpairs of the symmetric k×k matrix `b`, one at a time: each Lanczos run sees the matrix
 * deflated by the pairs found before, so an eigenvalue of multiplicity two (a symmetric tree) yields two vectors
 * (one Krylov space holds only one direction of each eigenspace).
 */
function topEigenpairs(b: Float64Array, k: number, count: number): { values: number[]; vectors: Float64Array[] } {
  const values: number[] = [];
  const vectors: Float64Array[] = [];
  const apply = (x: Float64Array, y: Float64Array) => {
    for (let i = 0; i < k; i++) {
      let s = 0;
      const row = i * k;
      for (let j = 0; j < k; j++) s += (b[row + j] as number) * (x[j] as number);
      y[i] = s;
    }
    for (let p = 0; p < vectors.length; p++) {
      const v = vectors[p] as Float64Array;
      let c = 0;
      for (let i = 0; i < k; i++) c += (v[i] as number) * (x[i] as number);
      c *= values[p] as number;
      for (let i = 0; i < k; i++) y[i] = (y[i] as number) - c * (v[i] as number);
    }
  };
  for (let a = 0; a < count; a++) {
    const found = largestEigen(k, apply, { k: 1, tol: 1e-12, maxRestarts: 500, rng: rng(DEFAULT_SEED + a) });
    values.push(found.values[0] as number);
    vectors.push(found.vectors[0] as Float64Array);
  }
  return { values, vectors };
}

/** MDS of one connected piece from its k×k distances (changed in place): node-major x, y. */
function mdsPiece(d: Float64Array, k: number): Float64Array {
  const out = new Float64Array(k * DIM);
  if (k === 1) return out;
  if (k === 2) {
    out[2] = 1;
    out[3] = 1;
    return out;
  }
  for (let i = 0; i < d.length; i++) d[i] = (d[i] as number) * (d[i] as number);
  const rowMeans = new Float64Array(k);
  for (let i = 0; i < k; i++) {
    let s = 0;
    for (let j = 0; j < k; j++) s += (d[i * k + j] as number) / k;
    rowMeans[i] = s;
  }
  let grand = 0;
  for (let i = 0; i < k; i++) grand += rowMeans[i] as number;
  grand /= k;
  for (let i = 0; i < k; i++)
    for (let j = 0; j < k; j++)
      d[i * k + j] = -0.5 * ((d[i * k + j] as number) + grand - ((rowMeans[i] as number) + (rowMeans[j] as number)));
  const { values, vectors } = topEigenpairs(d, k, DIM);
  for (let a = 0; a < DIM; a++) {
    const v = vectors[a] as Float64Array;
    // Eigenvectors have no sign: make the largest component positive so the same graph always draws the same way.
    let big = 0;
    for (let i = 1; i < k; i++) if (Math.abs(v[i] as number) > Math.abs(v[big] as number) + 1e-12) big = i;
    const sign = (v[big] as number) < 0 ? -1 : 1;
    const scale = sign * Math.sqrt(Math.abs(values[a] as number));
    for (let i = 0; i < k; i++) out[i * DIM + a] = scale * (v[i] as number);
  }
  return out;
}

/** Each component's vertices in BFS order from its first vertex (igraph_subcomponent), components by first vertex. */
function componentsInBfsOrder(graph: ComputeGraph): Int32Array[] {
  const { start, nbr } = undirected(graph);
  const seen = new Uint8Array(graph.n);
  const out: Int32Array[] = [];
  const queue = new Int32Array(graph.n);
  for (let s = 0; s < graph.n; s++) {
    if (seen[s]) continue;
    let head = 0;
    let tail = 0;
    queue[tail++] = s;
    seen[s] = 1;
    while (head < tail) {
      const u = queue[head++] as number;
      for (let j = start[u] as number; j < (start[u + 1] as number); j++) {
        const v = nbr[j] as number;
        if (!seen[v]) {
          seen[v] = 1;
          queue[tail++] = v;
        }
      }
    }
    out.push(queue.slice(0, tail));
  }
  return out;
}

/** Node-major x, y of igraph's MDS layout (one vertex: the origin; igraph refuses a graph smaller than dim). */
export function mdsLayout(graph: ComputeGraph, params: Record<string, unknown>, ctx: ComputeContext): Float64Array {
  const n = graph.n;
  const given = givenDistances(params.dist, n);
  if (n === 0) return new Float64Array(0);
  checkDenseSize(n, "mds");
  const dist = given ?? allPairsDistances(graph, null, ctx);
  const comps = componentsInBfsOrder(graph);
  if (comps.length === 1) return mdsPiece(dist, n);
  const pieces: Piece[] = [];
  for (const comp of comps) {
    const k = comp.length;
    const sub = new Float64Array(k * k);
    for (let a = 0; a < k; a++) for (let b = 0; b < k; b++) sub[a * k + b] = dist[(comp[a] as number) * n + (comp[b] as number)] as number;
    pieces.push(mdsPiece(sub, k));
    ctx.checkCancelled();
  }
  const merged = mergeDla(pieces, DEFAULT_SEED, ctx);
  const out = new Float64Array(n * DIM);
  let row = 0;
  for (const comp of comps)
    for (const v of comp) {
      out[v * DIM] = merged[row * DIM] as number;
      out[v * DIM + 1] = merged[row * DIM + 1] as number;
      row++;
    }
  return out;
}
