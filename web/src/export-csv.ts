// "Export CSV": the selected node with its edges (or the selected edge with its ends), else every node and edge drawn
// that the Filters panel's filters keep, with the fields the inspector lists (the dataset's field filters), read
// through the session's data routes. The tables (filter-table.ts, selection-table.ts) export their rows the same way.
import { DataType, type Table } from "apache-arrow";
import type { FieldFilter } from "../../src/datasets/encodings/types.ts";
import type { Axis, DataRoutes } from "./data-routes.ts";
import { inspectorFields } from "./field-visibility.ts";
import type { Hidden } from "./filter-state.ts";
import type { GraphModel } from "./graph-model.ts";
import type { VizSession } from "./session-query.ts";

export type CsvRow = { kind: "node" | "edge"; fields: Record<string, unknown> };

export type CsvSelection = { kind: "node"; index: number } | { kind: "link"; index: number } | undefined;

export type CsvSource = {
  routes: DataRoutes;
  session: VizSession;
  model: GraphModel;
  selection: CsvSelection;
  /** What the filters hide (undefined: nothing), left out when nothing is selected. */
  hidden?: Hidden | undefined;
};

/** The drawn links (cosmos.gl link indices) that touch a node. */
export function linksOf(links: Float32Array, node: number): number[] {
  const out: number[] = [];
  for (let k = 0; k < links.length; k += 2) if (links[k] === node || links[k + 1] === node) out.push(k / 2);
  return out;
}

/**
 * The rows to export: what is selected, else the graph as drawn (edges whose ends are no node are not drawn) less what
 * the filters hide.
 */
export async function exportRows(source: CsvSource): Promise<CsvRow[]> {
  const { routes, model, selection } = source;
  const edgeRow = (link: number) => model.topology.linkRows?.[link] ?? link;
  const rows = (kind: "node" | "edge", fields: Record<string, unknown>[]) => fields.map((row) => ({ kind, fields: row }));
  if (selection?.kind === "node") {
    const links = linksOf(model.topology.links, selection.index);
    const [node, edges] = await Promise.all([
      routes.row("nodes", selection.index),
      Promise.all(links.map((link) => routes.row("edges", edgeRow(link)))),
    ]);
    return [...rows("node", [node]), ...rows("edge", edges)];
  }
  if (selection?.kind === "link") {
    const ends = [model.topology.links[selection.index * 2] ?? 0, model.topology.links[selection.index * 2 + 1] ?? 0];
    const [edge, ...nodes] = await Promise.all([
      routes.row("edges", edgeRow(selection.index)),
      ...[...new Set(ends)].map((node) => routes.row("nodes", node)),
    ]);
    return [...rows("node", nodes), ...rows("edge", edge ? [edge] : [])];
  }
  const hidden = source.hidden;
  const nodeCount = model.topology.nodeCount;
  const nodes: number[] = [];
  for (let row = 0; row < nodeCount; row++) if (!hidden?.nodes[row]) nodes.push(row);
  const links: number[] = [];
  for (let link = 0; link < model.topology.links.length / 2; link++) if (!hidden?.edges[link]) links.push(link);
  const [nodeRows, edgeRows] = await Promise.all([axisRows(source, "nodes", nodes), axisRows(source, "edges", links)]);
  return [...nodeRows, ...edgeRows];
}

/**
 * Rows of one table in the given order, every column read in one request: node rows by node-table row, edges by drawn
 * link (cosmos.gl link index, mapped to its edge-table row).
 */
export async function axisRows(
  source: Pick<CsvSource, "routes" | "session" | "model">,
  axis: Axis,
  order: ArrayLike<number>,
): Promise<CsvRow[]> {
  const { model, routes } = source;
  if (order.length === 0) return [];
  const names = axis === "edges" && !model.edgeColumns ? [] : Object.keys(source.session.dataset.tables[axis]?.dtypes ?? {});
  if (names.length === 0) return [];
  const fields = tableRows(await routes.columns(axis, names));
  const kind = axis === "nodes" ? "node" : "edge";
  const rows = model.topology.linkRows;
  const out = new Array<CsvRow>(order.length);
  for (let k = 0; k < order.length; k++) {
    const index = order[k] ?? 0;
    out[k] = { kind, fields: fields(axis === "nodes" ? index : (rows?.[index] ?? index)) };
  }
  return out;
}

/** The CSV text of rows, columns in the tables' order (node columns first). */
export function csvOf(rows: readonly CsvRow[], session: VizSession): string {
  const tables = session.dataset.tables;
  const order = [...Object.keys(tables.nodes?.dtypes ?? {}), ...Object.keys(tables.edges?.dtypes ?? {})];
  return toCsv(rows, session.dataset.fieldFilters, order);
}

/** Row i of an Arrow table as plain values, times as ISO 8601 text (as the row route answers them; Arrow gives ms). */
export function tableRows(table: Table): (index: number) => Record<string, unknown> {
  const times = table.schema.fields.filter((field) => DataType.isTimestamp(field.type) || DataType.isDate(field.type)).map((f) => f.name);
  return (index) => {
    const row: Record<string, unknown> = table.get(index)?.toJSON() ?? {};
    for (const name of times) {
      const value = row[name];
      if (typeof value === "number" || typeof value === "bigint") row[name] = new Date(Number(value)).toISOString();
      else if (value instanceof Date) row[name] = value.toISOString();
    }
    return row;
  };
}

/**
 * CSV text (RFC 4180, CRLF): a `kind` column (node or edge; `_kind` if a field is named kind), then every field the inspector would list for some row, in
 * the tables' column order (node columns first). A field the filters hide for a row is left empty in it.
 */
export function toCsv(rows: readonly CsvRow[], filters: FieldFilter[], order: readonly string[] = []): string {
  const shown = rows.map((row) => new Set(inspectorFields(filters, row.kind === "node" ? "point" : "edge", row.fields)));
  const columns = new Set<string>();
  for (const name of order) if (shown.some((fields) => fields.has(name))) columns.add(name);
  for (const fields of shown) for (const name of fields) columns.add(name);
  // The entity column is `kind`, or `_kind` (and so on) when the tables have a field of that name.
  let kind = "kind";
  while (columns.has(kind)) kind = `_${kind}`;
  const header = [kind, ...columns];
  const lines = [header.map(csvCell).join(",")];
  rows.forEach((row, k) => {
    const fields = shown[k] ?? new Set<string>();
    lines.push([row.kind, ...[...columns].map((name) => (fields.has(name) ? cellText(row.fields[name]) : ""))].map(csvCell).join(","));
  });
  return `${lines.join("\r\n")}\r\n`;
}

/** A value as CSV text: numbers in full, times in ISO 8601, nulls empty, anything else as JSON. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "bigint" || typeof value === "boolean") return String(value);
  if (value instanceof Date) return value.toISOString();
  return JSON.stringify(value, (_key, inner: unknown) => (typeof inner === "bigint" ? inner.toString() : inner));
}

export function csvCell(text: string): string {
  return /[",\r\n]/.test(text) || text !== text.trim() ? `"${text.replaceAll('"', '""')}"` : text;
}
