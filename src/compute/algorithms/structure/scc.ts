// Strongly connected components as igraph 0.10 finds them (Kosaraju: a DFS over out-neighbours in row order gives
// the finishing order; components are numbered as the reverse pass over in-edges meets them). CPU only: a DFS.
import type { ComputeGraph } from "../../../../kernels/cpu/csr.ts";
import { sortedOut } from "./adjacency.ts";

/** igraph's membership vector of the strongly connected components of the directed graph. */
export function strongComponents(graph: ComputeGraph): Int32Array {
  const { n } = graph;
  const out = sortedOut(graph);
  const next = new Int32Array(n); // next out-entry to look at; -1 = not met yet
  next.fill(-1);
  const stack = new Int32Array(n);
  const order = new Int32Array(n); // finishing order
  let finished = 0;
  for (let root = 0; root < n; root++) {
    if ((next[root] as number) !== -1) continue;
    let top = 0;
    stack[top++] = root;
    next[root] = out.start[root] as number;
    while (top > 0) {
      const v = stack[top - 1] as number;
      const j = next[v] as number;
      if (j < (out.start[v + 1] as number)) {
        next[v] = j + 1;
        const w = out.nbr[j] as number;
        if ((next[w] as number) === -1) {
          next[w] = out.start[w] as number;
          stack[top++] = w;
        }
      } else {
        order[finished++] = v;
        top--;
      }
    }
  }
  const membership = new Int32Array(n).fill(-1);
  let clusters = 0;
  for (let k = n - 1; k >= 0; k--) {
    const root = order[k] as number;
    if ((membership[root] as number) !== -1) continue;
    membership[root] = clusters;
    let top = 0;
    stack[top++] = root;
    while (top > 0) {
      const v = stack[--top] as number;
      for (let j = graph.inStart[v] as number; j < (graph.inStart[v + 1] as number); j++) {
        const w = graph.inSrc[j] as number;
        if ((membership[w] as number) !== -1) continue;
        membership[w] = clusters;
        stack[top++] = w;
      }
    }
    clusters++;
  }
  return membership;
}

/** Relabels a membership vector so components are numbered in the order of their smallest node row. */
export function numberBySmallestRow(membership: Int32Array, clusters: number): Int32Array {
  const renumber = new Int32Array(clusters).fill(-1);
  const out = new Int32Array(membership.length);
  let next = 0;
  for (let r = 0; r < membership.length; r++) {
    const c = membership[r] as number;
    if ((renumber[c] as number) === -1) renumber[c] = next++;
    out[r] = renumber[c] as number;
  }
  return out;
}
