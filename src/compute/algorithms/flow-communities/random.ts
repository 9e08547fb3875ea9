// The seeded generator of the flow-community algorithms (mulberry32, two draws per 53-bit double), so the same
// seed always answers the same partition.
export type Random = {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [lo, hi]. */
  int(lo: number, hi: number): number;
};

/** The seed used when a request cannot give one (igraph's methods take none): answers are reproducible. */
export const DEFAULT_SEED = 20240611;

export function random(seed: number): Random {
  let a = seed >>> 0;
  const u32 = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
  // 53-bit doubles from two draws.
  const next = () => ((u32() >>> 5) * 67108864 + (u32() >>> 6)) / 9007199254740992;
  return { next, int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)) };
}
