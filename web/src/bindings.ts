// Which table columns play which role, from the dataset's bindings (spec 2.4) and the tables' column lists.
import type { VizSession } from "./session-query.ts";

export type NodeColumns = {
  id: string;
  color?: string;
  size?: string;
  label?: string;
  title?: string;
  opacity?: string;
  weight?: string;
  x?: string;
  y?: string;
};

export type EdgeColumns = {
  source: string;
  destination: string;
  color?: string;
  size?: string;
  opacity?: string;
  weight?: string;
  label?: string;
  title?: string;
};

const NODE_ROLES = {
  color: "node_color",
  size: "node_size",
  label: "node_label",
  title: "node_title",
  opacity: "node_opacity",
  weight: "node_weight",
  x: "node_x",
  y: "node_y",
} as const;
const EDGE_ROLES = {
  color: "edge_color",
  size: "edge_size",
  opacity: "edge_opacity",
  weight: "edge_weight",
  label: "edge_label",
  title: "edge_title",
} as const;

export function nodeColumnsOf(session: VizSession): NodeColumns | undefined {
  const table = session.dataset.tables.nodes;
  if (!table) return undefined;
  const names = Object.keys(table.dtypes ?? {});
  const has = (column: string | undefined): column is string => column !== undefined && (names.length === 0 || names.includes(column));
  const bindings = session.dataset.nodeEncodings.bindings;
  // Nodes made from the edges are keyed "node" (or "nodeID" after a hypergraph transform) when no binding names the key.
  const id = [bindings.node, "node", "nodeID", "id"].find(has) ?? names[0];
  if (id === undefined) return undefined;
  const columns: NodeColumns = { id };
  for (const [role, key] of Object.entries(NODE_ROLES) as [keyof typeof NODE_ROLES, string][]) {
    const column = bindings[key];
    if (has(column)) columns[role] = column;
  }
  if (columns.x === undefined || columns.y === undefined) {
    delete columns.x;
    delete columns.y;
  }
  return columns;
}

export function edgeColumnsOf(session: VizSession): EdgeColumns | undefined {
  const table = session.dataset.tables.edges;
  if (!table) return undefined;
  const names = Object.keys(table.dtypes ?? {});
  const has = (column: string | undefined): column is string => column !== undefined && (names.length === 0 || names.includes(column));
  const bindings = session.dataset.edgeEncodings.bindings;
  const source = [bindings.source, "EventID", "src", "source"].find(has);
  const destination = [bindings.destination, "attribID", "dst", "destination"].find(has);
  if (source === undefined || destination === undefined) return undefined;
  const columns: EdgeColumns = { source, destination };
  for (const [role, key] of Object.entries(EDGE_ROLES) as [keyof typeof EDGE_ROLES, string][]) {
    const column = bindings[key];
    if (has(column)) columns[role] = column;
  }
  return columns;
}

/** Columns the topology and first positions need: ids, endpoints, bound positions. */
export function nodeShapeColumns(columns: NodeColumns): string[] {
  return unique([columns.id, columns.x, columns.y]);
}

/** Columns the look needs, labels included; titles and other fields are fetched per row on inspect. */
export function nodeStyleColumns(columns: NodeColumns): string[] {
  return unique([columns.color, columns.size, columns.opacity, columns.weight, columns.label]);
}

export function edgeShapeColumns(columns: EdgeColumns): string[] {
  return unique([columns.source, columns.destination]);
}

export function edgeStyleColumns(columns: EdgeColumns): string[] {
  return unique([columns.color, columns.size, columns.opacity, columns.weight]);
}

export function unique(names: (string | undefined)[]): string[] {
  return [...new Set(names.filter((name): name is string => name !== undefined))];
}
