// Naive, obviously-correct references the kernel suites check both backends against (small graphs only).
import type { Csr } from "../../kernels/cpu/csr.ts";

/** Adjacency lists (with repeats) from CSR-style start/nbr. */
function lists(n: number, start: Int32Array, nbr: Int32Array): number[][] {
  return Array.from({ length: n }, (_, v) => Array.from(nbr.subarray(start[v] as number, start[v + 1] as number)));
}

/** BFS by levels: distances, and for each node the smallest neighbour one level closer that reaches it. */
export function naiveBfs(n: number, start: Int32Array, nbr: Int32Array, sources: number[], depthLimit: number) {
  const adj = lists(n, start, nbr);
  const dist = new Array<number>(n).fill(-1);
  let frontier = [...new Set(sources.filter((s) => s >= 0 && s < n))];
  for (const s of frontier) dist[s] = 0;
  for (let level = 0; frontier.length > 0 && (depthLimit < 0 || level < depthLimit); level++) {
    const next: number[] = [];
    for (const u of frontier) {
      for (const v of adj[u] ?? []) {
        if (dist[v] === -1) {
          dist[v] = level + 1;
          next.push(v);
        }
      }
    }
    frontier = next;
  }
  const pred = new Array<number>(n).fill(-1);
  for (let u = 0; u < n; u++) {
    for (const v of adj[u] ?? []) {
      if (dist[u] !== -1 && dist[v] === (dist[u] as number) + 1 && (pred[v] === -1 || u < (pred[v] as number))) pred[v] = u;
    }
  }
  return { dist, pred };
}

/** Component label = smallest row reachable ignoring direction (repeated relaxation). */
export function naiveComponents(csr: Csr): number[] {
  const label = Array.from({ length: csr.n }, (_, i) => i);
  for (let changed = true; changed; ) {
    changed = false;
    for (let e = 0; e < csr.m; e++) {
      const a = csr.src[e] as number;
      const b = csr.dst[e] as number;
      const l = Math.min(label[a] as number, label[b] as number);
      if (label[a] !== l || label[b] !== l) {
        label[a] = l;
        label[b] = l;
        changed = true;
      }
    }
  }
  return label;
}

/** Core numbers by the definition: for k = 0, 1, ..., repeatedly delete nodes of degree < k. */
export function naiveCores(n: number, start: Int32Array, nbr: Int32Array): number[] {
  const core = new Array<number>(n).fill(0);
  const adj = lists(n, start, nbr);
  for (let k = 1; ; k++) {
    const alive = new Array<boolean>(n).fill(true);
    for (let changed = true; changed; ) {
      changed = false;
      for (let v = 0; v < n; v++) {
        if (!alive[v]) continue;
        // Degree within the live subgraph: entries whose node is alive (self entries count while v lives).
        const deg = (adj[v] ?? []).filter((u) => alive[u]).length;
        if (deg < k) {
          alive[v] = false;
          changed = true;
        }
      }
    }
    if (!alive.includes(true)) return core;
    for (let v = 0; v < n; v++) if (alive[v]) core[v] = k;
  }
}

/** Bellman-Ford distances (Infinity = unreached), with the cutoff applied after. */
export function naiveDistances(n: number, start: Int32Array, nbr: Int32Array, edge: Int32Array, weight: Float64Array, source: number) {
  const dist = new Array<number>(n).fill(Number.POSITIVE_INFINITY);
  dist[source] = 0;
  for (let changed = true; changed; ) {
    changed = false;
    for (let u = 0; u < n; u++) {
      for (let j = start[u] as number; j < (start[u + 1] as number); j++) {
        const v = nbr[j] as number;
        const d = (dist[u] as number) + (weight.length ? (weight[edge[j] as number] as number) : 1);
        if (d < (dist[v] as number)) {
          dist[v] = d;
          changed = true;
        }
      }
    }
  }
  return dist;
}
