// A chain of Node and Edge steps over an indexed graph, with the polars path's semantics (chain.ts, hop.ts) step
// for step: the forward pass hop by hop from the wavefront, the backward pass that keeps only edges on walks that
// end well, and the union of what each step keeps. Sets are row masks; a hop from a few nodes reads only the
// frontier's edges through the adjacency index, a hop from many scans every edge once against a bitmap of the
// frontier (reading a large share of the table edge by edge through the index costs more than one pass over it).

import type { EdgeOp, NodeOp, TraversalOp } from "../ast.ts";
import { normalize, type Step } from "../chain.ts";
import { checkRows } from "../limits.ts";
import type { GraphIndex } from "./graph-index.ts";
import { type RowFilter, rowFilter, rowFilters } from "./row-filter.ts";
import { Layer, RowListBuilder, type RowSet, RowSetBuilder, scratch } from "./row-sets.ts";
import { candidateRows } from "./sorted-ranges.ts";

/** Part of the indexed graph: its node rows and edge rows (null: every edge of the table). */
export type Sub = { nodes: RowSet; edges: RowSet | null };

/**
 * An Edge step's filters: the edge filter per adjacency order (it tests positions of outEdges / inEdges) and in
 * row order (for a hop that scans every edge).
 */
type EdgeTests = {
  edgeOut: RowFilter | null;
  edgeIn: RowFilter | null;
  edgeRows: RowFilter | null;
  a: RowFilter | null;
  b: RowFilter | null;
};

/** A hop that would read more than this share of the edges through the index scans them all instead. */
const DENSE_SHARE = 1 / 8;

/** Each step's compiled filters, in step order (so the first bad filter is the error, as on the polars path). */
function compile(ix: GraphIndex, steps: Step[]): Array<RowFilter | null | EdgeTests> {
  return steps.map(({ op, path }) => {
    if (op.type === "Node") return rowFilter(ix.nodes, (op as NodeOp).filter, `${path}.filter_dict`);
    const e = op as EdgeOp;
    // the edge filter in the adjacency orders the step reads (both for an undirected step)
    const out = e.direction !== "reverse";
    const into = e.direction !== "forward";
    // and in row order, last (an entry polars evaluates is evaluated once for all three)
    const orders = [...(out ? [ix.outEdges] : []), ...(into ? [ix.inEdges] : []), undefined];
    const filters = rowFilters(ix.edges, e.edgeMatch, `${path}.edge_match`, orders);
    const [first, second] = filters;
    return {
      edgeOut: out ? (first ?? null) : null,
      edgeIn: into ? ((out ? second : first) ?? null) : null,
      edgeRows: filters.at(-1) ?? null,
      a: rowFilter(ix.nodes, e.sourceNodeMatch, `${path}.source_node_match`),
      b: rowFilter(ix.nodes, e.destinationNodeMatch, `${path}.destination_node_match`),
    };
  });
}

type Forward = { layers: Layer[]; fronts: RowSet[]; reached: RowSet };

/**
 * The base's nodes that may pass a first Node step's filter, found through a numeric range of it (sorted-ranges.ts),
 * or null when the filter has none narrow enough. Only `list` and `size` are set: `keep` reads nothing else.
 */
function narrowed(ix: GraphIndex, base: Sub, filter: NodeOp["filter"]): RowSet | null {
  const rows = candidateRows(ix.nodes, filter);
  if (rows === null) return null;
  const inBase = base.nodes.size === ix.nodeCount ? null : base.nodes.mask;
  const list = inBase === null ? rows : rows.filter((r) => inBase[r] === 1);
  return { list, size: list.length, mask: new Uint8Array(0) };
}

/** The rows of `set` that pass `filter` (all of them when there is none). */
function keep(ix: GraphIndex, set: RowSet, filter: RowFilter | null): RowSet {
  if (filter === null) return set;
  const pass = scratch.uint8(set.size).fill(1);
  filter(set.list, set.size, pass);
  const kept = new RowSetBuilder(ix.nodeCount, set.size);
  for (let i = 0; i < set.size; i++) if (pass[i] === 1) kept.add(set.list[i] as number);
  return kept.done();
}

/**
 * The oriented edges of `base` leaving `front` that pass the step's tests (an undirected self-loop once). Through
 * the index: first each node's outgoing edges (forward, undirected), then its incoming ones (reverse, undirected),
 * each block read and filtered in adjacency order. From a large frontier: one scan of the edges in row order.
 */
