// Runs a GFQL chain over a graph with pygraphistry's semantics: forward pass, backward pruning, union of steps.

import pl from "nodejs-polars";
import type { EdgeOp, TraversalOp } from "./ast.ts";
import { applyFilter } from "./filter-expr.ts";
import { gfqlError } from "./gfql-error.ts";
import { addLabel, EID, type GfqlGraph, HOP, ID, idsOf, keepIn, markIn, union } from "./graph-frames.ts";
import { type BackwardResult, type HopForward, type HopGraph, hopBackward, hopForward } from "./hop.ts";
import { samePathRestrict, type WhereSpec } from "./same-path.ts";

export type Step = { op: TraversalOp; path: string };

/** Adds the implicit Node() before a leading Edge, after a trailing Edge, and between two Edges. */
function normalize(ops: TraversalOp[], pathOf: (i: number) => string): Step[] {
  const steps: Step[] = [];
  ops.forEach((op, i) => {
    const prev = steps[steps.length - 1];
    if (op.type === "Edge" && (prev === undefined || prev.op.type === "Edge")) {
      steps.push({ op: { type: "Node", filter: {} }, path: pathOf(i) });
    }
    steps.push({ op, path: pathOf(i) });
  });
  if (steps[steps.length - 1]?.op.type === "Edge") steps.push({ op: { type: "Node", filter: {} }, path: "" });
  return steps;
}

/** Appends edge endpoints missing from the node table (attributes null), casting endpoints to the id dtype. */
function prepare(g: GfqlGraph): HopGraph {
  let edges = g.edges.withRowIndex(EID);
  const idType = g.nodes.getColumn(g.nodeId).dtype;
  for (const col of [g.source, g.destination]) {
    if (String(edges.getColumn(col).dtype) !== String(idType)) edges = edges.withColumn(pl.col(col).cast(idType));
  }
  if (g.endpointsInNodes) return { nodes: g.nodes, edges, nodeId: g.nodeId, source: g.source, destination: g.destination };
  const endpoints = union([idsOf(edges, g.source), idsOf(edges, g.destination)], idsOf(g.nodes, g.nodeId).head(0));
  const missing = endpoints.join(idsOf(g.nodes, g.nodeId), { on: ID, how: "anti" });
  const nodes = missing.height === 0 ? g.nodes : pl.concat([g.nodes, missing.select(pl.col(ID).alias(g.nodeId))], { how: "diagonal" });
  return { nodes, edges, nodeId: g.nodeId, source: g.source, destination: g.destination };
}

function checkNames(ops: TraversalOp[], pathOf: (i: number) => string): void {
  const seen = new Set<string>();
  ops.forEach((op, i) => {
    if (op.name === undefined) return;
    if (seen.has(op.name)) throw gfqlError("E204", `duplicate step name '${op.name}'`, `${pathOf(i)}.name`);
    seen.add(op.name);
  });
}

/** The kept edge ids of one Edge step, restricted to output_min/max_hops by the hop each was first taken at. */
function sliceByHop(back: BackwardResult, op: EdgeOp): pl.DataFrame {
  if (op.outputMinHops === undefined && op.outputMaxHops === undefined) return back.edgeIds;
  let keep: pl.Expr = pl.lit(true);
  if (op.outputMinHops !== undefined) keep = keep.and(pl.col(HOP).gtEq(op.outputMinHops));
  if (op.outputMaxHops !== undefined) keep = keep.and(pl.col(HOP).ltEq(op.outputMaxHops));
  return back.edgeHops.filter(keep).select(EID);
}

/**
 * Node hop labels of one Edge step: the first hop a node is arrived at. With label_seeds the walk starts are 0;
 * otherwise a start keeps a label only if a (directed) walk arrives back at it.
 */
function nodeHopLabels(back: BackwardResult, op: EdgeOp): pl.DataFrame {
  const starts = back.starts;
  if (op.labelSeeds === true) {
    const seeds = starts.withColumn(pl.lit(0).cast(pl.Int64).alias(HOP));
    return pl.concat([seeds, back.nodeHops.join(starts, { on: ID, how: "anti" })]);
  }
  return op.direction === "undirected" ? back.nodeHops.join(starts, { on: ID, how: "anti" }) : back.nodeHops;
}

/** Extra per-step restrictions from same-path `where` clauses: allowed node ids per Node step, edge ids per Edge step. */
export type Restrict = { nodes: Map<number, pl.DataFrame>; edges: Map<number, pl.DataFrame> };

/** What the forward and backward passes leave for each step (indexed by normalized step). */
export type Passes = {
  hops: Array<HopForward | undefined>;
  pruned: pl.DataFrame[];
  keptEdges: pl.DataFrame[];
  backs: Array<BackwardResult | undefined>;
  touched: pl.DataFrame[];
};

