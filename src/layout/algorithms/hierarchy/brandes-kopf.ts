// Sugiyama's horizontal coordinates as igraph 0.10 assigns them: Brandes and Köpf's "Fast and Simple Horizontal
// Coordinate Assignment" (2002) on the ordered proper layering: type 1 conflicts marked, four vertical alignments
// (up/down x left/right) each compacted with gap `hgap`, aligned to the narrowest, and each vertex at the median
// of its four candidates. Ported from igraph's sugiyama.c with its quirks (its conflict scan reads edge ids by
// position), so positions equal igraph's.
import { type IGraph, incidence } from "./igraph-graph.ts";
import { qsortInd } from "./igraph-qsort.ts";

export function placeHorizontally(graph: IGraph, layers: Int32Array[], x: Float64Array, hgap: number, realNodes: number): void {
  const n = graph.n;
  const m = graph.from.length;
  const { from, to } = graph;
  const isDummy = (v: number) => v >= realNodes;
  const isInner = (u: number, v: number) => isDummy(u) && isDummy(v);
  const outs = incidence(graph, "out");
  const ins = incidence(graph, "in");
  const ignored = new Uint8Array(m);
  for (let i = 0; i < layers.length - 1; i++) {
    let count = 0;
    for (const v of layers[i] as Int32Array) count += (outs.start[v + 1] as number) - (outs.start[v] as number);
    for (let j = 0; j < count; j++) {
      const u = from[j] as number;
      const v = to[j] as number;
      const jInner = isInner(u, v);
      for (let k = j + 1; k < count; k++) {
        const w = from[k] as number;
        const xk = to[k] as number;
        if (isInner(w, xk) === jInner) continue;
        let crossing = u === w || v === xk;
        if (!crossing)
          crossing = (x[u] as number) <= (x[w] as number) ? (x[v] as number) >= (x[xk] as number) : (x[v] as number) <= (x[xk] as number);
        if (crossing) ignored[jInner ? k : j] = 1;
      }
    }
  }
  const toTheLeft = new Int32Array(n);
  for (const members of layers) {
    if (members.length === 0) continue;
    let l = members[0] as number;
    toTheLeft[l] = l;
    for (let j = 1; j < members.length; j++) {
      const k = members[j] as number;
      toTheLeft[k] = l;
      l = k;
    }
  }
  // The edge between two vertices, either way (igraph_get_eid, undirected lookup): the lowest id.
  const edgeBetween = (a: number, b: number): number => {
    for (let j = outs.start[a] as number; j < (outs.start[a + 1] as number); j++) if (outs.nbr[j] === b) return outs.edges[j] as number;
    for (let j = outs.start[b] as number; j < (outs.start[b + 1] as number); j++) if (outs.nbr[j] === a) return outs.edges[j] as number;
    return -1;
  };
  const xs = [0, 1, 2, 3].map((i) => {
    const reverse = i >= 2;
    const alignRight = i % 2 === 1;
    const { roots, align } = verticalAlignment(layers, x, reverse ? outs : ins, ignored, edgeBetween, reverse, alignRight, n);
    return horizontalCompaction(toTheLeft, roots, align, hgap, n);
  });
  const mins = xs.map((v) => v.reduce((a, b) => Math.min(a, b), Number.POSITIVE_INFINITY));
  const maxs = xs.map((v) => v.reduce((a, b) => Math.max(a, b), Number.NEGATIVE_INFINITY));
  let best = 0;
  let minWidth = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 4; i++) {
    const width = (maxs[i] as number) - (mins[i] as number);
    if (width < minWidth) {
      minWidth = width;
      best = i;
    }
  }
  for (let i = 0; i < 4; i++) {
    if (i === best) continue;
    const diff = i % 2 === 0 ? (mins[best] as number) - (mins[i] as number) : (maxs[best] as number) - (maxs[i] as number);
    const v = xs[i] as Float64Array;
    for (let k = 0; k < n; k++) v[k] = (v[k] as number) + diff;
  }
  for (let k = 0; k < n; k++) {
    const four = [xs[0]?.[k], xs[1]?.[k], xs[2]?.[k], xs[3]?.[k]] as number[];
    four.sort((a, b) => a - b);
    x[k] = ((four[1] as number) + (four[2] as number)) / 2;
  }
}

