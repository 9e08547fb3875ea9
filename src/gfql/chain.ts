// Runs a GFQL chain over a graph with pygraphistry's semantics: forward pass, backward pruning, union of steps.

import pl from "nodejs-polars";
import type { EdgeOp, NodeOp, TraversalOp } from "./ast.ts";
import { idsKnownUnique } from "./fast/graph-index.ts";
import { cannotFailAtRun, filterExpr } from "./filter-expr.ts";
import { gfqlError } from "./gfql-error.ts";
import {
  addLabel,
  colAs,
  concatIds,
  dtypeOf,
  EID,
  type GfqlGraph,
  HOP,
  ID,
  idsOf,
  keepIn,
  markIn,
  memoExpr,
  union,
} from "./graph-frames.ts";
import { type BackwardResult, type HopForward, type HopGraph, hopBackward, hopForward } from "./hop.ts";
import { withQuery } from "./query-string/index.ts";
import { samePathRestrict, type WhereSpec } from "./same-path.ts";

export type Step = { op: TraversalOp; path: string };

/** Adds the implicit Node() before a leading Edge, after a trailing Edge, and between two Edges. */
export function normalize(ops: TraversalOp[], pathOf: (i: number) => string): Step[] {
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

/**
 * Appends edge endpoints missing from the node table (attributes null), casting endpoints to the id dtype; a graph
 * whose node table is partial on purpose keeps only the edges both of whose endpoints are in it.
 */
function prepare(g: GfqlGraph, nodes?: pl.DataFrame): HopGraph {
  let edges = g.edges;
  const idType = dtypeOf(g.nodes, g.nodeId);
  for (const col of [g.source, g.destination]) {
    if (String(dtypeOf(edges, col)) !== String(idType)) edges = edges.withColumn(pl.col(col).cast(idType));
  }
  if (g.partialNodes) {
    const ids = idsOf(g.nodes, g.nodeId);
    edges = keepIn(keepIn(edges, g.source, ids), g.destination, ids);
  }
  edges = edges.withRowIndex(EID);
  return { nodes: nodes ?? withMissingEndpoints(g, edges), edges, nodeId: g.nodeId, source: g.source, destination: g.destination };
}

/** g's node table plus a row (attributes null) for each endpoint of `edges` (endpoints cast) not in it. */
function withMissingEndpoints(g: GfqlGraph, edges: pl.DataFrame): pl.DataFrame {
  if (g.endpointsInNodes || g.partialNodes) return g.nodes;
  if (edges.height === 0) return g.nodes;
  const endpoints = pl
    .concat([edges.select(colAs(g.source, ID)), edges.select(colAs(g.destination, ID))])
    .select(memoExpr(`unique\u0000${ID}`, () => pl.col(ID).unique()));
  const missing = endpoints.join(idsOf(g.nodes, g.nodeId), { on: ID, how: "anti" });
  return missing.height === 0 ? g.nodes : pl.concat([g.nodes, missing.select(pl.col(ID).alias(g.nodeId))], { how: "diagonal" });
}

/** A name marks one table's rows: unique among Node steps and among Edge steps (combine_steps, E201). */
function checkNames(ops: TraversalOp[], pathOf: (i: number) => string): void {
  const seen = new Map<string, number>();
  ops.forEach((op, i) => {
    if (op.name === undefined) return;
    const key = `${op.type}\u0000${op.name}`;
    const first = seen.get(key);
    if (first !== undefined) {
      throw gfqlError("E201", `duplicate alias name '${op.name}' in chain (steps ${first} and ${i})`, `${pathOf(i)}.name`);
    }
    seen.set(key, i);
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
 * Node hop labels of one Edge step: the first hop a node is arrived at. With label_seeds the step's seeds (its
 * wavefront) are 0; otherwise a walk start keeps a label only if a (directed) walk arrives back at it.
 */
function nodeHopLabels(back: BackwardResult, op: EdgeOp, seeds: pl.DataFrame): pl.DataFrame {
  const starts = op.labelSeeds === true ? seeds : back.starts;
  // pygraphistry (hop.py): with output slicing, a node whose hop lies outside the slice keeps its row, unlabelled
  let hops = back.nodeHops;
  if (op.outputMinHops !== undefined) hops = hops.filter(pl.col(HOP).gtEq(op.outputMinHops));
  if (op.outputMaxHops !== undefined) hops = hops.filter(pl.col(HOP).ltEq(op.outputMaxHops));
  if (op.labelSeeds === true) {
    const seeds = starts.withColumn(pl.lit(0).cast(pl.Int64).alias(HOP));
    return pl.concat([seeds, hops.join(starts, { on: ID, how: "anti" })]);
  }
  return op.direction === "undirected" ? hops.join(starts, { on: ID, how: "anti" }) : hops;
}

/** Extra per-step restrictions from same-path `where` clauses: allowed node ids per Node step, edge ids per Edge step. */
export type Restrict = { nodes: Map<number, pl.DataFrame>; edges: Map<number, pl.DataFrame> };

/** What the forward and backward passes leave for each step (indexed by normalized step). */
export type Passes = {
  hops: Array<HopForward | undefined>;
  /** Each step's forward wavefront: a Node step's, the nodes that pass its filter among those the walk reached. */
  fronts: pl.DataFrame[];
  pruned: pl.DataFrame[];
  keptEdges: pl.DataFrame[];
  backs: Array<BackwardResult | undefined>;
  touched: pl.DataFrame[];
};

/** A Node step's filter over `df`: its filter dict ANDed with its query string; null when it has neither. */
function nodeStepExpr(df: pl.DataFrame, op: NodeOp, path: string): pl.Expr | null {
  return withQuery(filterExpr(df, op.filter, `${path}.filter_dict`), df, op.query, `${path}.query`);
}

/** The distinct non-null ids of the nodes that pass the Node step at `path`. */
function matchedIds(g: HopGraph, op: NodeOp, path: string): pl.DataFrame {
  const expr = nodeStepExpr(g.nodes, op, path);
  const lazy = g.nodes.lazy();
  const ids = memoExpr(`matched\u0000${g.nodeId}`, () => pl.col(g.nodeId).dropNulls().unique().alias(ID));
  return (expr === null ? lazy : lazy.filter(expr)).select(ids).collectSync();
}

function passes(g: HopGraph, steps: Step[], restrict: Restrict | null): Passes {
  const emptyIds = g.nodes.head(0).select(colAs(g.nodeId, ID));

  // Forward pass: node steps filter the wavefront, edge steps hop from it.
  const fronts: pl.DataFrame[] = [];
  const hops: Array<HopForward | undefined> = [];
  let wave: pl.DataFrame | null = null; // null: every node (before the first step)
  steps.forEach(({ op, path }, i) => {
    if (op.type === "Node") {
      if (wave !== null && Object.keys(op.filter).length === 0 && op.query === undefined) {
        // every wave id is a node (prepare leaves every endpoint in the node table): only null ids go, as a semi
        // join on all node ids would drop them
        wave = wave.filter(memoExpr("id-not-null", () => pl.col(ID).isNotNull()));
      } else {
        const matched = matchedIds(g, op, path);
        // a semi join never matches null ids, so the wave holds none
        wave = wave === null ? matched : wave.join(matched, { on: ID, how: "semi" });
      }
      const allowed = restrict?.nodes.get(i);
      if (allowed !== undefined) wave = wave.join(allowed, { on: ID, how: "semi" });
      hops.push(undefined);
    } else {
      const fwd = hopForward(g, op, wave ?? emptyIds, path, restrict?.edges.get(i));
      hops.push(fwd);
      wave = fwd.reached;
    }
    fronts.push(wave ?? emptyIds);
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
      // a single hop's kept edges run from the previous step's pruned nodes to the next one's: nothing to add
      if ((step.op as EdgeOp).maxHops !== 1) touched.push(back.touched);
      needed = back.starts;
    }
  }
  return { hops, fronts, pruned, keptEdges, backs, touched };
}

/** Edges with their endpoints cast to the node id dtype (as prepare leaves them), without the EID index. */
function castEnds(g: GfqlGraph, edges: pl.DataFrame): pl.DataFrame {
  const idType = dtypeOf(g.nodes, g.nodeId);
  let out = edges;
  for (const col of [g.source, g.destination]) {
    if (String(dtypeOf(out, col)) !== String(idType)) out = out.withColumn(pl.col(col).cast(idType));
  }
  return out;
}

/**
 * Node tables this query filtered from one with unique, non-null ids, so a Let's later bindings need no check.
 * Started afresh by each query (startQuery): nothing is carried from one query to the next.
 */
let knownUnique = new WeakSet<pl.DataFrame>();

/** Graphs this query prepared (a Let's bindings all walk the same root): likewise started afresh by each query. */
let preparedGraphs = new WeakMap<GfqlGraph, HopGraph>();

/** A Node-only result not built yet: the rows of `base` (unique, non-null ids) that pass `expr`. */
type Deferred = { base: pl.DataFrame; expr: pl.Expr; built: () => boolean };

/**
 * Node-only results of this query whose node table is built on first read, so that a Let's chain of Refs that
 * only filter nodes runs as one filter of the first table. Likewise started afresh by each query.
 */
let deferred = new WeakMap<GfqlGraph, Deferred>();

export function startQuery(): void {
  knownUnique = new WeakSet();
  preparedGraphs = new WeakMap();
  deferred = new WeakMap();
}

/** A graph whose node table is `base` filtered by `expr`, built when first read (its ids stay unique). */
function deferredGraph(like: GfqlGraph, base: pl.DataFrame, expr: pl.Expr, edges: pl.DataFrame): GfqlGraph {
  let nodes: pl.DataFrame | undefined;
  const build = (): pl.DataFrame => {
    if (nodes === undefined) {
      nodes = base.filter(expr);
      knownUnique.add(nodes);
    }
    return nodes;
  };
  const g: GfqlGraph = {
    get nodes() {
      return build();
    },
    edges,
    nodeId: like.nodeId,
    source: like.source,
    destination: like.destination,
  };
  deferred.set(g, { base, expr, built: () => nodes !== undefined });
  return g;
}

/**
 * Rows `g` holds, for the Let cap: a node table not built yet counts as the table it filters (an upper bound, so
 * a total under the cap needs no build).
 */
export function rowsAtMost(g: GfqlGraph): number {
  const d = deferred.get(g);
  return (d === undefined || d.built() ? g.nodes.height : d.base.height) + g.edges.height;
}

/** Whether the node id column holds no null and no repeated value. */
function idsUnique(nodes: pl.DataFrame, nodeId: string): boolean {
  if (knownUnique.has(nodes) || idsKnownUnique(nodes, nodeId)) return true;
  // one Series wrapper: each polars wrapper object (Series, Expr) costs a few tenths of a millisecond to build
  const ids = nodes.getColumn(nodeId);
  return ids.nullCount() === 0 && ids.nUnique() === nodes.height;
}

/**
 * A chain of Node steps only, over a node table whose ids are unique and non-null: the nodes that pass every
 * step's filter (one polars filter), every named step's column true, and no edges. Where the ids are not unique
 * it returns the node table (missing endpoints added) for the general path, which keeps every row of a matched id.
 */
function nodeOnlyChain(graph: GfqlGraph, steps: Step[]): { result: GfqlGraph } | { nodes: pl.DataFrame } {
  const named = steps.some(({ op }) => op.name !== undefined);
  // a table may be built later only when its filters cannot fail then (their errors must come with this step)
  const defer = (df: pl.DataFrame) =>
    !named && steps.every(({ op }) => (op as NodeOp).query === undefined && cannotFailAtRun(df, (op as NodeOp).filter));
  const pending = deferred.get(graph);
  if (pending !== undefined && defer(pending.base)) {
    // a filter of a table not built yet: one filter of the table it comes from (same columns, so same checks)
    let expr = pending.expr;
    for (const { op, path } of steps) {
      const e = nodeStepExpr(pending.base, op as NodeOp, path);
      if (e !== null) expr = expr.and(e);
    }
    return { result: deferredGraph(graph, pending.base, expr, graph.edges) };
  }
  const emptyEdges = castEnds(graph, graph.edges.head(0));
  const nodes = withMissingEndpoints(graph, graph.endpointsInNodes ? emptyEdges : castEnds(graph, graph.edges));
  if (!idsUnique(nodes, graph.nodeId)) return { nodes };
  let expr: pl.Expr | null = null;
  for (const { op, path } of steps) {
    const e = nodeStepExpr(nodes, op as NodeOp, path);
    if (e !== null) expr = expr === null ? e : expr.and(e);
  }
  if (expr !== null && defer(nodes)) return { result: deferredGraph(graph, nodes, expr, emptyEdges) };
  let out = expr === null ? nodes : nodes.filter(expr);
  knownUnique.add(out);
  for (const { op } of steps) {
    if (op.name === undefined) continue;
    const base: pl.DataFrame = out.columns.includes(op.name) ? out.drop(op.name) : out;
    out = base.withColumn(pl.lit(true).alias(op.name));
    knownUnique.add(out);
  }
  return { result: { nodes: out, edges: emptyEdges, nodeId: graph.nodeId, source: graph.source, destination: graph.destination } };
}

/**
 * The nodes a named Node step marks. Followed by an Edge step, as pygraphistry's combine_steps: the step's nodes
 * that are a source (forward), a destination (reverse) or either endpoint (undirected) of that step's kept edges,
 * so an undirected hop marks a node at either end of its edges, and a multi-hop walk the nodes it leaves from on
 * the way, besides the walk starts (the step's pruned nodes, which are all it marks otherwise, and all a Cypher
 * variable's step marks).
 */
function namedNodeIds(
  g: HopGraph,
  steps: Step[],
  i: number,
  fronts: pl.DataFrame[],
  pruned: pl.DataFrame[],
  keptEdges: pl.DataFrame[],
  emptyIds: pl.DataFrame,
): pl.DataFrame {
  const next = steps[i + 1]?.op;
  const kept = keptEdges[i + 1];
  const front = fronts[i];
  const own = steps[i]?.op;
  const perPath = own?.type === "Node" && own.pathBinding === true;
  if (perPath || next?.type !== "Edge" || kept === undefined || front === undefined) return pruned[i] ?? emptyIds;
  const edges = keepIn(g.edges, EID, kept.select(colAs(EID, ID)));
  const sides = next.direction === "forward" ? [g.source] : next.direction === "reverse" ? [g.destination] : [g.source, g.destination];
  const ends = concatIds(
    sides.map((side) => edges.select(colAs(side, ID))),
    emptyIds,
  );
  // the walk starts too: a zero-hop walk (min_hops 0) starts at a node it takes no edge from
  return union([pruned[i] ?? emptyIds, front.join(ends, { on: ID, how: "semi" })], emptyIds);
}

/** The rows of `edges` (with the EID row index) whose EID is in the id frame, in their original order. */
function edgesAt(edges: pl.DataFrame, eids: pl.DataFrame): pl.DataFrame {
  if (eids.height === 0) return edges.head(0);
  const at = eids.sort(EID).getColumn(EID);
  return edges.select(pl.all().gather(at));
}

export function runChain(graph: GfqlGraph, ops: TraversalOp[], pathOf: (i: number) => string, where?: WhereSpec): GfqlGraph {
  if (ops.length === 0) return graph;
  checkNames(ops, pathOf);
  const steps = normalize(ops, pathOf);
  let withEnds: pl.DataFrame | undefined; // the node table with missing endpoints, when already built
  if (steps.every(({ op }) => op.type === "Node") && (where === undefined || where.clauses.length === 0)) {
    const fast = nodeOnlyChain(graph, steps);
    if ("result" in fast) return fast.result;
    withEnds = fast.nodes;
  }
  let g = preparedGraphs.get(graph);
  if (g === undefined) {
    g = prepare(graph, withEnds);
    preparedGraphs.set(graph, g);
  }
  const emptyIds = g.nodes.head(0).select(colAs(g.nodeId, ID));
  let r = passes(g, steps, null);
  if (where !== undefined && where.clauses.length > 0) {
    r = passes(g, steps, samePathRestrict(g, steps, r, where));
  }
  const { fronts, pruned, keptEdges, backs, touched } = r;

  // Combine: union of pruned steps, attributes from the original tables, then the named-step columns.
  const nodeIds = concatIds([...pruned.filter((p) => p !== undefined), ...touched], emptyIds);
  const edgeIds = union(
    keptEdges.filter((e) => e !== undefined),
    g.edges.select(EID).head(0),
  );
  let edges = edgesAt(g.edges, edgeIds);
  // with output slicing, the nodes returned are the endpoints of the sliced edges
  const sliced = steps.some(({ op }) => op.type === "Edge" && (op.outputMinHops !== undefined || op.outputMaxHops !== undefined));
  const ends = () => concatIds([edges.select(colAs(g.source, ID)), edges.select(colAs(g.destination, ID))], emptyIds);
  // pygraphistry (hop.py) keeps the seeds of a step with label_seeds in its answer, each labelled 0, whether or not
  // a walk from them survives, where the step labels nodes or slices its output: the step's wavefront, the nodes
  // the step before it passed
  const seedsOf = (i: number) => (i > 0 ? (fronts[i - 1] ?? emptyIds) : emptyIds);
  const keepsSeeds = (op: EdgeOp) =>
    op.labelSeeds === true && (op.labelNodeHops !== undefined || op.outputMinHops !== undefined || op.outputMaxHops !== undefined);
  const seeded = steps.flatMap(({ op }, i) => (op.type === "Edge" && keepsSeeds(op) ? [seedsOf(i)] : []));
  let nodes = keepIn(g.nodes, g.nodeId, concatIds([sliced ? ends() : nodeIds, ...seeded], emptyIds));
  steps.forEach(({ op }, i) => {
    const back = backs[i];
    if (op.type !== "Edge" || back === undefined) return;
    if (op.labelEdgeHops !== undefined) edges = addLabel(edges, EID, back.edgeHops, EID, op.labelEdgeHops);
    if (op.labelNodeHops !== undefined) nodes = addLabel(nodes, g.nodeId, nodeHopLabels(back, op, seedsOf(i)), ID, op.labelNodeHops);
  });
  steps.forEach(({ op }, i) => {
    if (op.name === undefined) return;
    if (op.type === "Node") nodes = markIn(nodes, g.nodeId, namedNodeIds(g, steps, i, fronts, pruned, keptEdges, emptyIds), op.name);
    else {
      const ids = (keptEdges[i] ?? g.edges.select(EID).head(0)).select(pl.col(EID).alias(ID));
      edges = markIn(edges, EID, ids, op.name);
    }
  });
  return { nodes, edges: edges.drop(EID), nodeId: g.nodeId, source: g.source, destination: g.destination };
}
