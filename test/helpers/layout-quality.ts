// Measures of a layout's quality for the layout suites: stress against graph distances (scale-free), finiteness,
// and small graph builders. One measure for every suite, so "within 10% of igraph" means the same everywhere.

/**
 * Normalized stress of node-major positions (`dims` per node) against unweighted shortest-path distances, reading
 * every edge both ways: sum over connected pairs of (s*||pi - pj|| - dij)^2 / dij^2, at the scale s that minimizes
 * it (so the layout's size does not matter), divided by the number of pairs. 0 = distances drawn exactly.
 * O(n^2): for graphs up to a few thousand nodes.
 */
export function layoutStress(
  n: number,
  edges: ReadonlyArray<readonly [number, number]>,
  positions: ArrayLike<number>,
  dims: 2 | 3 = 2,
): number {
  const adj: number[][] = Array.from({ length: n }, () => []);
  for (const [a, b] of edges) {
    if (a === b) continue;
    adj[a]?.push(b);
    adj[b]?.push(a);
  }
  // sum(d_euclid/dij) and sum(d_euclid^2/dij^2) give the best scale s = sum(e/d) / sum(e^2/d^2).
  let sumED = 0;
  let sumE2D2 = 0;
  let pairs = 0;
  const dist = new Int32Array(n);
  const queue = new Int32Array(n);
  const terms: [number, number][] = [];
  for (let s = 0; s < n; s++) {
    dist.fill(-1);
    dist[s] = 0;
    let head = 0;
    let tail = 0;
    queue[tail++] = s;
    while (head < tail) {
      const u = queue[head++] as number;
      for (const v of adj[u] as number[]) {
        if (dist[v] === -1) {
          dist[v] = (dist[u] as number) + 1;
          queue[tail++] = v;
        }
      }
    }
    for (let t = s + 1; t < n; t++) {
      const d = dist[t] as number;
      if (d <= 0) continue;
      let e2 = 0;
      for (let k = 0; k < dims; k++) {
        const delta = (positions[s * dims + k] as number) - (positions[t * dims + k] as number);
        e2 += delta * delta;
      }
      const e = Math.sqrt(e2);
      sumED += e / d;
      sumE2D2 += e2 / (d * d);
      terms.push([e, d]);
      pairs++;
    }
  }
  if (pairs === 0) return 0;
  const scale = sumE2D2 > 0 ? sumED / sumE2D2 : 1;
  let stress = 0;
  for (const [e, d] of terms) stress += ((scale * e - d) / d) ** 2;
  return stress / pairs;
}

/** Whether every coordinate is a finite number. */
export function allFinite(positions: ArrayLike<number>): boolean {
  for (let i = 0; i < positions.length; i++) if (!Number.isFinite(positions[i])) return false;
  return true;
}

/** A seeded random graph: n nodes, m distinct undirected edges without self-loops (mulberry32). */
export function randomGraph(n: number, m: number, seed = 1): [number, number][] {
  let a = seed >>> 0;
  const random = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const seen = new Set<number>();
  const out: [number, number][] = [];
  while (out.length < m) {
    const s = Math.floor(random() * n);
    const t = Math.floor(random() * n);
    if (s === t) continue;
    const key = Math.min(s, t) * n + Math.max(s, t);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push([s, t]);
  }
  return out;
}
