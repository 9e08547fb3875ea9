// igraph's layout_reingold_tilford and layout_reingold_tilford_circular, ported from igraph 0.10's
// reingold_tilford.c: a BFS tree from the root(s) (y = depth), subtrees placed left to right in vertex-id order as
// close as their contours allow (at least 1 apart), each parent centered over its children. Several roots hang
// under a virtual root; `rootlevel` lifts roots by chains of virtual vertices; vertices the roots do not reach hang
// directly under the (virtual) root, as igraph does.
import { ComputeInputError } from "../../../compute/types.ts";
import { type IGraph, type Mode, simpleAdjacency } from "./igraph-graph.ts";
import { treeRoots } from "./tree-roots.ts";

export type TreeOptions = {
  mode: Mode;
  roots?: ArrayLike<number> | null;
  rootlevel?: ArrayLike<number> | null;
  /** Called now and then in long loops (the job's cancel check). */
  checkCancelled?: () => void;
};

/** The node-major (x, y) of igraph_layout_reingold_tilford. */
export function reingoldTilford(graph: IGraph, options: TreeOptions): Float64Array {
  const nOrig = graph.n;
  const mode: Mode = graph.directed ? options.mode : "all";
  const given = options.roots && options.roots.length > 0 ? Array.from(options.roots) : null;
  for (const r of given ?? [])
    if (!Number.isInteger(r) || r < 0 || r >= nOrig) throw new ComputeInputError("root is not a vertex of the graph", "root");
  if (nOrig === 0) return new Float64Array(0);
  const from = Array.from(graph.from);
  const to = Array.from(graph.to);
  let n = nOrig;
  let roots: number[];
  if (!given) roots = treeRoots(graph, mode, options.checkCancelled);
  else {
    roots = given;
    const levels = options.rootlevel && options.rootlevel.length > 0 ? Array.from(options.rootlevel) : null;
    if (levels && roots.length > 1) {
      if (levels.length !== roots.length)
        throw new ComputeInputError(`rootlevel must give one level per root (${roots.length} roots, ${levels.length} levels)`, "rootlevel");
      for (const l of levels)
        if (!Number.isInteger(l) || l < 0 || l > 1_000_000)
          throw new ComputeInputError("rootlevel values must be integers from 0 to 1,000,000", "rootlevel");
      if (levels.reduce((sum, l) => sum + l, 0) > 10_000_000)
        throw new ComputeInputError("rootlevel asks for more than 10,000,000 virtual levels in all", "rootlevel");
      // Each root with level l > 0 gets a chain of l virtual vertices above it; the chain's top is the new root.
      roots = roots.map((rn, i) => {
        const rl = levels[i] as number;
        if (rl === 0) return rn;
        const link = (a: number, b: number) => {
          from.push(mode !== "in" ? a : b);
          to.push(mode !== "in" ? b : a);
        };
        link(n, rn);
        for (let j = 0; j < rl - 1; j++) {
          link(n + 1, n);
          n++;
        }
        return n++;
      });
    }
  }
  let realRoot: number;
  if (roots.length === 1) realRoot = roots[0] as number;
  else {
    realRoot = n++;
    for (const r of roots) {
      from.push(realRoot);
      to.push(r);
    }
  }
  let extended: IGraph = { n, from: Int32Array.from(from), to: Int32Array.from(to), directed: graph.directed };
  // Vertices the real root does not reach hang directly under it.
  const reach = reachable(extended, mode, realRoot);
  let added = false;
  for (let v = 0; v < n; v++) {
    if (reach[v]) continue;
    added = true;
    if (mode !== "in") {
      from.push(realRoot);
      to.push(v);
    } else {
      from.push(v);
      to.push(realRoot);
    }
  }
  if (added) extended = { n, from: Int32Array.from(from), to: Int32Array.from(to), directed: graph.directed };
  return placeTree(extended, mode, realRoot)
    .subarray(0, nOrig * 2)
    .slice();
}

