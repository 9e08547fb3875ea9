// igraph's layout_random and layout_random_3d: every coordinate uniform in [-1, 1), drawn vertex by vertex, axis
// by axis, as igraph's RNG_UNIF(-1, 1) draws them; the generator is Python's (python-igraph's default) seeded
// with `seed`, so the positions equal python-igraph's after `random.seed(seed)`.
import { PythonRandom } from "./python-random.ts";

export function randomLayoutPositions(n: number, dims: 2 | 3, seed: number): Float64Array {
  const rng = new PythonRandom(seed);
  const out = new Float64Array(n * dims);
  for (let i = 0; i < out.length; i++) {
    let r: number;
    do r = rng.random() * 2 + -1;
    while (r === 1);
    out[i] = r;
  }
  return out;
}
