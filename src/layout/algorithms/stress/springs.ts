// Kamada-Kawai's springs, as igraph sets them: between every pair of vertices a spring of natural length
// L·d(i,j) and strength kkconst/d(i,j)², where d is the graph distance (pairs in different components take the
// largest finite distance) and L = √n / max d. Kept as the distance matrix alone; k and l are formed per pair.
export type Springs = {
  n: number;
  /** Row-major n×n distances, clamped to the largest finite one. */
  d: Float64Array;
  /** Natural length per unit of distance. */
  L: number;
  kkconst: number;
};

/** Clamps `dist` (in place) as igraph does and answers the springs. */
export function kkSprings(dist: Float64Array, n: number, kkconst: number): Springs {
  let maxD = 0;
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++) {
      const v = dist[i * n + j] as number;
      if (Number.isFinite(v) && v > maxD) maxD = v;
    }
  for (let i = 0; i < dist.length; i++) if ((dist[i] as number) > maxD) dist[i] = maxD;
  return { n, d: dist, L: Math.sqrt(n) / maxD, kkconst };
}

/** Kamada-Kawai step by step: one move of the vertex with the largest gradient; false once in equilibrium. */
export type KkMover = { move(): boolean };