function reachable(graph: IGraph, mode: Mode, root: number): Uint8Array {
  const adj = simpleAdjacency(graph, mode);
  const seen = new Uint8Array(graph.n);
  const queue = new Int32Array(graph.n);
  let head = 0;
  let tail = 0;
  seen[root] = 1;
  queue[tail++] = root;
  while (head < tail) {
    const u = queue[head++] as number;
    for (let j = adj.start[u] as number; j < (adj.start[u + 1] as number); j++) {
      const w = adj.nbr[j] as number;
      if (!seen[w]) {
        seen[w] = 1;
        queue[tail++] = w;
      }
    }
  }
  return seen;
}

/** igraph_i_layout_reingold_tilford: one root from which every vertex is reachable. */
function placeTree(graph: IGraph, mode: Mode, root: number): Float64Array {
  const n = graph.n;
  const adj = simpleAdjacency(graph, mode);
  const res = new Float64Array(n * 2);
  const parent = new Int32Array(n).fill(-1);
  const offset = new Float64Array(n);
  const leftContour = new Int32Array(n).fill(-1);
  const rightContour = new Int32Array(n).fill(-1);
  const offsetToLeftContour = new Float64Array(n);
  const offsetToRightContour = new Float64Array(n);
  const leftExtreme = Int32Array.from({ length: n }, (_, i) => i);
  const rightExtreme = Int32Array.from({ length: n }, (_, i) => i);
  const offsetToLeftExtreme = new Float64Array(n);
  const offsetToRightExtreme = new Float64Array(n);

  // Step 1: BFS depths (y) and parents.
  parent[root] = root;
  const bfs = new Int32Array(n);
  let head = 0;
  let tail = 0;
  bfs[tail++] = root;
  while (head < tail) {
    const u = bfs[head++] as number;
    for (let j = adj.start[u] as number; j < (adj.start[u + 1] as number); j++) {
      const w = adj.nbr[j] as number;
      if ((parent[w] as number) >= 0) continue;
      res[w * 2 + 1] = (res[u * 2 + 1] as number) + 1;
      parent[w] = u;
      bfs[tail++] = w;
    }
  }
  // Children of each vertex in vertex-id order (igraph scans ids 0..n-1 for parent == node).
  const childStart = new Int32Array(n + 1);
  for (let v = 0; v < n; v++) {
    const p = parent[v] as number;
    if (v !== root && p >= 0) childStart[p + 1] = (childStart[p + 1] as number) + 1;
  }
  for (let v = 0; v < n; v++) childStart[v + 1] = (childStart[v + 1] as number) + (childStart[v] as number);
  const children = new Int32Array(childStart[n] as number);
  const fill = childStart.slice(0, n);
  for (let v = 0; v < n; v++) {
    if (v === root || (parent[v] as number) < 0) continue;
    const p = parent[v] as number;
    children[fill[p] as number] = v;
    fill[p] = (fill[p] as number) + 1;
  }

  // Step 2: postorder (every subtree before its parent: reverse BFS order), the X offsets.
  const minsep = 1;
  for (let t = tail - 1; t >= 0; t--) {
    const node = bfs[t] as number;
    const c0 = childStart[node] as number;
    const c1 = childStart[node + 1] as number;
    if (c0 === c1) continue;
    let leftroot = -1;
    let avg = 0;
    for (let c = c0, j = 0; c < c1; c++, j++) {
      const i = children[c] as number;
      if (leftroot >= 0) {
        // Follow the right contour of the placed subtrees and the left contour of the subtree rooted at i.
        let lnode = leftroot;
        let rnode = i;
        let rootsep = (offset[leftroot] as number) + minsep;
        let loffset = offset[leftroot] as number;
        let roffset = loffset + minsep;
        rightContour[node] = i;
        offsetToRightContour[node] = rootsep;
        while (lnode >= 0 && rnode >= 0) {
          if ((rightContour[lnode] as number) >= 0) {
            loffset += offsetToRightContour[lnode] as number;
            lnode = rightContour[lnode] as number;
          } else {
            if ((leftContour[rnode] as number) >= 0) {
              // The left subtrees ended: thread their left extreme onto the right subtree's contour.
              const auxnode = leftExtreme[node] as number;
              const newoffset =
                (offsetToRightExtreme[node] as number) -
                (offsetToLeftExtreme[node] as number) +
                minsep +
                (offsetToLeftContour[rnode] as number);
              leftContour[auxnode] = leftContour[rnode] as number;
              rightContour[auxnode] = leftContour[rnode] as number;
              offsetToLeftContour[auxnode] = newoffset;
              offsetToRightContour[auxnode] = newoffset;
              leftExtreme[node] = leftExtreme[i] as number;
              rightExtreme[node] = rightExtreme[i] as number;
              offsetToLeftExtreme[node] = (offsetToLeftExtreme[i] as number) + rootsep;
              offsetToRightExtreme[node] = (offsetToRightExtreme[i] as number) + rootsep;
            } else {
              rightExtreme[node] = rightExtreme[i] as number;
              offsetToRightExtreme[node] = (offsetToRightExtreme[i] as number) + rootsep;
            }
            lnode = -1;
          }
          if ((leftContour[rnode] as number) >= 0) {
            roffset += offsetToLeftContour[rnode] as number;
            rnode = leftContour[rnode] as number;
          } else {
            if (lnode >= 0) {
              // The right subtree ended: thread its right extreme onto the left subtrees' contour.
              const auxnode = rightExtreme[i] as number;
              const newoffset = loffset - rootsep - (offsetToRightExtreme[i] as number);
              leftContour[auxnode] = lnode;
              rightContour[auxnode] = lnode;
              offsetToLeftContour[auxnode] = newoffset;
              offsetToRightContour[auxnode] = newoffset;
            }
            rnode = -1;
          }
          if (lnode >= 0 && rnode >= 0 && roffset - loffset < minsep) {
            rootsep += minsep - roffset + loffset;
            roffset = loffset + minsep;
            offsetToRightContour[node] = rootsep;
          }
        }
        offset[i] = rootsep;
        offsetToRightContour[node] = rootsep;
        avg = (avg * j) / (j + 1) + rootsep / (j + 1);
        leftroot = i;
      } else {
        leftroot = i;
        leftContour[node] = i;
        rightContour[node] = i;
        offsetToLeftContour[node] = 0;
        offsetToRightContour[node] = 0;
        leftExtreme[node] = leftExtreme[i] as number;
        rightExtreme[node] = rightExtreme[i] as number;
        offsetToLeftExtreme[node] = offsetToLeftExtreme[i] as number;
        offsetToRightExtreme[node] = offsetToRightExtreme[i] as number;
        avg = offset[i] as number;
      }
    }
    offsetToLeftContour[node] = (offsetToLeftContour[node] as number) - avg;
    offsetToRightContour[node] = (offsetToRightContour[node] as number) - avg;
    offsetToLeftExtreme[node] = (offsetToLeftExtreme[node] as number) - avg;
    offsetToRightExtreme[node] = (offsetToRightExtreme[node] as number) - avg;
    for (let c = c0; c < c1; c++) {
      const i = children[c] as number;
      offset[i] = (offset[i] as number) - avg;
    }
  }

  // Step 3: absolute X from the offsets, parents before children (BFS order); the root sits at its own offset.
  res[root * 2] = offset[root] as number;
  for (let t = 0; t < tail; t++) {
    const node = bfs[t] as number;
    for (let c = childStart[node] as number; c < (childStart[node + 1] as number); c++) {
      const i = children[c] as number;
      res[i * 2] = (res[node * 2] as number) + (offset[i] as number);
    }
  }
  return res;
}

/** igraph_layout_reingold_tilford_circular: the tree's x spread over the angle 2*pi*(n-1)/n, depth as radius. */
export function reingoldTilfordCircular(graph: IGraph, options: TreeOptions): Float64Array {
  const res = reingoldTilford(graph, options);
  const n = graph.n;
  if (n === 0) return res;
  let ratio = (2 * Math.PI * (n - 1.0)) / n;
  let minx = res[0] as number;
  let maxx = minx;
  for (let i = 1; i < n; i++) {
    const x = res[i * 2] as number;
    if (x > maxx) maxx = x;
    if (x < minx) minx = x;
  }
  if (maxx > minx) ratio /= maxx - minx;
  for (let i = 0; i < n; i++) {
    const phi = ((res[i * 2] as number) - minx) * ratio;
    const r = res[i * 2 + 1] as number;
    res[i * 2] = r * Math.cos(phi);
    res[i * 2 + 1] = r * Math.sin(phi);
  }
  return res;
}
