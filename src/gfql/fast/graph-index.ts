// The adjacency of a stored graph as typed arrays (compressed sparse rows both ways), built once per pair of
// tables and kept with them, so that a hop from a few thousand nodes reads only their edges instead of joining
// every edge of the table. Only graphs whose node ids are unique and non-null and whose every edge endpoint is a
// node (as a dataset's materialized tables are) get one; any other graph takes the polars path.

import pl from "nodejs-polars";
import { sharedInt32 } from "../../../kernels/cpu/shared-arrays.ts";
import { dtypeOf } from "../graph-frames.ts";

export type GraphIndex = {
  nodes: pl.DataFrame;
  edges: pl.DataFrame;
  nodeCount: number;
  edgeCount: number;
  /** Node row of each edge's source and destination. */
  srcRow: Int32Array;
  dstRow: Int32Array;
  /** Edges leaving node r: outEdges[outStart[r] .. outStart[r + 1]), in edge order; likewise edges arriving. */
  outStart: Int32Array;
  outEdges: Int32Array;
  inStart: Int32Array;
  inEdges: Int32Array;
  /** The far end of each of those edges, in the same order: outDst[j] = dstRow[outEdges[j]], inSrc[j] = srcRow[inEdges[j]]. */
  outDst: Int32Array;
  inSrc: Int32Array;
};

type Key = { nodes: pl.DataFrame; nodeId: string; source: string; destination: string };

/** Per edge table: the index, or null when the graph cannot have one (recorded so it is not tried again). */
const built = new WeakMap<pl.DataFrame, { key: Key; index: GraphIndex | null }>();
/** Frames a caller keeps between queries (a worker's table cache): only their graphs are worth indexing. */
const kept = new WeakSet<pl.DataFrame>();

/** Marks a frame as kept for later queries, so a query over it may build the index. */
export function keepFrame(frame: pl.DataFrame): void {
  kept.add(frame);
}

const sameKey = (a: Key, b: Key) =>
  a.nodes === b.nodes && a.nodeId === b.nodeId && a.source === b.source && a.destination === b.destination;

/** Integer ids spanning a range not much wider than the table: a direct lookup from id to row. */
type IdLookup = { min: number; rows: Int32Array };

const INTEGER_IDS = /^(U?Int(8|16|32|64))$/;

function integerLookup(ids: pl.Series, height: number): IdLookup | null {
  if (!INTEGER_IDS.test(String(ids.dtype.variant)) || height === 0) return null;
  const min = Number(ids.min());
  const max = Number(ids.max());
  if (!Number.isSafeInteger(min) || !Number.isSafeInteger(max) || max - min >= 4 * height + 1024) return null;
  const values = ids.cast(pl.Float64).toTypedArray() as Float64Array;
  const rows = new Int32Array(max - min + 1).fill(-1);
  for (let r = 0; r < values.length; r++) rows[(values[r] as number) - min] = r;
  return { min, rows };
}

/** Node row of each value of `column` in `edges` through the lookup, or null when some endpoint is not a node. */
function lookedUp(lookup: IdLookup, edges: pl.DataFrame, column: string): Int32Array | null {
  const series = edges.getColumn(column);
  if (series.nullCount() > 0) return null;
  const values = series.cast(pl.Float64).toTypedArray() as Float64Array;
  const out = new Int32Array(values.length);
  const { min, rows } = lookup;
  for (let i = 0; i < values.length; i++) {
    const at = (values[i] as number) - min;
    const row = at >= 0 && at < rows.length ? (rows[at] as number) : -1;
    if (row < 0) return null;
    out[i] = row;
  }
  return out;
}

