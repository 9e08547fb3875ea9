// A chain of Node and Edge steps over an indexed graph, with the polars path's semantics (chain.ts, hop.ts) step
// for step: the forward pass hop by hop from the wavefront, the backward pass that keeps only edges on walks that
// end well, and the union of what each step keeps. Sets are row masks; a hop reads only the frontier's edges.

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
 * Edges a query may read through the index before it is handed to polars instead: one that reads a large share
 * of the table (a hop from a fifth of the nodes, say) runs faster as polars' joins over whole columns than as
 * row-by-row lookups.
 */
export type Budget = { left: number };

/** Thrown when a query spends its budget; the caller runs it on the polars path. */
export class DenseQuery extends Error {}

/** An Edge step's filters; the edge filter per adjacency order (it tests positions of outEdges / inEdges). */
type EdgeTests = { edgeOut: RowFilter | null; edgeIn: RowFilter | null; a: RowFilter | null; b: RowFilter | null };

/** Each step's compiled filters, in step order (so the first bad filter is the error, as on the polars path). */
function compile(ix: GraphIndex, steps: Step[]): Array<RowFilter | null | EdgeTests> {
  return steps.map(({ op, path }) => {
    if (op.type === "Node") return rowFilter(ix.nodes, (op as NodeOp).filter, `${path}.filter_dict`);
    const e = op as EdgeOp;
    // the edge filter in the adjacency orders the step reads (both for an undirected step)
    const out = e.direction !== "reverse";
    const into = e.direction !== "forward";
    const orders = [...(out ? [ix.outEdges] : []), ...(into ? [ix.inEdges] : [])];
    const [first, second] = rowFilters(ix.edges, e.edgeMatch, `${path}.edge_match`, orders);
    return {
      edgeOut: out ? (first ?? null) : null,
      edgeIn: into ? ((out ? second : first) ?? null) : null,
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
 * The oriented edges of `base` leaving `front` that pass the step's tests (an undirected self-loop once): first
 * each node's outgoing edges (forward, undirected), then its incoming ones (reverse, undirected), each block read
 * and filtered in adjacency order.
 */
function leaving(ix: GraphIndex, base: Sub, op: EdgeOp, tests: EdgeTests, front: RowSet, budget: Budget): Layer {
  const from = keep(ix, front, tests.a);
  const out = op.direction !== "reverse";
  const into = op.direction !== "forward";
  let total = 0;
  for (let i = 0; i < from.size; i++) {
    const a = from.list[i] as number;
    if (out) total += (ix.outStart[a + 1] as number) - (ix.outStart[a] as number);
    if (into) total += (ix.inStart[a + 1] as number) - (ix.inStart[a] as number);
  }
  budget.left -= total;
  if (budget.left < 0) throw new DenseQuery();
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
function hopForward(ix: GraphIndex, base: Sub, op: EdgeOp, tests: EdgeTests, wave: RowSet, path: string, budget: Budget): Forward {
  const layers: Layer[] = [];
  const fronts: RowSet[] = [wave];
  let front = wave;
  let held = 0;
  for (let k = 1; k <= (op.maxHops as number); k++) {
    const layer = leaving(ix, base, op, tests, front, budget);
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

/** Runs normalized traversal `ops` on `base`: the nodes and edges the chain keeps. */
export function fastChain(ix: GraphIndex, base: Sub, ops: TraversalOp[], pathOf: (i: number) => string, budget: Budget): Sub {
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
      const fwd = hopForward(ix, base, op as EdgeOp, tests[i] as EdgeTests, wave ?? base.nodes, path, budget);
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
