// Cutting a merge dendrogram as python-igraph 0.10.2 does (VertexDendrogram from a modularity list, as_clustering()).
import { ComputeInputError } from "../../types.ts";

/**
 * python-igraph's cluster count from the modularity after each merge (q[k] = after k merges): `qs.reverse();
 * qs.index(max(qs)) + 1`. Python's max keeps the first item no later item beats (so a NaN first item stays), and
 * index finds that item first: the maximum with the most merges.
 */
export function optimalCount(q: Float64Array): number {
  if (q.length === 0) return 1;
  let best = q[q.length - 1] as number;
  let at = 0;
  for (let j = 1; j < q.length; j++) {
    const value = q[q.length - 1 - j] as number;
    if (value > best) {
      best = value;
      at = j;
    }
  }
  return at + 1;
}

/**
 * igraph_community_to_membership(merges, n, n - count) renumbered by first appearance (python's UniqueIdGenerator):
 * merges[2k], merges[2k + 1] join into cluster n + k. More steps than merges is refused as igraph refuses it (which
 * python-igraph 0.10.2 reaches on graphs of several components, counting clusters from one).
 */
export function cutDendrogram(n: number, merges: Int32Array, count: number): Int32Array {
  const rows = merges.length / 2;
  const steps = n - count;
  if (steps < 0)
    throw new ComputeInputError(`igraph refuses this cut: number of steps must be non-negative (${count} clusters of ${n} nodes)`);
  if (steps > rows) {
    throw new ComputeInputError(
      `igraph refuses this graph: number of steps is greater than number of rows in merges matrix: found ${steps} steps, ${rows} rows (python-igraph 0.10's dendrogram cut on a graph of several components)`,
    );
  }
  const parent = new Int32Array(n + steps);
  for (let i = 0; i < parent.length; i++) parent[i] = i;
  const find = (x: number): number => {
    let r = x;
    while ((parent[r] as number) !== r) r = parent[r] as number;
    while ((parent[x] as number) !== r) {
      const next = parent[x] as number;
      parent[x] = r;
      x = next;
    }
    return r;
  };
  for (let k = 0; k < steps; k++) {
    parent[find(merges[2 * k] as number)] = n + k;
    parent[find(merges[2 * k + 1] as number)] = n + k;
  }
  const roots = new Int32Array(n);
  for (let v = 0; v < n; v++) roots[v] = find(v);
  return firstAppearance(roots);
}

/** Cluster ids renumbered 0, 1, ... in order of first appearance. */
export function firstAppearance(labels: Int32Array): Int32Array {
  let max = -1;
  for (let i = 0; i < labels.length; i++) if ((labels[i] as number) > max) max = labels[i] as number;
  const id = new Int32Array(max + 1).fill(-1);
  const out = new Int32Array(labels.length);
  let next = 0;
  for (let i = 0; i < labels.length; i++) {
    const l = labels[i] as number;
    if ((id[l] as number) < 0) id[l] = next++;
    out[i] = id[l] as number;
  }
  return out;
}