/** Node row of each value of `column` in `edges`, or null when some endpoint is null or not a node. */
function endpointRows(
  nodes: pl.DataFrame,
  nodeId: string,
  edges: pl.DataFrame,
  column: string,
  lookup: IdLookup | null,
): Int32Array | null {
  if (lookup !== null) return lookedUp(lookup, edges, column);
  const joined = edges
    .lazy()
    .select(pl.col(column).alias("__k"))
    .withRowIndex("__e")
    .join(nodes.lazy().select(pl.col(nodeId).alias("__k")).withRowIndex("__r"), { on: "__k", how: "inner" })
    .select("__e", "__r")
    .collectSync();
  if (joined.height !== edges.height) return null;
  const e = joined.getColumn("__e").toTypedArray() as Uint32Array;
  const r = joined.getColumn("__r").toTypedArray() as Uint32Array;
  const rows = new Int32Array(edges.height);
  for (let i = 0; i < e.length; i++) rows[e[i] as number] = r[i] as number;
  return rows;
}

/** Edges grouped by node row (a counting sort that keeps edge order within a node). */
function adjacency(rows: Int32Array, nodeCount: number): { start: Int32Array; edges: Int32Array } {
  const start = sharedInt32(nodeCount + 1);
  for (let i = 0; i < rows.length; i++) start[(rows[i] as number) + 1] = (start[(rows[i] as number) + 1] as number) + 1;
  for (let r = 0; r < nodeCount; r++) start[r + 1] = (start[r + 1] as number) + (start[r] as number);
  const next = start.slice(0, nodeCount);
  const edges = sharedInt32(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i] as number;
    const slot = next[r] as number;
    edges[slot] = i;
    next[r] = slot + 1;
  }
  return { start, edges };
}

/** ends[edges[j]] for each j. */
function farEnds(edges: Int32Array, ends: Int32Array): Int32Array {
  const out = sharedInt32(edges.length);
  for (let j = 0; j < edges.length; j++) out[j] = ends[edges[j] as number] as number;
  return out;
}

function build(key: Key, edges: pl.DataFrame): GraphIndex | null {
  const { nodes, nodeId, source, destination } = key;
  if (!nodes.columns.includes(nodeId) || !edges.columns.includes(source) || !edges.columns.includes(destination)) return null;
  const idType = String(dtypeOf(nodes, nodeId));
  // the polars path casts endpoints to the id dtype; here they must already have it
  if (String(dtypeOf(edges, source)) !== idType || String(dtypeOf(edges, destination)) !== idType) return null;
  const ids = nodes.getColumn(nodeId);
  if (ids.nullCount() > 0 || ids.nUnique() !== nodes.height) return null;
  const lookup = integerLookup(ids, nodes.height);
  const srcRow = endpointRows(nodes, nodeId, edges, source, lookup);
  const dstRow = srcRow && endpointRows(nodes, nodeId, edges, destination, lookup);
  if (!srcRow || !dstRow) return null;
  const out = adjacency(srcRow, nodes.height);
  const into = adjacency(dstRow, nodes.height);
  return {
    nodes,
    edges,
    nodeCount: nodes.height,
    edgeCount: edges.height,
    srcRow,
    dstRow,
    outStart: out.start,
    outEdges: out.edges,
    inStart: into.start,
    inEdges: into.edges,
    outDst: farEnds(out.edges, dstRow),
    inSrc: farEnds(into.edges, srcRow),
  };
}

/**
 * The index of this graph: built on first use when both tables are kept between queries (or `force`), else
 * only an index built before. Null when the graph cannot have one.
 */
export function graphIndex(key: Key, edges: pl.DataFrame, force = false): GraphIndex | null {
  const hit = built.get(edges);
  if (hit && sameKey(hit.key, key)) return hit.index;
  if (!force && !(kept.has(edges) && kept.has(key.nodes))) return null;
  const index = build(key, edges);
  built.set(edges, { key, index });
  if (index !== null) uniqueIds.set(key.nodes, (uniqueIds.get(key.nodes) ?? new Set()).add(key.nodeId));
  return index;
}

/** Node tables an index was built for, by their id column: their ids are known unique and non-null. */
const uniqueIds = new WeakMap<pl.DataFrame, Set<string>>();

/** Whether an index was built over `nodes` with `nodeId` as the id (which it checked to be unique and non-null). */
export function idsKnownUnique(nodes: pl.DataFrame, nodeId: string): boolean {
  return uniqueIds.get(nodes)?.has(nodeId) ?? false;
}
