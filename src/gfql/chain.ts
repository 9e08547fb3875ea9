// Runs a GFQL chain over a graph with pygraphistry's semantics: forward pass, backward pruning, union of steps.

import pl from "nodejs-polars";
import type { ChainOp, EdgeOp } from "./ast.ts";
import { applyFilter } from "./filter-expr.ts";
import { gfqlError } from "./gfql-error.ts";
import { EID, type GfqlGraph, ID, idsOf, keepIn, markIn, union } from "./graph-frames.ts";
import { type HopForward, type HopGraph, hopBackward, hopForward } from "./hop.ts";

type Step = { op: ChainOp; path: string };

/** Adds the implicit Node() before a leading Edge, after a trailing Edge, and between two Edges. */
function normalize(ops: ChainOp[], pathOf: (i: number) => string): Step[] {
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
  const endpoints = union([idsOf(edges, g.source), idsOf(edges, g.destination)], idsOf(g.nodes, g.nodeId).head(0));
  const missing = endpoints.join(idsOf(g.nodes, g.nodeId), { on: ID, how: "anti" });
  const nodes = missing.height === 0 ? g.nodes : pl.concat([g.nodes, missing.select(pl.col(ID).alias(g.nodeId))], { how: "diagonal" });
  return { nodes, edges, nodeId: g.nodeId, source: g.source, destination: g.destination };
}

function checkNames(ops: ChainOp[], pathOf: (i: number) => string): void {
  const seen = new Set<string>();
  ops.forEach((op, i) => {
    if (op.name === undefined) return;
    if (seen.has(op.name)) throw gfqlError("E204", `duplicate step name '${op.name}'`, `${pathOf(i)}.name`);
    seen.add(op.name);
  });
}

export function runChain(graph: GfqlGraph, ops: ChainOp[], pathOf: (i: number) => string): GfqlGraph {
  if (ops.length === 0) return graph;
  checkNames(ops, pathOf);
  const g = prepare(graph);
  const steps = normalize(ops, pathOf);
  const allIds = idsOf(g.nodes, g.nodeId);
  const emptyIds = allIds.head(0);

  // Forward pass: node steps filter the wavefront, edge steps hop from it.
  const fronts: pl.DataFrame[] = [];
  const hops: Array<HopForward | undefined> = [];
  let wave = allIds;
  for (const { op, path } of steps) {
    if (op.type === "Node") {
      const matched = idsOf(applyFilter(g.nodes, op.filter, `${path}.filter_dict`), g.nodeId);
      wave = wave.join(matched, { on: ID, how: "semi" });
      hops.push(undefined);
    } else {
      const fwd = hopForward(g, op, wave, path);
      hops.push(fwd);
      wave = fwd.reached;
    }
    fronts.push(wave);
  }

  // Backward pass: each step keeps only what continues to the end of the chain.
  const pruned: pl.DataFrame[] = new Array(steps.length);
  const keptEdges: pl.DataFrame[] = new Array(steps.length);
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
      keptEdges[i] = back.edgeIds;
      touched.push(back.touched);
      needed = back.starts;
    }
  }

  // Combine: union of pruned steps, attributes from the original tables, then the named-step columns.
  const nodeIds = union([...pruned.filter((p) => p !== undefined), ...touched], emptyIds);
  const edgeIds = union(
    keptEdges.filter((e) => e !== undefined),
    g.edges.select(EID).head(0),
  );
  let nodes = keepIn(g.nodes, g.nodeId, nodeIds);
  let edges = g.edges.join(edgeIds, { on: EID, how: "semi" });
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