function verticalAlignment(
  layers: Int32Array[],
  x: Float64Array,
  side: ReturnType<typeof incidence>,
  ignored: Uint8Array,
  edgeBetween: (a: number, b: number) => number,
  reverse: boolean,
  alignRight: boolean,
  n: number,
): { roots: Int32Array; align: Int32Array } {
  const roots = Int32Array.from({ length: n }, (_, i) => i);
  const align = Int32Array.from({ length: n }, (_, i) => i);
  const count = layers.length;
  for (let i = reverse ? count - 2 : 1; reverse ? i > -1 : i < count; i += reverse ? -1 : 1) {
    const layer = layers[i] as Int32Array;
    let r = alignRight ? Number.MAX_SAFE_INTEGER : -1;
    for (let j = alignRight ? layer.length - 1 : 0; alignRight ? j > -1 : j < layer.length; j += alignRight ? -1 : 1) {
      const vertex = layer[j] as number;
      if (align[vertex] !== vertex) continue;
      const a = side.start[vertex] as number;
      const b = side.start[vertex + 1] as number;
      const deg = b - a;
      if (deg === 0) continue;
      const medians = [-1, -1];
      if (deg === 1) medians[0] = side.nbr[a] as number;
      else {
        const neis = side.nbr.subarray(a, b);
        const inds = qsortInd(
          Float64Array.from(neis, (v) => x[v] as number),
          "ascending",
        );
        const half = Math.floor(deg / 2);
        if (deg % 2 === 1) medians[0] = neis[inds[half] as number] as number;
        else if (alignRight) {
          medians[0] = neis[inds[half] as number] as number;
          medians[1] = neis[inds[half - 1] as number] as number;
        } else {
          medians[0] = neis[inds[half - 1] as number] as number;
          medians[1] = neis[inds[half] as number] as number;
        }
      }
      for (const median of medians) {
        if (median < 0 || align[vertex] !== vertex) continue;
        if (ignored[edgeBetween(vertex, median)]) continue;
        const pos = x[median] as number;
        if ((alignRight && r > pos) || (!alignRight && r < pos)) {
          align[median] = vertex;
          roots[vertex] = roots[median] as number;
          align[vertex] = roots[median] as number;
          r = pos;
        }
      }
    }
  }
  return { roots, align };
}

function horizontalCompaction(toTheLeft: Int32Array, roots: Int32Array, align: Int32Array, hgap: number, n: number): Float64Array {
  const sinks = Int32Array.from({ length: n }, (_, i) => i);
  const shifts = new Float64Array(n).fill(Number.POSITIVE_INFINITY);
  const xs = new Float64Array(n).fill(-1);
  // igraph's recursive place_block, run on an explicit stack: a frame is a block root v, the vertex w of its block
  // being looked at, and the root u of the block to w's left once that block has been placed.
  type Frame = { v: number; w: number; u: number };
  const stack: Frame[] = [];
  const enter = (v: number) => {
    if ((xs[v] as number) >= 0) return;
    xs[v] = 0;
    stack.push({ v, w: v, u: -1 });
  };
  for (let i = 0; i < n; i++) {
    if (roots[i] !== i) continue;
    enter(i);
    while (stack.length > 0) {
      const f = stack[stack.length - 1] as Frame;
      if (f.u < 0) {
        const left = toTheLeft[f.w] as number;
        if (left !== f.w) {
          f.u = roots[left] as number;
          enter(f.u);
          continue;
        }
      } else {
        const { u, v } = f;
        const uSink = sinks[u] as number;
        let vSink = sinks[v] as number;
        if (vSink === v) {
          sinks[v] = uSink;
          vSink = uSink;
        }
        if (vSink !== uSink) {
          const gap = (xs[v] as number) - (xs[u] as number) - hgap;
          if ((shifts[uSink] as number) > gap) shifts[uSink] = gap;
        } else if ((xs[v] as number) < (xs[u] as number) + hgap) xs[v] = (xs[u] as number) + hgap;
        f.u = -1;
      }
      f.w = align[f.w] as number;
      if (f.w === f.v) stack.pop();
    }
  }
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const root = roots[i] as number;
    out[i] = xs[root] as number;
    const shift = shifts[sinks[root] as number] as number;
    if (shift < Number.POSITIVE_INFINITY) out[i] = (out[i] as number) + shift;
  }
  return out;
}
