// get_session_info's plain-text schema summary: counts, column names with dtypes (at most 120 per axis, from both
// ends), title and description. It reads the stored schemas only, never the values.

export const MAX_COLUMNS_LISTED = 120;

type Table = { numRows: number; dtypes: Record<string, string> } | null;

export type SessionInfo = {
  id: string;
  revision: { id: string };
  /** The session's shared filters and encodings (JSON; null when never set). */
  filters?: unknown;
  encodings?: unknown;
  dataset: { id: string; name: string; description: string; tables: { nodes: Table; edges: Table } };
};

/** Column lines, the middle ones left out as `(+N more not listed)` when there are more than the limit. */
export function columnLines(dtypes: Record<string, string>, limit = MAX_COLUMNS_LISTED): string[] {
  const entries = Object.entries(dtypes);
  const line = ([name, dtype]: [string, string]) => `  ${name}: ${dtype}`;
  if (entries.length <= limit) return entries.map(line);
  const head = Math.ceil(limit / 2);
  const tail = limit - head;
  return [...entries.slice(0, head).map(line), `  (+${entries.length - limit} more not listed)`, ...entries.slice(-tail).map(line)];
}

export function sessionInfoText(session: SessionInfo): string {
  const { dataset } = session;
  const lines = [`session_id: ${session.id}`, `revision: ${session.revision.id}`, `dataset_id: ${dataset.id}`];
  if (dataset.name) lines.push(`title: ${dataset.name}`);
  if (dataset.description) lines.push(`description: ${dataset.description}`);
  const nodes = dataset.tables.nodes;
  const edges = dataset.tables.edges;
  lines.push(`nodes: ${nodes?.numRows ?? 0}`, `edges: ${edges?.numRows ?? 0}`);
  for (const [axis, table] of [
    ["node", nodes],
    ["edge", edges],
  ] as const) {
    const dtypes = table?.dtypes ?? {};
    lines.push(`${axis} columns (${Object.keys(dtypes).length}):`, ...columnLines(dtypes));
  }
  if (session.filters != null) lines.push(`filters: ${JSON.stringify(session.filters)}`);
  if (session.encodings != null) lines.push(`encodings: ${JSON.stringify(session.encodings)}`);
  return lines.join("\n");
}
