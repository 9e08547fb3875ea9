// cos, sin and acos rounded correctly (evaluated in double-double, then rounded once), as C libraries give them in
// nearly every case. V8's Math.cos and Math.sin miss by one unit in the last place for some angles; igraph's
// Kamada-Kawai starts from cos/sin of a circle or sphere, and its moves amplify a start one ulp off into a
// different layout after a few hundred iterations. With these, our start is igraph's bit for bit.

type DD = [number, number];

const SPLIT = 134217729; // 2^27 + 1

function twoSum(a: number, b: number): DD {
  const s = a + b;
  const bb = s - a;
  return [s, a - (s - bb) + (b - bb)];
}

function twoProd(a: number, b: number): DD {
  const p = a * b;
  const ca = SPLIT * a;
  const ah = ca - (ca - a);
  const al = a - ah;
  const cb = SPLIT * b;
  const bh = cb - (cb - b);
  const bl = b - bh;
  return [p, ah * bh - p + ah * bl + al * bh + al * bl];
}

function add(a: DD, b: DD): DD {
  const [s, e] = twoSum(a[0], b[0]);
  const [hi, lo] = twoSum(s, e + a[1] + b[1]);
  return [hi, lo];
}

function mul(a: DD, b: DD): DD {
  const [p, e] = twoProd(a[0], b[0]);
  return twoSum(p, e + a[0] * b[1] + a[1] * b[0]);
}

/** a / k for an integer k, in double-double (1/k itself is not a double). */
function divide(a: DD, k: number): DD {
  const q = a[0] / k;
  const [p, e] = twoProd(q, k);
  return twoSum(q, (a[0] - p - e + a[1]) / k);
}

/** π/2 as three doubles. */
const PIO2: readonly number[] = [1.5707963267948966, 6.123233995736766e-17, -1.4973849048591698e-33];

/** x − k·π/2 in double-double, k = the nearest multiple (x of moderate size: |x| < 2^20). */
function reduce(x: number): { r: DD; quadrant: number } {
  const k = Math.round(x / (PIO2[0] as number));
  let r: DD = [x, 0];
  for (const part of PIO2) {
    const [p, e] = twoProd(k, part);
    r = add(r, [-p, -e]);
  }
  return { r, quadrant: ((k % 4) + 4) % 4 };
}

/** sin and cos of |r| ≤ π/4 by their Taylor series in double-double. */
function sinCosSmall(r: DD): { sin: DD; cos: DD } {
  const r2 = mul(r, r);
  let term: DD = r;
  let sin: DD = r;
  for (let k = 1; k < 15; k++) {
    term = divide(mul(term, r2), -(2 * k) * (2 * k + 1));
    sin = add(sin, term);
  }
  term = [1, 0];
  let cos: DD = [1, 0];
  for (let k = 1; k < 15; k++) {
    term = divide(mul(term, r2), -(2 * k - 1) * (2 * k));
    cos = add(cos, term);
  }
  return { sin, cos };
}

function sinCosDD(x: number): { sin: DD; cos: DD } {
  const { r, quadrant } = reduce(x);
  const { sin, cos } = sinCosSmall(r);
  const neg = (a: DD): DD => [-a[0], -a[1]];
  if (quadrant === 0) return { sin, cos };
  if (quadrant === 1) return { sin: cos, cos: neg(sin) };
  if (quadrant === 2) return { sin: neg(sin), cos: neg(cos) };
  return { sin: neg(cos), cos: sin };
}

const round = (a: DD): number => a[0] + a[1];

export const exactCos = (x: number): number => (Number.isFinite(x) && Math.abs(x) < 1e6 ? round(sinCosDD(x).cos) : Math.cos(x));
export const exactSin = (x: number): number => (Number.isFinite(x) && Math.abs(x) < 1e6 ? round(sinCosDD(x).sin) : Math.sin(x));

/** acos(h) for |h| < 1: Math.acos refined by one Newton step on cos(t) = h in double-double. */
export function exactAcos(h: number): number {
  if (!(Math.abs(h) < 1)) return Math.acos(h);
  const t = Math.acos(h);
  const { sin, cos } = sinCosDD(t);
  // t' = t + (cos t − h) / sin t
  const diff = add(cos, [-h, 0]);
  const step = (diff[0] + diff[1]) / (sin[0] + sin[1]);
  return round(twoSum(t, step));
}
