// Newman's leading eigenvector method, as igraph's community_leading_eigenvector: starting from one community,
// split a community by the signs of the leading eigenvector of its generalised modularity matrix while that
// eigenvalue is positive and the split raises modularity, until `clusters` communities or no community splits.
import type { ComputeContext } from "../../types.ts";
import { largestEigen } from "./eigen.ts";
import type { WGraph } from "./graph.ts";
import { rng } from "./rng.ts";

/** Connected components numbered by their lowest node (igraph's order). */
function components(g: WGraph, membership: Int32Array): number {
  membership.fill(-1);
  const stack = new Int32Array(g.n);
  let count = 0;
  for (let root = 0; root < g.n; root++) {
    if ((membership[root] as number) >= 0) continue;
    membership[root] = count;
    let top = 0;
    stack[top++] = root;
    while (top > 0) {
      const v = stack[--top] as number;
      for (let j = g.start[v] as number; j < (g.start[v + 1] as number); j++) {
        const u = g.nbr[j] as number;
        if ((membership[u] as number) < 0) {
          membership[u] = count;
          stack[top++] = u;
        }
      }
    }
    count++;
  }
  return count;
}

/**
 * igraph's steps: the connected components are the first communities (each counts as a split made); then
 * communities are taken last-in first-out, every attempt counting, until `steps` (clusters - 1) or none is left.
 */
export function leadingEigenvector(g: WGraph, steps: number, seed: number, ctx: ComputeContext): Int32Array {
  const { n, start, nbr, w, strength, loop, total } = g;
  const membership = new Int32Array(n);
  let communities = components(g, membership);
  if (n === 0 || total <= 0) return membership;
  const r = rng(seed);
  const local = new Int32Array(n).fill(-1);
  const sizes = new Int32Array(communities);
  for (let v = 0; v < n; v++) sizes[membership[v] as number] = (sizes[membership[v] as number] as number) + 1;
  const stack: number[] = [];
  for (let c = 0; c < communities; c++) if ((sizes[c] as number) > 2) stack.push(c);
  let taken = communities - 1;
  while (stack.length > 0 && taken < steps) {
    ctx.checkCancelled();
    const c = stack.pop() as number;
    const nodes: number[] = [];
    for (let v = 0; v < n; v++) if (membership[v] === c) nodes.push(v);
    taken++;
    const s = nodes.length;
    if (s <= 2) continue;
    const members = Int32Array.from(nodes);
    for (let i = 0; i < s; i++) local[members[i] as number] = i;
    // kin[i]: weight from node i into the community (its loops included); K: the community's total strength.
    const kin = new Float64Array(s);
    const k = new Float64Array(s);
    let K = 0;
    for (let i = 0; i < s; i++) {
      const v = members[i] as number;
      k[i] = strength[v] as number;
      K += strength[v] as number;
      let x = loop[v] as number;
      for (let j = start[v] as number; j < (start[v + 1] as number); j++)
        if ((local[nbr[j] as number] as number) >= 0) x += w === null ? 1 : (w[j] as number);
      kin[i] = x;
    }
    // y = B^(g) x: A x - k (k·x) / 2m - diag(kin - k K / 2m) x.
    const apply = (x: Float64Array, y: Float64Array) => {
      let kx = 0;
      for (let i = 0; i < s; i++) kx += (k[i] as number) * (x[i] as number);
      const f = kx / total;
      for (let i = 0; i < s; i++) {
        const v = members[i] as number;
        let acc = (loop[v] as number) * (x[i] as number);
        for (let j = start[v] as number; j < (start[v + 1] as number); j++) {
          const u = local[nbr[j] as number] as number;
          if (u >= 0) acc += (w === null ? 1 : (w[j] as number)) * (x[u] as number);
        }
        y[i] = acc - (k[i] as number) * f - ((kin[i] as number) - ((k[i] as number) * K) / total) * (x[i] as number);
      }
    };
    const eig = largestEigen(s, apply, { k: 1, tol: 1e-10, maxRestarts: 500, rng: r });
    for (let i = 0; i < s; i++) local[members[i] as number] = -1;
    let lambda = eig.values[0] as number;
    if (Math.abs(lambda) < 1e-8) lambda = 0;
    const vec = eig.vectors[0];
    if (!vec || lambda <= 0) continue;
    // Small entries count as zero and the first non-zero one is made positive, as igraph does; the negative
    // side becomes the new community.
    let first = 0;
    for (let i = 0; i < s; i++) if (Math.abs(vec[i] as number) < 1e-8) vec[i] = 0;
    while (first < s && vec[first] === 0) first++;
    const flip = first < s && (vec[first] as number) < 0 ? -1 : 1;
    const sign = new Float64Array(s);
    let negative = 0;
    for (let i = 0; i < s; i++) {
      const x = flip * (vec[i] as number);
      sign[i] = x < 0 ? -1 : 1;
      if (x < 0) negative++;
    }
    if (negative === 0 || negative === s) continue;
    for (let i = 0; i < s; i++) local[members[i] as number] = i;
    const bs = new Float64Array(s);
    apply(sign, bs);
    for (let i = 0; i < s; i++) local[members[i] as number] = -1;
    let gain = 0;
    for (let i = 0; i < s; i++) gain += (sign[i] as number) * (bs[i] as number);
    if (gain <= 1e-8) continue;
    const fresh = communities++;
    for (let i = 0; i < s; i++) if ((sign[i] as number) < 0) membership[members[i] as number] = fresh;
    if (negative > 1) stack.push(fresh);
    if (s - negative > 1) stack.push(c);
    ctx.progress({ phase: "leading_eigenvector", iteration: communities });
  }
  return membership;
}
