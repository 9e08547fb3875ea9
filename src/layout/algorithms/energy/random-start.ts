// The random start igraph's energy layouts draw (igraph_layout_random), from our seeded generator.

/** igraph_layout_random: x of every vertex, then y (then z), uniform in [-1, 1]; node-major. */
export function igraphRandomLayout(n: number, dims: 2 | 3, random: () => number): Float64Array {
  const out = new Float64Array(n * dims);
  for (let d = 0; d < dims; d++) for (let i = 0; i < n; i++) out[i * dims + d] = random() * 2 - 1;
  return out;
}
