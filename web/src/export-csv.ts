// "Export CSV": the selected node with its edges (or the selected edge with its ends), else every node and edge drawn,
// with the fields the inspector lists (the dataset's field filters), read through the session's data routes.
import { DataType, type Table } from "apache-arrow";
import type { FieldFilter } from "../../src/datasets/encodings/types.ts";
import type { DataRoutes } from "./data-routes.ts";
import { inspectorFields } from "./field-visibility.ts";
import type { GraphModel } from "./graph-model.ts";
import type { VizSession } from "./session-query.ts";

export type CsvRow = { kind: "node" | "edge"; fields: Record<string, unknown> };

export type CsvSelection = { kind: "node"; index: number } | { kind: "link"; index: number } | undefined;

export type CsvSource = {
  routes: DataRoutes;
  session: VizSession;
  model: GraphModel;
  selection: CsvSelection;
};

/** The drawn links (cosmos.gl link indices) that touch a node. */
export function linksOf(links: Float32Array, node: number): number[] {
  const out: number[] = [];
  for (let k = 0; k < links.length; k += 2) if (links[k] === node || links[k + 1] === node) out.push(k / 2);
  return out;
}

/** The rows to export: what is selected, else the whole graph as drawn (edges whose ends are no node are not drawn). */
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
  const tables = source.session.dataset.tables;
  const nodeNames = Object.keys(tables.nodes?.dtypes ?? {});
  const edgeNames = model.edgeColumns ? Object.keys(tables.edges?.dtypes ?? {}) : [];
  const [nodes, edges] = await Promise.all([
    nodeNames.length ? routes.columns("nodes", nodeNames) : undefined,
    edgeNames.length ? routes.columns("edges", edgeNames) : undefined,
  ]);
  const out: CsvRow[] = [];
  const nodeRow = nodes && tableRows(nodes);
  for (let i = 0; i < (nodes?.numRows ?? 0); i++) out.push({ kind: "node", fields: nodeRow?.(i) ?? {} });
  const drawn = model.topology.links.length / 2;
  const edgeFields = edges && tableRows(edges);
  for (let link = 0; link < drawn && edgeFields; link++) out.push({ kind: "edge", fields: edgeFields(edgeRow(link)) });
  return out;
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
