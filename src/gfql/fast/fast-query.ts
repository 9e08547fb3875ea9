// The fast path: a Chain or Let made only of plain Node and Edge steps, run over the graph's adjacency index
// (graph-index.ts) instead of polars joins, however much of the table it reads (fast-chain.ts scans every edge once
// for a hop from a large frontier). Anything else (Calls, same-path where, names, hop labels, output
// slicing, to_fixed_point, Duplicated) takes the polars path; so does a graph without an index.

import pl from "nodejs-polars";
import type { Binding, ChainOp, EdgeOp, FilterDict, GfqlQuery, LetQuery, Predicate, TraversalOp } from "../ast.ts";
import { type GfqlGraph, memoExpr } from "../graph-frames.ts";
import { letOrder } from "../let-order.ts";
import { checkRows } from "../limits.ts";
import { fastChain, type Sub } from "./fast-chain.ts";
import { type GraphIndex, graphIndex } from "./graph-index.ts";
import { allRows, ascending, type RowSet, scratch } from "./row-sets.ts";

/** What a query keeps: counts at once, and the rows in ascending order (the tables' own) when read. */
export type FastRows = { nodeCount: number; edgeCount: number; nodeRows(): Int32Array; edgeRows(): Int32Array };

const rowWise = (p: Predicate): boolean => p.type !== "Duplicated" && (p.type !== "AllOf" || p.predicates.every(rowWise));
/** Duplicated depends on the whole table filtered, which on a Ref's subgraph is not the stored table. */
const plainFilter = (f: FilterDict) => Object.values(f).every((v) => v.kind !== "predicate" || rowWise(v.predicate));

/** Query strings (pandas DataFrame.query) run on the polars path only. */
function plainStep(op: ChainOp): boolean {
  if (op.type === "Call" || op.name !== undefined) return false;
  if (op.type === "Node") return op.query === undefined && plainFilter(op.filter);
  const e = op as EdgeOp;
  return (
    e.maxHops !== null &&
    e.edgeQuery === undefined &&
    e.sourceNodeQuery === undefined &&
    e.destinationNodeQuery === undefined &&
    e.outputMinHops === undefined &&
    e.outputMaxHops === undefined &&
    e.labelNodeHops === undefined &&
    e.labelEdgeHops === undefined &&
    e.labelSeeds === undefined &&
    plainFilter(e.edgeMatch) &&
    plainFilter(e.sourceNodeMatch) &&
    plainFilter(e.destinationNodeMatch)
  );
}

function plainBinding(b: Binding): boolean {
  switch (b.type) {
    case "Node":
    case "Edge":
    case "Call":
      return plainStep(b);
    case "Chain":
      return (b.where === undefined || b.where.length === 0) && b.chain.every(plainStep);
    case "Ref":
      return b.chain.every(plainStep);
    case "Let":
      return b.bindings.every((x) => plainBinding(x.value));
  }
}

/** Whether `query` has an Edge step anywhere (a query of Node steps only is one polars filter). */
export function traverses(b: Binding): boolean {
  switch (b.type) {
    case "Edge":
      return true;
    case "Node":
    case "Call":
      return false;
    case "Chain":
    case "Ref":
      return b.chain.some((op) => op.type === "Edge");
    case "Let":
      return b.bindings.some((x) => traverses(x.value));
  }
}

/** Whether the fast path can run `query`. */
function fastPathFits(query: GfqlQuery): boolean {
  return plainBinding(query);
}

const at = (prefix: string) => (i: number) => `${prefix}[${i}]`;
const sizeOf = (ix: GraphIndex, sub: Sub) => sub.nodes.size + (sub.edges === null ? ix.edgeCount : sub.edges.size);

type Run = { ix: GraphIndex; root: Sub };

function runBinding(run: Run, b: Binding, env: ReadonlyMap<string, Sub>, path: string): Sub {
  const { ix, root } = run;
  switch (b.type) {
    case "Node":
    case "Edge":
      return fastChain(ix, root, [b], () => path);
    case "Chain":
      return fastChain(ix, root, b.chain as TraversalOp[], at(`${path}.chain`));
    case "Ref": {
      const base = env.get(b.ref);
      if (base === undefined) throw new Error(`unresolved Ref '${b.ref}' (parse should have refused it)`);
      return fastChain(ix, base, b.chain as TraversalOp[], at(`${path}.chain`));
    }
    case "Let":
      return runLet(run, b, env, path);
    case "Call":
      throw new Error("Calls take the polars path");
  }
}

/** As execute.ts runs a Let: bindings in dependency order, each kept under the intermediate cap. */
function runLet(run: Run, query: LetQuery, outer: ReadonlyMap<string, Sub>, path: string): Sub {
  const env = new Map(outer);
  let last = run.root;
  let held = 0;
  for (const i of letOrder(query, path, new Set(outer.keys()))) {
    const b = query.bindings[i];
    if (b === undefined) continue;
    const where = `${path === "" ? "" : `${path}.`}bindings.${b.name}`;
    last = runBinding(run, b.value, env, where);
    held += sizeOf(run.ix, last);
    checkRows(held, "the Let bindings", where);
    env.set(b.name, last);
  }
  return query.output === undefined ? last : (env.get(query.output) ?? last);
}

const roots = new WeakMap<GraphIndex, Sub>();

/** Runs a query the fast path fits over an indexed graph: the node and edge rows it keeps. */
function runFast(ix: GraphIndex, query: GfqlQuery): FastRows {
  let root = roots.get(ix);
  if (root === undefined) {
    root = { nodes: allRows(ix.nodeCount), edges: null };
    roots.set(ix, root);
  }
  scratch.reset();
  const epoch = scratch.epoch;
  const run: Run = { ix, root };
  const sub = query.type === "Chain" ? fastChain(ix, root, query.chain as TraversalOp[], at("chain")) : runLet(run, query, new Map(), "");
  const every = (n: number) => Int32Array.from({ length: n }, (_, i) => i);
  const rows = (set: RowSet | null, n: number) => {
    let sorted: Int32Array | undefined;
    return () => {
      // the sets live in scratch memory, which the next query hands out again
      if (sorted === undefined && scratch.epoch !== epoch) throw new Error("fast-path rows read after another query ran");
      sorted ??= set === null ? every(n) : ascending(set);
      return sorted;
    };
  };
  return {
    nodeCount: sub.nodes.size,
    edgeCount: sub.edges === null ? ix.edgeCount : sub.edges.size,
    nodeRows: rows(sub.nodes, ix.nodeCount),
    edgeRows: rows(sub.edges, ix.edgeCount),
  };
}

/**
 * The rows `query` keeps of `graph`, by the fast path, or null when the query does not fit it or the graph has
 * no index (`build` builds one for a graph not kept between queries).
 */
export function fastRows(graph: GfqlGraph, query: GfqlQuery, build = false): FastRows | null {
  if (graph.rows === true || !fastPathFits(query)) return null;
  const key = { nodes: graph.nodes, nodeId: graph.nodeId, source: graph.source, destination: graph.destination };
  const ix = graphIndex(key, graph.edges, build);
  return ix === null ? null : runFast(ix, query);
}

/** The rows of `frame` at `rows` (ascending positions), as a frame. */
export function gatherRows(frame: pl.DataFrame, rows: Int32Array): pl.DataFrame {
  if (rows.length === frame.height) return frame;
  if (rows.length === 0) return frame.head(0);
  return frame.select(memoExpr("all", () => pl.all()).gather(pl.Series("rows", rows, pl.Int32)));
}
