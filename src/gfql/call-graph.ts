// Graph Calls: degrees, dict filters, hop, node materialization, self-edge pruning, node drop/keep, compute and
// layouts.

import pl from "nodejs-polars";
import type { CallSpec, Scalar } from "./ast.ts";
import { runComputeCall } from "./call-compute.ts";
import { runFa2Call } from "./call-fa2-layout.ts";
import { runLayoutCall } from "./call-layout.ts";
import { runChain } from "./chain.ts";
import { applyFilter } from "./filter-expr.ts";
import { gfqlError } from "./gfql-error.ts";
import { dtypeOf, type GfqlGraph, ID, idsOf, keepIn } from "./graph-frames.ts";

/** Adds (or replaces) `col` = how many edges have the node as their `end` (source or destination), 0 if none. */
function addDegree(nodes: pl.DataFrame, g: GfqlGraph, end: string, col: string): pl.DataFrame {
  const idType = dtypeOf(nodes, g.nodeId);
  const counts = g.edges.groupBy(end).agg(pl.len().alias(col)).select(pl.col(end).cast(idType).alias(ID), pl.col(col));
  const base: pl.DataFrame = nodes.columns.includes(col) ? nodes.drop(col) : nodes;
  const joined = base.join(counts, { leftOn: g.nodeId, rightOn: ID, how: "left" });
  return joined.withColumn(pl.col(col).fillNull(0).cast(pl.Int32).alias(col)).select(...base.columns, col);
}

/** An id frame of `ids`, typed like the node id column. */
function idFrame(g: GfqlGraph, ids: Array<Scalar | null>): pl.DataFrame {
  const idType = dtypeOf(g.nodes, g.nodeId);
  try {
    return pl.DataFrame({ [ID]: pl.Series(ID, ids).cast(idType) });
  } catch {
    throw gfqlError("E302", `node ids ${JSON.stringify(ids)} do not match the type of column '${g.nodeId}'`, "");
  }
}

/**
 * Runs one graph call. Degrees are merged onto the existing node table (pygraphistry's materialize_nodes(reuse=True)
 * keeps a present node table as is, so endpoints missing from it get no row), as int32 counts.
 */
export function runGraphCall(g: GfqlGraph, spec: CallSpec, path: string): GfqlGraph {
  if (g.rows === true) throw gfqlError("E101", `graph call '${spec.fn}' cannot run on a row table`, path);
  switch (spec.fn) {
    case "get_degrees": {
      let nodes = addDegree(g.nodes, g, g.destination, spec.degreeIn);
      nodes = addDegree(nodes, g, g.source, spec.degreeOut);
      const base: pl.DataFrame = nodes.columns.includes(spec.col) ? nodes.drop(spec.col) : nodes;
      return { ...g, nodes: base.withColumn(pl.col(spec.degreeIn).add(pl.col(spec.degreeOut)).alias(spec.col)) };
    }
    case "get_indegrees":
      return { ...g, nodes: addDegree(g.nodes, g, g.destination, spec.col) };
    case "get_outdegrees":
      return { ...g, nodes: addDegree(g.nodes, g, g.source, spec.col) };
    case "filter_nodes_by_dict":
      return { ...g, nodes: applyFilter(g.nodes, spec.filter, `${path}.params.filter_dict`), partialNodes: true };
    case "filter_edges_by_dict":
      return { ...g, edges: applyFilter(g.edges, spec.filter, `${path}.params.filter_dict`, "edge dataframe") };
    case "hop":
      return runChain(g, [spec.edge], () => `${path}.params`);
    case "materialize_nodes": {
      if (spec.reuse) return g;
      const ends = pl.concat([g.edges.select(pl.col(g.source).alias(g.nodeId)), g.edges.select(pl.col(g.destination).alias(g.nodeId))]);
      return { ...g, nodes: ends.unique({ keep: "first", maintainOrder: true }) };
    }
    case "prune_self_edges":
      return { ...g, edges: g.edges.filter(pl.col(g.source).neq(pl.col(g.destination))) };
    case "drop_nodes":
    case "keep_nodes": {
      const ids = idFrame(g, spec.ids);
      const how = spec.fn === "drop_nodes" ? "anti" : "semi";
      const nodes = g.nodes.join(ids, { leftOn: g.nodeId, rightOn: ID, how });
      // pygraphistry: drop_nodes removes the edges touching a dropped id; keep_nodes keeps the edges both of whose
      // endpoints it keeps (the two differ where the node table lacks an endpoint, after filter_nodes_by_dict say)
      if (spec.fn === "drop_nodes") {
        const without = (df: pl.DataFrame, column: string) => df.join(ids, { leftOn: column, rightOn: ID, how: "anti" });
        return { ...g, nodes, edges: without(without(g.edges, g.source), g.destination) };
      }
      const kept = idsOf(nodes, g.nodeId);
      const edges = keepIn(keepIn(g.edges, g.source, kept), g.destination, kept);
      return { ...g, nodes, edges };
    }
    case "compute_igraph":
    case "compute_cugraph":
      return runComputeCall(g, spec.entry, path);
    case "layout_igraph":
    case "layout_cugraph":
      return runLayoutCall(g, spec, path);
    case "fa2_layout":
      return runFa2Call(g, spec, path);
    default:
      throw new Error(`not a graph call: ${spec.fn}`);
  }
}
