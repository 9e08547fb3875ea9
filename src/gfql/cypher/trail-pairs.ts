// The (start, end) pairs an unbounded variable-length segment (`-[*]->`, `-[*1..]-`, `-[*0..]-`) joins, without
// listing its trails: for a query whose answer is the same whatever the number of trails per pair (RETURN DISTINCT
// without aggregates), where listing them can take exponential time. A trail is a walk with no relationship twice:
// - s != t: a trail from s to t exists exactly when t can be reached from s (a shortest walk is a path, a trail);
// - s = t (length >= 1): directed, when s lies on a directed cycle (a shortest closed walk through s is a simple
//   cycle); undirected, when s has a self-loop or a relationship that is on a cycle (not a bridge; two parallel
//   relationships make a cycle): going out and back along one relationship is not a trail;
// - length 0 (`*0..`): every start with itself.

/** Steps of the segment: each relationship in the directions it may be walked (an undirected one both ways). */
export type Steps = { from: number[]; to: number[]; edge: number[] };

/** Nodes as dense indices 0..n-1; answers the pairs as [start, end] index arrays. */
export function trailPairs(n: number, steps: Steps, starts: number[], minHops: number, undirected: boolean): [number[], number[]] {
  const offsets = new Int32Array(n + 1);
  for (const f of steps.from) offsets[f + 1] = (offsets[f + 1] as number) + 1;
  for (let i = 0; i < n; i++) offsets[i + 1] = (offsets[i + 1] as number) + (offsets[i] as number);
  const targets = new Int32Array(steps.from.length);
  const edges = new Int32Array(steps.from.length);
  const fill = offsets.slice(0, n);
  steps.from.forEach((f, i) => {
    const at = fill[f] as number;
    targets[at] = steps.to[i] as number;
    edges[at] = steps.edge[i] as number;
    fill[f] = at + 1;
  });
  const onCycle = undirected ? cyclicUndirected(n, offsets, targets, edges) : null;
  const outFrom: number[] = [];
  const outTo: number[] = [];
  const seen = new Int32Array(n).fill(-1);
  const queue = new Int32Array(n);
  starts.forEach((s, round) => {
    if (minHops === 0) {
      outFrom.push(s);
      outTo.push(s);
    }
    // breadth-first from s's neighbours: every node reached by a walk of length >= 1
    let head = 0;
    let tail = 0;
    for (let k = offsets[s] as number; k < (offsets[s + 1] as number); k++) {
      const t = targets[k] as number;
      if (seen[t] !== round) {
        seen[t] = round;
        queue[tail++] = t;
      }
    }
    while (head < tail) {
      const u = queue[head++] as number;
      for (let k = offsets[u] as number; k < (offsets[u + 1] as number); k++) {
        const t = targets[k] as number;
        if (seen[t] !== round) {
          seen[t] = round;
          queue[tail++] = t;
        }
      }
    }
    for (let i = 0; i < tail; i++) {
      const t = queue[i] as number;
      if (t === s) {
        // directed: reached again, so on a cycle; undirected: only along a relationship on a cycle
        if (minHops !== 0 && (onCycle === null || onCycle[s] === 1)) {
          outFrom.push(s);
          outTo.push(s);
        }
      } else {
        outFrom.push(s);
        outTo.push(t);
      }
    }
  });
  return [outFrom, outTo];
}

/**
 * Undirected: 1 for each node with a self-loop or a relationship that is not a bridge (Tarjan's low links, by
 * relationship so that parallel relationships count as a cycle); iterative, for deep graphs.
 */
function cyclicUndirected(n: number, offsets: Int32Array, targets: Int32Array, edges: Int32Array): Uint8Array {
  const onCycle = new Uint8Array(n);
  const order = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const parentEdge = new Int32Array(n).fill(-1);
  const next = new Int32Array(n);
  const stack = new Int32Array(n);
  let counter = 0;
  for (let root = 0; root < n; root++) {
    if (order[root] !== -1) continue;
    let depth = 0;
    stack[depth] = root;
    order[root] = counter;
    low[root] = counter++;
    next[root] = offsets[root] as number;
    while (depth >= 0) {
      const u = stack[depth] as number;
      const k = next[u] as number;
      if (k < (offsets[u + 1] as number)) {
        next[u] = k + 1;
        const t = targets[k] as number;
        const e = edges[k] as number;
        if (t === u) {
          onCycle[u] = 1; // a self-loop
          continue;
        }
        if (e === parentEdge[u]) continue; // the relationship we came in by, not another one to the same node
        if (order[t] === -1) {
          order[t] = counter;
          low[t] = counter++;
          parentEdge[t] = e;
          next[t] = offsets[t] as number;
          stack[++depth] = t;
        } else {
          low[u] = Math.min(low[u] as number, order[t] as number);
        }
        continue;
      }
      depth -= 1;
      if (depth >= 0) {
        const p = stack[depth] as number;
        low[p] = Math.min(low[p] as number, low[u] as number);
        // the relationship p-u is a bridge exactly when u's subtree reaches no higher than u
        if ((low[u] as number) <= (order[p] as number)) {
          onCycle[u] = 1;
          onCycle[p] = 1;
        }
      }
    }
  }
  return onCycle;
}