function leaving(ix: GraphIndex, base: Sub, op: EdgeOp, tests: EdgeTests, front: RowSet): Layer {
  const from = keep(ix, front, tests.a);
  const out = op.direction !== "reverse";
  const into = op.direction !== "forward";
  let total = 0;
  for (let i = 0; i < from.size; i++) {
    const a = from.list[i] as number;
    if (out) total += (ix.outStart[a + 1] as number) - (ix.outStart[a] as number);
    if (into) total += (ix.inStart[a + 1] as number) - (ix.inStart[a] as number);
  }
  if (total > ix.edgeCount * DENSE_SHARE) return scanning(ix, base, op, tests, from, total);
  const layer = new Layer(total);
  const slots = scratch.int32(total);
  const pass = scratch.uint8(total).fill(1);
  // one block per direction: adjacency positions, the node left from and the one arrived at
  const block = (start: Int32Array, far: Int32Array, offset: number, skipLoops: boolean): number => {
    let m = offset;
    for (let i = 0; i < from.size; i++) {
      const a = from.list[i] as number;
      for (let j = start[a] as number, end = start[a + 1] as number; j < end; j++) {
        const b = far[j] as number;
        if (skipLoops && b === a) continue; // a self-loop was taken the other way
        slots[m] = j;
        layer.a[m] = a;
        layer.b[m++] = b;
      }
    }
    return m;
  };
  const outEnd = out ? block(ix.outStart, ix.outDst, 0, false) : 0;
  const m = into ? block(ix.inStart, ix.inSrc, outEnd, op.direction === "undirected") : outEnd;
  for (let i = 0; i < outEnd; i++) layer.e[i] = ix.outEdges[slots[i] as number] as number;
  for (let i = outEnd; i < m; i++) layer.e[i] = ix.inEdges[slots[i] as number] as number;
  tests.edgeOut?.(slots, outEnd, pass);
  if (tests.edgeIn !== null) tests.edgeIn(slots.subarray(outEnd), m - outEnd, pass.subarray(outEnd));
  return finish(base, tests, layer, m, pass);
}

/**
 * leaving() from a frontier whose edges are a large share of the table: every edge tested once against a bitmap
 * of the frontier (its source for forward, its destination for reverse, either for undirected; a self-loop once)
 * and a bitmap of the nodes its far end may be (the far-end test run once over every node, which is cheaper than
 * over a neighbourhood larger than the node table). The layer holds the same oriented edges as the index would
 * give, in another order, which no result depends on (the rows come out in table order).
 */
function scanning(ix: GraphIndex, base: Sub, op: EdgeOp, tests: EdgeTests, from: RowSet, total: number): Layer {
  const { srcRow, dstRow, edgeCount, nodeCount } = ix;
  const inFront = scratch.uint8(nodeCount);
  for (let i = 0; i < from.size; i++) inFront[from.list[i] as number] = 1;
  const farOk = scratch.uint8(nodeCount).fill(1);
  if (tests.b !== null) {
    const every = scratch.int32(nodeCount);
    for (let r = 0; r < nodeCount; r++) every[r] = r;
    tests.b(every, nodeCount, farOk);
  }
  const out = op.direction !== "reverse";
  const into = op.direction !== "forward";
  const loopsOnce = op.direction === "undirected";
  const layer = new Layer(total + 1);
  const { e: le, a: la, b: lb } = layer;
  let m = 0;
  // Without branches on the bitmaps (which pass a random share of the edges, so a branch would be mispredicted about
  // as often as not): each edge is written at the next place, which moves on only when it passed. The layer has
  // room for every passing edge plus one.
  if (out !== into) {
    // The two bitmaps packed a bit per node (1/8 of the bytes: both stay in the core's cache while the edges stream by).
    const front = packBits(inFront, nodeCount);
    const far = packBits(farOk, nodeCount);
    const near = out ? srcRow : dstRow;
    const other = out ? dstRow : srcRow;
    // Only the edge is written in the loop (one store an edge, not three); its ends are read again for those kept.
    for (let e = 0; e < edgeCount; e++) {
      const s = near[e] as number;
      const d = other[e] as number;
      le[m] = e;
      m += ((front[s >>> 5] as number) >>> (s & 31)) & ((far[d >>> 5] as number) >>> (d & 31)) & 1;
    }
    for (let i = 0; i < m; i++) {
      const e = le[i] as number;
      la[i] = near[e] as number;
      lb[i] = other[e] as number;
    }
  } else {
    for (let e = 0; e < edgeCount; e++) {
      const s = srcRow[e] as number;
      const d = dstRow[e] as number;
      if (inFront[s] === 1 && farOk[d] === 1) {
        le[m] = e;
        la[m] = s;
        lb[m++] = d;
      }
      if (inFront[d] === 1 && farOk[s] === 1 && !(loopsOnce && s === d)) {
        le[m] = e;
        la[m] = d;
        lb[m++] = s;
      }
    }
  }
  const pass = scratch.uint8(m).fill(1);
  tests.edgeRows?.(le, m, pass);
  return finish(base, { ...tests, b: null }, layer, m, pass);
}

