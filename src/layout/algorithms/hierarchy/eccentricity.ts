// igraph_eccentricity over a mode, for Reingold-Tilford's root choice (lowest eccentricity first from 500 vertices
// on): the largest BFS distance from each vertex to a vertex it reaches. Exact, with linear-time shortcuts where the
// structure allows: a tree component (read undirected) takes two BFS (a vertex's eccentricity is its distance to the
// farther end of a diameter), and a polytree component read along its edges takes one longest-path pass (paths are
// unique, so distance = path length). Other components run one BFS per vertex, as igraph does.
import { type IGraph, type Mode, simpleAdjacency } from "./igraph-graph.ts";

export function eccentricities(graph: IGraph, mode: Mode, checkCancelled: () => void = () => {}): Float64Array {
  const n = graph.n;
  const all = simpleAdjacency(graph, "all");
  const along = mode === "all" ? all : simpleAdjacency(graph, mode);
  const out = new Float64Array(n);
  const dist = new Int32Array(n).fill(-1);
  const queue = new Int32Array(n);
  /** BFS over `adj` from s; dist left set for the visited vertices (queue[0 .. count)); answers the count. */
  const bfs = (adj: typeof all, s: number): number => {
    let head = 0;
    let tail = 0;
    dist[s] = 0;
    queue[tail++] = s;
    while (head < tail) {
      const u = queue[head++] as number;
      for (let j = adj.start[u] as number; j < (adj.start[u + 1] as number); j++) {
        const w = adj.nbr[j] as number;
        if (dist[w] === -1) {
          dist[w] = (dist[u] as number) + 1;
          queue[tail++] = w;
        }
      }
    }
    return tail;
  };
  const clear = (count: number) => {
    for (let k = 0; k < count; k++) dist[queue[k] as number] = -1;
  };
  const component = new Int32Array(n).fill(-1);
  let visitedBfs = 0;
  for (let s = 0; s < n; s++) {
    if ((component[s] as number) >= 0) continue;
    const size = bfs(all, s);
    const members = queue.slice(0, size);
    clear(size);
    for (const v of members) component[v] = s;
    let undirectedEdges = 0;
    for (const v of members) undirectedEdges += (all.start[v + 1] as number) - (all.start[v] as number);
    undirectedEdges /= 2;
    const isForest = undirectedEdges === size - 1;
    if (isForest && mode === "all") {
      // Diameter ends a (farthest from s) and b (farthest from a): ecc(v) = max(d(a, v), d(b, v)).
      const a = members[size - 1] as number;
      bfs(all, a);
      const b = queue[size - 1] as number;
      const fromA = new Int32Array(n);
      for (const v of members) fromA[v] = dist[v] as number;
      clear(size);
      bfs(all, b);
      for (const v of members) out[v] = Math.max(fromA[v] as number, dist[v] as number);
      clear(size);
      continue;
    }
    let directedEdges = 0;
    if (isForest) for (const v of members) directedEdges += (along.start[v + 1] as number) - (along.start[v] as number);
    if (isForest && directedEdges === undirectedEdges) {
      // A polytree read along `mode`: eccentricity = longest path, from the vertices with no way on, backwards.
      const pending = new Int32Array(n);
      let ready: number[] = [];
      for (const v of members) {
        pending[v] = (along.start[v + 1] as number) - (along.start[v] as number);
        if (pending[v] === 0) ready.push(v);
      }
      const before = new Map<number, number[]>();
      for (const v of members)
        for (let j = along.start[v] as number; j < (along.start[v + 1] as number); j++) {
          const w = along.nbr[j] as number;
          const list = before.get(w);
          if (list) list.push(v);
          else before.set(w, [v]);
        }
      while (ready.length > 0) {
        const next: number[] = [];
        for (const w of ready)
          for (const v of before.get(w) ?? []) {
            out[v] = Math.max(out[v] as number, (out[w] as number) + 1);
            pending[v] = (pending[v] as number) - 1;
            if (pending[v] === 0) next.push(v);
          }
        ready = next;
      }
      continue;
    }
    for (const v of members) {
      if ((visitedBfs++ & 63) === 0) checkCancelled();
      const count = bfs(along, v);
      out[v] = dist[queue[count - 1] as number] as number;
      clear(count);
    }
  }
  return out;
}
