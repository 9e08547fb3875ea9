// Loads what the page draws: topology and labels from the node and edge columns, as typed arrays and Arrow vectors.
import type { Table, Vector } from "apache-arrow";
import {
  type EdgeColumns,
  edgeColumnsOf,
  edgeShapeColumns,
  edgeStyleColumns,
  type NodeColumns,
  nodeColumnsOf,
  nodeShapeColumns,
  nodeStyleColumns,
  unique,
} from "./bindings.ts";
import { readKeys, readNumbers } from "./column-values.ts";
import type { DataRoutes } from "./data-routes.ts";
import { buildEdgeStyle, buildNodeStyle, buildStyle, type GraphStyle } from "./graph-style.ts";
import { buildTopology, type Topology } from "./graph-topology.ts";
import type { VizSession } from "./session-query.ts";

export type GraphModel = {
  nodeColumns: NodeColumns;
  edgeColumns: EdgeColumns | undefined;
  topology: Topology;
  /** The node id column, for display. */
  nodeIds: Vector;
  /** The node_label column when bound, else the ids. */
  labels: Vector;
  /** x,y per node when the dataset binds node_x and node_y. */
  boundPositions: Float32Array | undefined;
  /** x,y per node from the dataset's layout columns, when it was created with a layout (and binds no node_x/y). */
  datasetPositions: Float32Array | undefined;
  style: GraphStyle;
};

export async function loadGraph(routes: DataRoutes, session: VizSession): Promise<GraphModel> {
  const nodeColumns = nodeColumnsOf(session);
  if (!nodeColumns) throw new Error("this dataset has no node table");
  const edgeColumns = edgeColumnsOf(session);
  const layoutColumns = datasetLayoutColumns(session, nodeColumns);
  const [nodes, edges] = await Promise.all([
    routes.columns("nodes", unique([...nodeShapeColumns(nodeColumns), ...nodeStyleColumns(nodeColumns), ...(layoutColumns ?? [])])),
    edgeColumns ? routes.columns("edges", unique([...edgeShapeColumns(edgeColumns), ...edgeStyleColumns(edgeColumns)])) : undefined,
  ]);
  const nodeIds = column(nodes, nodeColumns.id);
  const keys = readKeys(nodeIds);
  const topology =
    edges && edgeColumns
      ? buildTopology(keys, readKeys(column(edges, edgeColumns.source)), readKeys(column(edges, edgeColumns.destination)))
      : buildTopology(keys, [], []);
  return {
    nodeColumns,
    edgeColumns,
    topology,
    nodeIds,
    labels: nodeColumns.label ? column(nodes, nodeColumns.label) : nodeIds,
    boundPositions: boundPositions(nodes, nodeColumns),
    datasetPositions: layoutColumns ? pairsOf(nodes, layoutColumns[0], layoutColumns[1]) : undefined,
    style: buildStyle(nodeColumns, edgeColumns, nodes, edges, topology),
  };
}

/** Fetches only the style and label columns of an axis whose bindings changed (the tables did not). */
export async function reloadStyle(routes: DataRoutes, session: VizSession, model: GraphModel, tablesChanged = false): Promise<void> {
  const nodeColumns = { ...(nodeColumnsOf(session) ?? model.nodeColumns), id: model.nodeColumns.id };
  const edgeColumns = edgeColumnsOf(session);
  const nodeNames = nodeStyleColumns(nodeColumns);
  const edgeNames = edgeColumns ? edgeStyleColumns(edgeColumns) : [];
  // New tables (a compute stored new values under the same names) need the bound columns read again.
  const nodesChanged = tablesChanged || JSON.stringify(nodeColumns) !== JSON.stringify(model.nodeColumns);
  const edgesChanged = tablesChanged || JSON.stringify(edgeColumns) !== JSON.stringify(model.edgeColumns);
  const [nodes, edges] = await Promise.all([
    nodesChanged && nodeNames.length ? routes.columns("nodes", nodeNames) : undefined,
    edgesChanged && edgeNames.length ? routes.columns("edges", edgeNames) : undefined,
  ]);
  if (nodesChanged) {
    model.nodeColumns = nodeColumns;
    model.labels = nodeColumns.label && nodes ? column(nodes, nodeColumns.label) : model.nodeIds;
    model.style = { ...model.style, node: buildNodeStyle(nodeColumns, nodes, model.topology) };
  }
  if (edgesChanged) {
    model.edgeColumns = edgeColumns;
    model.style = { ...model.style, edge: buildEdgeStyle(edgeColumns, edges, model.topology) };
  }
}

/** What, when it changes, needs the tables fetched again (rather than only the style columns). */
export function shapeSignature(session: VizSession): string {
  const nodes = nodeColumnsOf(session);
  const edges = edgeColumnsOf(session);
  const tables = session.dataset.tables;
  return JSON.stringify([
    session.dataset.id,
    tables.nodes?.numRows,
    tables.edges?.numRows,
    nodes && nodeShapeColumns(nodes),
    edges && edgeShapeColumns(edges),
  ]);
}

export function styleSignature(session: VizSession): string {
  return JSON.stringify([nodeColumnsOf(session), edgeColumnsOf(session)]);
}

export function column(table: Table, name: string): Vector {
  const vector = table.getChild(name);
  if (!vector) throw new Error(`the server did not send column "${name}"`);
  return vector;
}

/**
 * The layout columns of a dataset created with a `layout` (x and y, which the server adds), when positions are not
 * bound and the node table has them; read with the shape columns in the same request.
 */
export function datasetLayoutColumns(session: VizSession, columns: NodeColumns): [string, string] | undefined {
  if (columns.x && columns.y) return undefined;
  if (session.dataset.layout === null || session.dataset.layout === undefined) return undefined;
  const dtypes = session.dataset.tables.nodes?.dtypes ?? {};
  return "x" in dtypes && "y" in dtypes ? ["x", "y"] : undefined;
}

function boundPositions(nodes: Table, columns: NodeColumns): Float32Array | undefined {
  if (!columns.x || !columns.y) return undefined;
  return pairsOf(nodes, columns.x, columns.y);
}

function pairsOf(nodes: Table, x: string, y: string): Float32Array {
  const xs = readNumbers(column(nodes, x));
  const ys = readNumbers(column(nodes, y));
  const out = new Float32Array(nodes.numRows * 2);
  for (let i = 0; i < nodes.numRows; i++) {
    out[i * 2] = xs.values[i] ?? 0;
    out[i * 2 + 1] = ys.values[i] ?? 0;
  }
  return out;
}