/** bytes[0 .. n) (each 0 or 1) as bits, 32 to a word (scratch space). */
function packBits(bytes: Uint8Array, n: number): Uint32Array {
  const words = scratch.int32((n + 31) >>> 5);
  const bits = new Uint32Array(words.buffer, words.byteOffset, words.length).fill(0);
  for (let r = 0; r < n; r++) bits[r >>> 5] = (bits[r >>> 5] as number) | ((bytes[r] as number) << (r & 31));
  return bits;
}

/** The layer's first m edges that passed so far, those in the base's edges and whose far end passes, compacted. */
function finish(base: Sub, tests: EdgeTests, layer: Layer, m: number, pass: Uint8Array): Layer {
  const inBase = base.edges?.mask;
  if (inBase !== undefined) for (let i = 0; i < m; i++) if (inBase[layer.e[i] as number] !== 1) pass[i] = 0;
  tests.b?.(layer.b, m, pass);
  let k = 0;
  for (let i = 0; i < m; i++) {
    if (pass[i] !== 1) continue;
    layer.e[k] = layer.e[i] as number;
    layer.a[k] = layer.a[i] as number;
    layer.b[k++] = layer.b[i] as number;
  }
  layer.size = k;
  return layer;
}

/** Hop by hop from the wavefront, up to max_hops or until a hop takes nothing; reached = fronts from min_hops on. */
function hopForward(ix: GraphIndex, base: Sub, op: EdgeOp, tests: EdgeTests, wave: RowSet, path: string): Forward {
  const layers: Layer[] = [];
  const fronts: RowSet[] = [wave];
  let front = wave;
  let held = 0;
  for (let k = 1; k <= (op.maxHops as number); k++) {
    const layer = leaving(ix, base, op, tests, front);
    if (layer.size === 0) break;
    held += layer.size;
    checkRows(held, `the hop expansion (${k} hops)`, path);
    const next = new RowSetBuilder(ix.nodeCount, layer.size);
    for (let i = 0; i < layer.size; i++) next.add(layer.b[i] as number);
    layers.push(layer);
    front = next.done();
    fronts.push(front);
  }
  const inRange = fronts.filter((_, k) => k >= op.minHops);
  if (inRange.length === 1) return { layers, fronts, reached: inRange[0] as RowSet };
  const reached = new RowSetBuilder(
    ix.nodeCount,
    inRange.reduce((n, f) => n + f.size, 0),
  );
  for (const f of inRange) reached.addAll(f);
  return { layers, fronts, reached: reached.done() };
}

type Backward = { edges: RowListBuilder; touched: RowSetBuilder | null; starts: RowSet };

