// One Edge step: the layered forward hop from a wavefront, and the backward pass that keeps only edges on full paths.

import pl from "nodejs-polars";
import type { EdgeOp } from "./ast.ts";
import { filterExpr } from "./filter-expr.ts";
import { A, B, col, colAs, EID, HOP, ID, idsOf, keepIn, memoExpr, union } from "./graph-frames.ts";
import { checkRows } from "./limits.ts";
import { type QueryExpr, withQuery } from "./query-string/index.ts";

/** The HOP column holding `k` (int64). */
const hopAt = (k: number): pl.Expr => memoExpr(`hop\u0000${k}`, () => pl.lit(k).cast(pl.Int64).alias(HOP));
const minHop = (): pl.Expr => memoExpr("min-hop", () => pl.col(HOP).min());

/** The graph a hop walks: nodes (with ID column `nodeId`) and edges with a synthetic EID index. */
export type HopGraph = { nodes: pl.DataFrame; edges: pl.DataFrame; nodeId: string; source: string; destination: string };

/** Forward result: S_k (edges EID/A/B taken at hop k, k = 1..layers.length), F_k (ids reached at hop k), and the reached set. */
export type HopForward = { layers: pl.DataFrame[]; fronts: pl.DataFrame[]; reached: pl.DataFrame; noEdges: pl.DataFrame };

/**
 * The edges a step may take, oriented: A is the side the walk leaves from, B the side it arrives at. Undirected
 * edges go both ways (a self-loop once); they are oriented per hop, from the edges touching the frontier, rather
 * than doubling the whole edge table up front.
 */
type Oriented = {
  /** EID, A, B for forward/reverse; EID, A (source), B (destination) for undirected: a lazy query until needed. */
  lazy: pl.LazyDataFrame;
  edges?: pl.DataFrame;
  /** Typed, empty EID, A, B. */
  none: pl.DataFrame;
  undirected: boolean;
  /** Allowed A / B ids (source_node_match / destination_node_match), or undefined for any. */
  okA?: pl.DataFrame;
  okB?: pl.DataFrame;
};

function orientedEdges(g: HopGraph, op: EdgeOp, path: string, allowedEdges?: pl.DataFrame): Oriented {
  const expr = withQuery(filterExpr(g.edges, op.edgeMatch, `${path}.edge_match`), g.edges, op.edgeQuery, `${path}.edge_query`);
  const ends =
    op.direction === "reverse"
      ? [col(EID), colAs(g.destination, A), colAs(g.source, B)]
      : [col(EID), colAs(g.source, A), colAs(g.destination, B)];
  // lazily, so only the three columns are gathered
  let lazy = (expr === null ? g.edges.lazy() : g.edges.lazy().filter(expr)).select(...ends);
  if (allowedEdges !== undefined) lazy = lazy.join(allowedEdges.lazy(), { on: EID, how: "semi" });
  // hop.py _build_allowed_ids: the node query filters the nodes the match dict keeps
  const okOf = (match: EdgeOp["sourceNodeMatch"], query: QueryExpr | undefined, what: string) => {
    if (Object.keys(match).length === 0 && query === undefined) return undefined;
    const keep = withQuery(filterExpr(g.nodes, match, `${path}.${what}_match`), g.nodes, query, `${path}.${what}_query`);
    return idsOf(keep === null ? g.nodes : g.nodes.filter(keep), g.nodeId);
  };
  const okA = okOf(op.sourceNodeMatch, op.sourceNodeQuery, "source_node");
  const okB = okOf(op.destinationNodeMatch, op.destinationNodeQuery, "destination_node");
  const none = g.edges.head(0).select(...ends);
  return { lazy, none, undirected: op.direction === "undirected", okA, okB };
}

/**
 * The oriented edges (EID, A, B) leaving `front`, restricted by source/destination node matches. A single directed
 * hop (`once`) runs the edge filter and the frontier join as one query; otherwise the filtered edges are kept for
 * the later hops (and an undirected hop's two joins run eagerly: as one lazy query they take twice as long).
 */
