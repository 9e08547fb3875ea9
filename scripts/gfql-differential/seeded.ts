// The differential's seeded random source: xorshift32, so a seed gives the same cases on every machine.

export type Seeded = {
  rnd: () => number;
  int: (a: number, b: number) => number;
  pick: <T>(xs: T[]) => T;
};

/** `warmUp` draws are thrown away first (small seeds start with small draws). */
export function seeded(seed: number, warmUp = 0): Seeded {
  let s = seed >>> 0 || 1;
  const rnd = () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 4294967296;
  };
  for (let i = 0; i < warmUp; i++) rnd();
  const int = (a: number, b: number) => a + Math.floor(rnd() * (b - a + 1));
  const pick = <T>(xs: T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
  return { rnd, int, pick };
}
