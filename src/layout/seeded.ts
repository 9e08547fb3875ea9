// Seeded randomness for layouts: the same request gives the same positions (force layouts start from a seeded
// random layout unless given a start).

/** A 32-bit seeded generator (mulberry32) of floats in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The seed force layouts use when the request gives none. */
export const DEFAULT_SEED = 42;

/** n points uniform in [-half, half]^dims, node-major. */
export function randomPositions(n: number, dims: 2 | 3, seed: number, half = 1): Float64Array {
  const random = seededRandom(seed);
  const out = new Float64Array(n * dims);
  for (let i = 0; i < out.length; i++) out[i] = (random() * 2 - 1) * half;
  return out;
}