function leaving(o: Oriented, front: pl.DataFrame, once: boolean): pl.DataFrame {
  let step: pl.DataFrame;
  if (once && !o.undirected) step = o.lazy.join(front.lazy(), { leftOn: A, rightOn: ID, how: "semi" }).collectSync();
  else {
    o.edges ??= o.lazy.collectSync();
    step = keepIn(o.edges, A, front);
    if (o.undirected) {
      const back = keepIn(o.edges, B, front)
        .filter(memoExpr("not-loop", () => pl.col(A).neq(pl.col(B)).fillNull(true)))
        .select(col(EID), colAs(B, A), colAs(A, B));
      if (back.height > 0) step = step.height === 0 ? back : pl.concat([step, back]);
    }
  }
  if (o.okA !== undefined) step = keepIn(step, A, o.okA);
  if (o.okB !== undefined) step = keepIn(step, B, o.okB);
  return step;
}

/**
 * Walks hop by hop from `wavefront` (an ID frame). Hop k takes every matching edge leaving F_{k-1}, so a node can
 * be revisited through cycles; the walk stops at max_hops, when a hop reaches nothing, or (to_fixed_point without
 * max_hops) when a hop past min_hops adds no edge and no node not seen before (seen from min_hops on, when that is
 * over 1). Reached = nodes first or again reached at a hop within [min_hops, max_hops].
 */
export function hopForward(g: HopGraph, op: EdgeOp, wavefront: pl.DataFrame, path: string, allowedEdges?: pl.DataFrame): HopForward {
  const oriented = orientedEdges(g, op, path, allowedEdges);
  const empty = wavefront.head(0);
  const layers: pl.DataFrame[] = [];
  const fronts: pl.DataFrame[] = [wavefront];
  let seenNodes = wavefront;
  const noEdges = oriented.none;
  let seenEdges = noEdges; // oriented (EID, A, B): an undirected edge taken the other way is new
  let front = wavefront;
  let held = 0; // rows of all layers so far, capped by GFQL_MAX_INTERMEDIATE_ROWS
  for (let k = 1; op.maxHops === null || k <= op.maxHops; k++) {
    const step = leaving(oriented, front, op.maxHops === 1);
    if (step.height === 0) break;
    held += step.height;
    checkRows(held, `the hop expansion (${k} hops)`, path);
    const next = idsOf(step, B);
    layers.push(step);
    fronts.push(next);
    // Below min_hops the walk goes on whatever it revisits (a cycle may reach some nodes only by longer walks);
    // from min_hops on (when over 1), "new" means not taken or reached since min_hops.
    if (op.maxHops === null && k === op.minHops && k > 1) {
      seenEdges = step.unique();
      seenNodes = next;
    } else if (op.maxHops === null && (k > op.minHops || op.minHops <= 1)) {
      const newEdges = step.join(seenEdges, { on: [EID, A, B], how: "anti" });
      const newNodes = next.join(seenNodes, { on: ID, how: "anti" });
      if (newEdges.height === 0 && newNodes.height === 0) {
        layers.pop();
        fronts.pop();
        break;
      }
      seenEdges = pl.concat([seenEdges, newEdges]);
      seenNodes = pl.concat([seenNodes, newNodes]);
    }
    front = next;
  }
  const inRange = fronts.filter((_, k) => k >= op.minHops);
  return { layers, fronts, reached: union(inRange, empty), noEdges };
}

/** Kept edge ids, the nodes their walks touch, the walk starts, and first-hop labels: EID/HOP and ID/HOP (arrival). */
export type BackwardResult = {
  edgeIds: pl.DataFrame;
  /** Ids of the nodes the kept walks touch (repeats kept). */
  touched: pl.DataFrame;
  starts: pl.DataFrame;
  edgeHops: pl.DataFrame;
  nodeHops: pl.DataFrame;
};

/**
 * Backward pass: keeps the hop-k edges that lie on a walk from the wavefront to a node of `targets` (the later
 * step's pruned nodes) whose length is within the hop bounds. Returns the kept edge ids (EID frame), the nodes
 * those walks touch, and the wavefront nodes that start such a walk.
 */
