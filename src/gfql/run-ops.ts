// Runs a chain's ops: prefix Calls, then the Node/Edge traversal block, then suffix Calls.

import type { CallOp, ChainOp, TraversalOp } from "./ast.ts";
import { runGraphCall } from "./call-graph.ts";
import { GRAPH_CALLS } from "./call-names.ts";
import { runRowCall } from "./call-rows.ts";
import { runChain } from "./chain.ts";
import { gfqlError } from "./gfql-error.ts";
import type { GfqlGraph } from "./graph-frames.ts";
import { checkRows } from "./limits.ts";
import type { WhereSpec } from "./same-path.ts";

function runCall(g: GfqlGraph, op: CallOp, path: string): GfqlGraph {
  const out = (GRAPH_CALLS as readonly string[]).includes(op.call.fn) ? runGraphCall(g, op.call, path) : runRowCall(g, op.call, path);
  // a call that grows the largest table (materialize_nodes can; a row join would) must stay under the cap; one that
  // keeps or shrinks it adds nothing
  const rows = Math.max(out.nodes.height, out.edges.height);
  if (rows > Math.max(g.nodes.height, g.edges.height)) checkRows(rows, `the result of '${op.call.fn}'`, path);
  return out;
}

/** `ops` were validated by the parser: Calls only before and after the traversal block. */
export function runOps(graph: GfqlGraph, ops: ChainOp[], pathOf: (i: number) => string, where?: WhereSpec): GfqlGraph {
  let g = graph;
  let i = 0;
  for (; i < ops.length && ops[i]?.type === "Call"; i++) g = runCall(g, ops[i] as CallOp, pathOf(i));
  const start = i;
  const traversal: TraversalOp[] = [];
  for (; i < ops.length && ops[i]?.type !== "Call"; i++) traversal.push(ops[i] as TraversalOp);
  if (traversal.length > 0) {
    if (g.rows === true) throw gfqlError("E101", "Node/Edge steps cannot run on a row table", pathOf(start));
    g = runChain(g, traversal, (k) => pathOf(start + k), where);
  }
  for (; i < ops.length; i++) g = runCall(g, ops[i] as CallOp, pathOf(i));
  return g;
}
