// Which columns the Filters panel lists: those of the node and edge tables that the dataset's field filters let the
// inspector show for some type (a column hidden for every type is neither listed nor fetched).
import type { FieldFilter, GraphType } from "../../src/datasets/encodings/types.ts";
import type { Axis } from "./data-routes.ts";
import { inspectorFields, TYPE_COLUMN } from "./field-visibility.ts";
import type { GraphModel } from "./graph-model.ts";
import type { VizSession } from "./session-query.ts";

export type FilterColumn = { axis: Axis; name: string; dtype: string };

/** The listable columns of both tables, nodes first, in table order; ids and endpoints and positions left out. */
export function filterColumns(session: VizSession, model: GraphModel): FilterColumn[] {
  const out: FilterColumn[] = [];
  const filters = session.dataset.fieldFilters;
  const nodeSkip = new Set([model.nodeColumns.id, model.nodeColumns.x, model.nodeColumns.y]);
  const nodeTypes = session.dataset.tables.nodes?.dtypes ?? {};
  for (const [name, dtype] of Object.entries(nodeTypes))
    if (!nodeSkip.has(name) && mayShow(filters, "point", name, Object.keys(nodeTypes))) out.push({ axis: "nodes", name, dtype });
  const edgeColumns = model.edgeColumns;
  const edgeSkip = new Set([edgeColumns?.source, edgeColumns?.destination]);
  const edgeTypes = session.dataset.tables.edges?.dtypes ?? {};
  for (const [name, dtype] of Object.entries(edgeTypes))
    if (!edgeSkip.has(name) && mayShow(filters, "edge", name, Object.keys(edgeTypes))) out.push({ axis: "edges", name, dtype });
  return out;
}

/** Whether the inspector would list the column for some type (a type some rule names, or none). */
export function mayShow(filters: FieldFilter[], graphType: GraphType, name: string, columns: string[]): boolean {
  const applicable = filters.filter((filter) => filter.graphType === graphType);
  if (applicable.length === 0) return true;
  const kinds = [TYPE_COLUMN, ...applicable.flatMap((filter) => (filter.attribute === undefined ? [] : [filter.attribute]))].filter(
    (kind) => columns.includes(kind),
  );
  const types = new Set<string | undefined>([undefined]);
  for (const filter of applicable) for (const type of Object.keys(filter.byType)) types.add(type);
  for (const type of types) {
    const row: Record<string, unknown> = { [name]: "x" };
    for (const kind of kinds) row[kind] = type ?? "";
    if (type !== undefined) row[TYPE_COLUMN] = type;
    if (inspectorFields(filters, graphType, row).includes(name)) return true;
  }
  return false;
}
