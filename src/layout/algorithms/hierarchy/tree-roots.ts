// igraph_roots_for_tree_layout: the roots Reingold-Tilford picks when none are given. Undirected: the
// highest-degree vertex of each connected component. Directed: of each strongly connected component that no edge
// enters (mode out) or leaves (mode in), its highest out- (in-) degree vertex. Ties and the eccentricity variant
// (igraph uses it from 500 vertices on: lowest eccentricity first) follow igraph's own sort.
import { eccentricities } from "./eccentricity.ts";
import { degreesNoLoops, type IGraph, type Mode, simpleAdjacency, weakComponentsOf } from "./igraph-graph.ts";
import { qsortInd } from "./igraph-qsort.ts";

/** Weakly connected components (mode all) or strongly connected ones: a component index per vertex. */
function components(graph: IGraph, mode: Mode): { membership: Int32Array; count: number } {
  const n = graph.n;
  if (mode === "all") return weakComponentsOf(n, simpleAdjacency(graph, "all"));
  const membership = new Int32Array(n).fill(-1);
  // Tarjan's strongly connected components, iterative.
  const adj = simpleAdjacency(graph, "out");
  const index = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const onStack = new Uint8Array(n);
  const stack: number[] = [];
  const callStack: [number, number][] = [];
  let next = 0;
  let count = 0;
  for (let s = 0; s < n; s++) {
    if ((index[s] as number) >= 0) continue;
    callStack.push([s, adj.start[s] as number]);
    index[s] = low[s] = next++;
    stack.push(s);
    onStack[s] = 1;
    while (callStack.length > 0) {
      const frame = callStack[callStack.length - 1] as [number, number];
      const v = frame[0];
      if (frame[1] < (adj.start[v + 1] as number)) {
        const w = adj.nbr[frame[1]++] as number;
        if ((index[w] as number) < 0) {
          index[w] = low[w] = next++;
          stack.push(w);
          onStack[w] = 1;
          callStack.push([w, adj.start[w] as number]);
        } else if (onStack[w]) low[v] = Math.min(low[v] as number, index[w] as number);
        continue;
      }
      callStack.pop();
      const parent = callStack[callStack.length - 1];
      if (parent) low[parent[0]] = Math.min(low[parent[0]] as number, low[v] as number);
      if (low[v] === index[v]) {
        let w: number;
        do {
          w = stack.pop() as number;
          onStack[w] = 0;
          membership[w] = count;
        } while (w !== v);
        count++;
      }
    }
  }
  return { membership, count };
}

/** igraph_roots_for_tree_layout with the heuristic igraph_layout_reingold_tilford picks for this size. */
export function treeRoots(graph: IGraph, modeIn: Mode, checkCancelled: () => void = () => {}): number[] {
  const n = graph.n;
  const mode: Mode = graph.directed ? modeIn : "all";
  if (n === 0) return [];
  // igraph 0.10 picks by degree below 500 vertices and by eccentricity from 500 on.
  const order =
    n < 500 ? qsortInd(degreesNoLoops(graph, mode), "descending") : qsortInd(eccentricities(graph, mode, checkCancelled), "ascending");
  const { membership, count } = components(graph, mode);
  const roots = new Int32Array(count).fill(-1);
  if (mode !== "all") {
    // Components that an edge enters (mode out) or leaves (mode in) have no root of their own.
    const entered = new Int32Array(count);
    for (let e = 0; e < graph.from.length; e++) {
      const a = membership[graph.from[e] as number] as number;
      const b = membership[graph.to[e] as number] as number;
      if (a !== b) {
        const c = mode === "out" ? b : a;
        entered[c] = (entered[c] as number) + 1;
      }
    }
    for (const v of order) {
      const c = membership[v] as number;
      if (entered[c] === 0 && roots[c] === -1) roots[c] = v;
    }
    return Array.from(roots).filter((r) => r >= 0);
  }
  for (const v of order) {
    const c = membership[v] as number;
    if (roots[c] === -1) roots[c] = v;
  }
  return Array.from(roots);
}
