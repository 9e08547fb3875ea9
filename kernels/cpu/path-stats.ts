// Kernel "path-stats": per source, breadth-first distances summarized for closeness, harmonic centrality and
// eccentricity (unweighted paths).
//
// Args: n; start (n + 1) / nbr: the adjacency paths follow (entries start[v] .. start[v + 1] are v's successors);
// sources: the batch of source nodes; cutoff: nodes farther than this many hops count as unreachable (-1: no limit).
// Result, one value per source (index b = sources[b]): sum (sum of distances to reached nodes), reached (nodes
// reached, the source included), harmonic (sum of 1 / distance over reached nodes other than the source), farthest
// (the largest distance reached).

export type PathStatsArgs = { n: number; start: Int32Array; nbr: Int32Array; sources: Int32Array; cutoff: number };
export type PathStatsResult = { sum: Float64Array; reached: Int32Array; harmonic: Float64Array; farthest: Float64Array };

export function pathStats(args: PathStatsArgs): PathStatsResult {
  const { n, start, nbr, sources, cutoff } = args;
  const count = sources.length;
  const sum = new Float64Array(count);
  const reached = new Int32Array(count);
  const harmonic = new Float64Array(count);
  const farthest = new Float64Array(count);
  const dist = new Int32Array(n).fill(-1);
  const queue = new Int32Array(n);
  const limit = cutoff < 0 ? 0x7fffffff : cutoff;
  for (let b = 0; b < count; b++) {
    const s = sources[b] as number;
    let head = 0;
    let tail = 1;
    queue[0] = s;
    dist[s] = 0;
    let total = 0;
    let inverse = 0;
    let far = 0;
    while (head < tail) {
      const v = queue[head++] as number;
      const dv = dist[v] as number;
      if (dv > 0) {
        total += dv;
        inverse += 1 / dv;
        if (dv > far) far = dv;
      }
      if (dv >= limit) continue;
      const end = start[v + 1] as number;
      for (let j = start[v] as number; j < end; j++) {
        const w = nbr[j] as number;
        if ((dist[w] as number) < 0) {
          dist[w] = dv + 1;
          queue[tail++] = w;
        }
      }
    }
    sum[b] = total;
    reached[b] = tail;
    harmonic[b] = inverse;
    farthest[b] = far;
    for (let k = 0; k < tail; k++) dist[queue[k] as number] = -1;
  }
  return { sum, reached, harmonic, farthest };
}