export function hopBackward(forward: HopForward, op: EdgeOp, targets: pl.DataFrame): BackwardResult {
  if (op.maxHops === null && op.minHops <= 1) return fixedPointBackward(forward, op, targets);
  const empty = targets.head(0);
  const last = forward.layers.length;
  const kept: pl.DataFrame[] = [];
  let good = empty; // G_{k+1}: nodes at hop k+1 from which a walk can still end well
  for (let k = last; k >= 0; k--) {
    const parts: pl.DataFrame[] = [];
    const front = forward.fronts[k];
    if (front !== undefined && k >= op.minHops && (op.maxHops === null || k <= op.maxHops)) {
      parts.push(front.join(targets, { on: ID, how: "semi" }));
    }
    const layer = forward.layers[k]; // S_{k+1}
    if (layer !== undefined && good.height > 0) {
      const useful = keepIn(layer, B, good);
      kept.push(useful.withColumn(hopAt(k + 1)));
      parts.push(idsOf(useful, A));
    }
    good = union(parts, empty);
  }
  return backwardResult(kept.length === 0 ? undefined : pl.concat(kept), good, forward, empty);
}

/**
 * Backward pass of a to_fixed_point step (min_hops 0 or 1): walks have no length bound, so an edge taken in the
 * forward pass is kept when a target can be reached from its far end (in any number of hops, through any cycle),
 * whether or not that walk fits in the hops the forward pass recorded before it saw nothing new. Every edge
 * leaving a reached node is in some forward layer, so the layers hold all the edges such walks use.
 */
function fixedPointBackward(forward: HopForward, op: EdgeOp, targets: pl.DataFrame): BackwardResult {
  const empty = targets.head(0);
  const seeds = forward.fronts[0] ?? empty;
  const zeroHop = op.minHops === 0 ? seeds.join(targets, { on: ID, how: "semi" }) : empty;
  if (forward.layers.length === 0) return backwardResult(undefined, zeroHop, forward, empty);
  // each oriented edge once, at the first hop it was taken
  const taken = pl
    .concat(forward.layers.map((layer, k) => layer.withColumn(hopAt(k + 1))))
    .groupBy([EID, A, B])
    .agg(minHop());
  let good = targets; // nodes from which a target is reached in zero or more hops
  for (;;) {
    const more = idsOf(keepIn(taken, B, good), A).join(good, { on: ID, how: "anti" });
    if (more.height === 0) break;
    good = pl.concat([good, more]);
  }
  const kept = keepIn(taken, B, good);
  const starts = union([zeroHop, seeds.join(idsOf(kept, A), { on: ID, how: "semi" })], empty);
  return backwardResult(kept.height === 0 ? undefined : kept, starts, forward, empty);
}

/** The BackwardResult of kept oriented edges (EID, A, B, HOP; one row per edge and hop), or of none. */
function backwardResult(edges: pl.DataFrame | undefined, starts: pl.DataFrame, forward: HopForward, empty: pl.DataFrame): BackwardResult {
  if (edges === undefined) {
    const none = forward.noEdges.select(EID); // typed like the edge index, so joins on it stay valid
    const noHops = pl.DataFrame({ [HOP]: [] }).select(pl.col(HOP).cast(pl.Int64));
    return {
      edgeIds: none,
      touched: empty,
      starts,
      edgeHops: pl.concat([none, noHops], { how: "horizontal" }),
      nodeHops: pl.concat([empty, noHops], { how: "horizontal" }),
    };
  }
  let edgeHops: pl.DataFrame | undefined;
  let nodeHops: pl.DataFrame | undefined;
  return {
    edgeIds: idsOf(edges, EID).rename({ [ID]: EID }),
    // repeats kept: only the final semi join on the node table reads it
    get touched() {
      return pl.concat([edges.select(colAs(A, ID)), edges.select(colAs(B, ID))]);
    },
    starts,
    // only labels and output slicing read these: computed on first use
    get edgeHops() {
      edgeHops ??= edges.groupBy(EID).agg(minHop());
      return edgeHops;
    },
    get nodeHops() {
      nodeHops ??= edges.groupBy(B).agg(minHop()).select(colAs(B, ID), col(HOP));
      return nodeHops;
    },
  };
}