function passes(g: HopGraph, steps: Step[], restrict: Restrict | null): Passes {
  const allIds = idsOf(g.nodes, g.nodeId);
  const emptyIds = allIds.head(0);

  // Forward pass: node steps filter the wavefront, edge steps hop from it.
  const fronts: pl.DataFrame[] = [];
  const hops: Array<HopForward | undefined> = [];
  let wave = allIds;
  steps.forEach(({ op, path }, i) => {
    if (op.type === "Node") {
      const matched = idsOf(applyFilter(g.nodes, op.filter, `${path}.filter_dict`), g.nodeId);
      wave = wave.join(matched, { on: ID, how: "semi" });
      const allowed = restrict?.nodes.get(i);
      if (allowed !== undefined) wave = wave.join(allowed, { on: ID, how: "semi" });
      hops.push(undefined);
    } else {
      const fwd = hopForward(g, op, wave, path, restrict?.edges.get(i));
      hops.push(fwd);
      wave = fwd.reached;
    }
    fronts.push(wave);
  });

  // Backward pass: each step keeps only what continues to the end of the chain.
  const pruned: pl.DataFrame[] = new Array(steps.length);
  const keptEdges: pl.DataFrame[] = new Array(steps.length);
  const backs: Array<BackwardResult | undefined> = new Array(steps.length);
  const touched: pl.DataFrame[] = [];
  let needed: pl.DataFrame | null = null; // nodes the next step can continue from; null after the last step
  for (let i = steps.length - 1; i >= 0; i--) {
    const step = steps[i] as Step;
    const front = fronts[i] as pl.DataFrame;
    if (step.op.type === "Node") {
      pruned[i] = needed === null ? front : front.join(needed, { on: ID, how: "semi" });
      needed = pruned[i] as pl.DataFrame;
    } else {
      const back = hopBackward(hops[i] as HopForward, step.op as EdgeOp, needed ?? emptyIds);
      backs[i] = back;
      keptEdges[i] = sliceByHop(back, step.op as EdgeOp);
      touched.push(back.touched);
      needed = back.starts;
    }
  }
  return { hops, pruned, keptEdges, backs, touched };
}

export function runChain(graph: GfqlGraph, ops: TraversalOp[], pathOf: (i: number) => string, where?: WhereSpec): GfqlGraph {
  if (ops.length === 0) return graph;
  checkNames(ops, pathOf);
  const g = prepare(graph);
  const steps = normalize(ops, pathOf);
  const emptyIds = idsOf(g.nodes, g.nodeId).head(0);
  let r = passes(g, steps, null);
  if (where !== undefined && where.clauses.length > 0) {
    r = passes(g, steps, samePathRestrict(g, steps, r, where));
  }
  const { pruned, keptEdges, backs, touched } = r;

  // Combine: union of pruned steps, attributes from the original tables, then the named-step columns.
  const nodeIds = union([...pruned.filter((p) => p !== undefined), ...touched], emptyIds);
  const edgeIds = union(
    keptEdges.filter((e) => e !== undefined),
    g.edges.select(EID).head(0),
  );
  let edges = g.edges.join(edgeIds, { on: EID, how: "semi" });
  // with output slicing, the nodes returned are the endpoints of the sliced edges
  const sliced = steps.some(({ op }) => op.type === "Edge" && (op.outputMinHops !== undefined || op.outputMaxHops !== undefined));
  let nodes = keepIn(g.nodes, g.nodeId, sliced ? union([idsOf(edges, g.source), idsOf(edges, g.destination)], emptyIds) : nodeIds);
  steps.forEach(({ op }, i) => {
    const back = backs[i];
    if (op.type !== "Edge" || back === undefined) return;
    if (op.labelEdgeHops !== undefined) edges = addLabel(edges, EID, back.edgeHops, EID, op.labelEdgeHops);
    if (op.labelNodeHops !== undefined) nodes = addLabel(nodes, g.nodeId, nodeHopLabels(back, op), ID, op.labelNodeHops);
  });
  steps.forEach(({ op }, i) => {
    if (op.name === undefined) return;
    if (op.type === "Node") nodes = markIn(nodes, g.nodeId, pruned[i] ?? emptyIds, op.name);
    else {
      const ids = (keptEdges[i] ?? g.edges.select(EID).head(0)).select(pl.col(EID).alias(ID));
      edges = markIn(edges, EID, ids, op.name);
    }
  });
  return { nodes, edges: edges.drop(EID), nodeId: g.nodeId, source: g.source, destination: g.destination };
}
