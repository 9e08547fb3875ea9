// mulberry32: a small seeded generator, so every run of a generated test reads the same cases.
export type Seeded = { next: () => number; int: (lo: number, hi: number) => number; pick: <T>(items: readonly T[]) => T };

export function seeded(seed: number): Seeded {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  return { next, int, pick: <T>(items: readonly T[]) => items[int(0, items.length - 1)] as T };
}