/** Keeps the hop-k edges on a walk from the wavefront to a target whose length is within the hop bounds. */
function hopBackward(ix: GraphIndex, fwd: Forward, op: EdgeOp, targets: RowSet): Backward {
  const edges = new RowListBuilder(fwd.layers.reduce((n, layer) => n + layer.size, 0));
  // a directed single hop takes each edge once; more hops, or both ways, may take one edge again
  edges.distinct = op.maxHops === 1 && op.direction !== "undirected";
  const touched = op.maxHops === 1 ? null : new RowSetBuilder(ix.nodeCount, edges.capacity);
  let good: RowSet | null = null;
  for (let k = fwd.layers.length; k >= 0; k--) {
    const front = fwd.fronts[k];
    const next = new RowSetBuilder(ix.nodeCount, (front?.size ?? 0) + (fwd.layers[k]?.size ?? 0));
    if (front !== undefined && k >= op.minHops && k <= (op.maxHops as number)) {
      for (let i = 0; i < front.size; i++) {
        const r = front.list[i] as number;
        if (targets.mask[r] === 1) next.add(r);
      }
    }
    const layer = fwd.layers[k];
    if (layer !== undefined && good !== null && good.size > 0) {
      const g = good.mask;
      for (let i = 0; i < layer.size; i++) {
        const b = layer.b[i] as number;
        if (g[b] !== 1) continue;
        const a = layer.a[i] as number;
        edges.push(layer.e[i] as number);
        next.add(a);
        touched?.add(a);
        touched?.add(b);
      }
    }
    good = next.done();
  }
  return { edges, touched, starts: good as RowSet };
}

/**
 * A single hop's tests with the next Node step's filter added to its far-end test: the backward pass drops every
 * edge whose far end fails that filter, so the hop need not take them (a hop from many nodes then keeps a layer
 * and a frontier as small as the answer, not as the neighbourhood). A hop of more steps passes through nodes the
 * filter does not apply to, so it keeps its own tests.
 */
function lookingAhead(op: EdgeOp, tests: EdgeTests, next: RowFilter | null | EdgeTests | undefined): EdgeTests {
  if (op.minHops !== 1 || op.maxHops !== 1 || typeof next !== "function") return tests;
  const own = tests.b;
  const b: RowFilter =
    own === null
      ? next
      : (rows, n, pass) => {
          own(rows, n, pass);
          next(rows, n, pass);
        };
  return { ...tests, b };
}

/** Runs normalized traversal `ops` on `base`: the nodes and edges the chain keeps. */
export function fastChain(ix: GraphIndex, base: Sub, ops: TraversalOp[], pathOf: (i: number) => string): Sub {
  if (ops.length === 0) return base;
  const steps = normalize(ops, pathOf);
  const tests = compile(ix, steps);

  // Forward pass: node steps filter the wavefront, edge steps hop from it.
  const fronts: RowSet[] = [];
  const hops: Array<Forward | undefined> = [];
  let wave: RowSet | null = null; // null: every node of the base (before the first step)
  steps.forEach(({ op, path }, i) => {
    if (op.type === "Node") {
      wave = keep(ix, wave ?? narrowed(ix, base, (op as NodeOp).filter) ?? base.nodes, tests[i] as RowFilter | null);
      hops.push(undefined);
    } else {
      const fwd = hopForward(
        ix,
        base,
        op as EdgeOp,
        lookingAhead(op as EdgeOp, tests[i] as EdgeTests, tests[i + 1]),
        wave ?? base.nodes,
        path,
      );
      hops.push(fwd);
      wave = fwd.reached;
    }
    fronts.push(wave as RowSet);
  });

  // Backward pass, then the union of what each step keeps.
  const nodes = new RowSetBuilder(
    ix.nodeCount,
    fronts.reduce((n, f) => n + f.size, 0),
  );
  const edges = new RowListBuilder();
  let edgeSteps = 0; // Edge steps that kept edges: rows of two of them may repeat
  let needed: RowSet | null = null;
  for (let i = steps.length - 1; i >= 0; i--) {
    const step = steps[i] as Step;
    const front = fronts[i] as RowSet;
    if (step.op.type === "Node") {
      let pruned: RowSet = front;
      if (needed !== null) {
        const kept = new RowSetBuilder(ix.nodeCount, Math.min(front.size, 1024));
        for (let j = 0; j < front.size; j++) {
          const r = front.list[j] as number;
          if ((needed as RowSet).mask[r] === 1) kept.add(r);
        }
        pruned = kept.done();
      }
      nodes.addAll(pruned);
      needed = pruned;
    } else {
      const back = hopBackward(ix, hops[i] as Forward, step.op as EdgeOp, needed as RowSet);
      if (back.edges.size > 0) {
        edges.pushFrom(back.edges);
        edges.distinct &&= back.edges.distinct && ++edgeSteps === 1;
      }
      if (back.touched !== null) nodes.addAll(back.touched.done());
      needed = back.starts;
    }
  }
  return { nodes: nodes.done(), edges: edges.done(ix.edgeCount) };
}
