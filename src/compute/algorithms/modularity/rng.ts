// A small seeded generator (mulberry32) so every community algorithm answers the same partition for the same seed.
export type Rng = { next: () => number; below: (k: number) => number };

/** The default seed when a request gives none: answers stay reproducible. */
export const DEFAULT_SEED = 42;

export function rng(seed: number): Rng {
  let a = (Math.floor(seed) ^ 0x9e3779b9) >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, below: (k: number) => Math.floor(next() * k) };
}

/** A random permutation of 0..n-1 (Fisher-Yates), in the first n slots of `into` where given. */
export function shuffled(n: number, r: Rng, into?: Int32Array): Int32Array {
  const order = into ?? new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  for (let i = n - 1; i > 0; i--) {
    const j = r.below(i + 1);
    const t = order[i] as number;
    order[i] = order[j] as number;
    order[j] = t;
  }
  return order;
}
