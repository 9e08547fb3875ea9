// What the search scans: node ids, labels and every text column the inspector may show, the latter fetched once
// through the Arrow route the first time a search needs them. Field filters decide, row by row, which columns count.
import { DataType, type Vector } from "apache-arrow";
import type { FieldFilter } from "../../src/datasets/encodings/types.ts";
import { isTextType } from "./column-values.ts";
import type { DataRoutes } from "./data-routes.ts";
import { inspectorFields, TYPE_COLUMN } from "./field-visibility.ts";
import type { GraphModel } from "./graph-model.ts";
import { allLabels, formatValue } from "./node-text.ts";
import type { VizSession } from "./session-query.ts";

/** One searchable column: its display text per node and, when the field filters hide it for some rows, where it counts. */
export type SearchField = { name: string; text: readonly string[]; lower: readonly string[]; shown: Uint8Array | undefined };

export type SearchFields = (model: GraphModel) => Promise<SearchField[]>;

/** pandas-style dtypes that are not text (numbers, times, booleans): not searched. */
const NOT_TEXT = /^(u?int|float|double|bool|datetime|timedelta|date|time|decimal|period)/i;

/** Text columns of the node table by its dtypes, besides the id and label columns (searched from the model). */
export function textColumns(session: VizSession, model: GraphModel): string[] {
  const dtypes = session.dataset.tables.nodes?.dtypes ?? {};
  const skip = new Set([model.nodeColumns.id, model.nodeColumns.label, model.nodeColumns.x, model.nodeColumns.y]);
  return Object.keys(dtypes).filter((name) => !skip.has(name) && !NOT_TEXT.test(dtypes[name] ?? ""));
}

/**
 * The columns whose values decide which fields a row shows: `type` and the point filters' `attribute` columns, when
 * the node table has them.
 */
export function typeColumns(session: VizSession): string[] {
  const dtypes = session.dataset.tables.nodes?.dtypes ?? {};
  const names = new Set<string>();
  const filters = session.dataset.fieldFilters.filter((filter) => filter.graphType === "point");
  if (filters.length === 0) return [];
  names.add(TYPE_COLUMN);
  for (const filter of filters) if (filter.attribute !== undefined) names.add(filter.attribute);
  return [...names].filter((name) => name in dtypes);
}

/** Loads and caches the search fields of each model; a model whose session changed filters or bindings gets new ones. */
export function createSearchFields(routes: DataRoutes, session: () => VizSession): SearchFields {
  const cache = new WeakMap<GraphModel, { key: string; fields: Promise<SearchField[]> }>();
  return (model) => {
    const current = session();
    const key = JSON.stringify([current.dataset.dataVersion, current.dataset.fieldFilters, model.nodeColumns]);
    const hit = cache.get(model);
    if (hit && hit.key === key) return hit.fields;
    const fields = loadFields(routes, current, model).catch((error: unknown) => {
      // The ids and labels still answer; a later search tries the columns again.
      console.warn("search: text columns not loaded", error);
      cache.delete(model);
      return baseFields(model);
    });
    cache.set(model, { key, fields });
    return fields;
  };
}

/** The label and id fields, which need no request (cached per model and label column). */
export function baseFields(model: GraphModel): SearchField[] {
  const hit = baseCache.get(model);
  if (hit && hit.labels === model.labels) return hit.fields;
  const fields = decodeBase(model);
  baseCache.set(model, { labels: model.labels, fields });
  return fields;
}

const baseCache = new WeakMap<GraphModel, { labels: Vector; fields: SearchField[] }>();

function decodeBase(model: GraphModel): SearchField[] {
  const labels = allLabels(model);
  const fields: SearchField[] = [field(model.nodeColumns.label ?? model.nodeColumns.id, labels, undefined)];
  if (model.nodeColumns.label) fields.push(field(model.nodeColumns.id, decode(model.nodeIds), undefined));
  return fields;
}

async function loadFields(routes: DataRoutes, session: VizSession, model: GraphModel): Promise<SearchField[]> {
  const filters = session.dataset.fieldFilters;
  const kinds = typeColumns(session);
  const texts = textColumns(session, model).filter((name) => mayShow(filters, name, kinds));
  const wanted = [...new Set([...texts, ...kinds])];
  // A copy: the base fields are cached, and answer on their own while these load.
  const fields = [...baseFields(model)];
  if (wanted.length === 0) return fields;
  const table = await routes.columns("nodes", wanted);
  const values = new Map<string, (string | null)[]>();
  for (const name of wanted) {
    const vector = table.getChild(name);
    // "object" covers binary, nested and decimal columns too: only text (or text categories) is searched.
    if (vector && (kinds.includes(name) || isText(vector.type))) values.set(name, decodeNullable(vector));
  }
  const shownBy = visibilityByRow(filters, [...values.keys()], kinds, values, model.topology.nodeCount);
  for (const name of texts) {
    const column = values.get(name);
    if (!column) continue;
    fields.push(
      field(
        name,
        column.map((value) => value ?? ""),
        shownBy(name),
      ),
    );
  }
  return fields;
}

/** Whether some type could show the column (else it is not even fetched). */
function mayShow(filters: FieldFilter[], name: string, kinds: string[]): boolean {
  const point = filters.filter((filter) => filter.graphType === "point");
  if (point.length === 0) return true;
  const types = new Set<string | undefined>([undefined]);
  for (const filter of point) for (const type of Object.keys(filter.byType)) types.add(type);
  for (const type of types) {
    const row: Record<string, unknown> = { [name]: "x" };
    // "" stands for a type no rule names (the global rules), and keeps a type column itself non-null.
    for (const kind of kinds) row[kind] = type ?? "";
    if (type !== undefined && !kinds.includes(TYPE_COLUMN)) row[TYPE_COLUMN] = type;
    if (inspectorFields(filters, "point", row).includes(name)) return true;
  }
  return false;
}

/**
 * For each column, 1 for the rows whose inspector would list it (undefined when every row would). Rows sharing their
 * type values share one answer, so the filters are evaluated once per distinct type.
 */
function visibilityByRow(
  filters: FieldFilter[],
  names: string[],
  kinds: string[],
  values: Map<string, (string | null)[]>,
  count: number,
): (name: string) => Uint8Array | undefined {
  if (!filters.some((filter) => filter.graphType === "point")) return () => undefined;
  const answers = new Map<string, Set<string>>();
  const rowKeys = new Array<string>(count);
  for (let i = 0; i < count; i++) {
    const typeValues = kinds.map((kind) => values.get(kind)?.[i] ?? null);
    const key = JSON.stringify(typeValues);
    rowKeys[i] = key;
    if (answers.has(key)) continue;
    const row: Record<string, unknown> = {};
    for (const name of names) row[name] = "x";
    kinds.forEach((kind, k) => {
      row[kind] = typeValues[k];
    });
    answers.set(key, new Set(inspectorFields(filters, "point", row)));
  }
  return (name) => {
    const shown = new Uint8Array(count);
    let all = true;
    for (let i = 0; i < count; i++) {
      const yes = answers.get(rowKeys[i] ?? "")?.has(name) ?? false;
      shown[i] = yes ? 1 : 0;
      if (!yes) all = false;
    }
    return all ? undefined : shown;
  };
}

function field(name: string, text: string[], shown: Uint8Array | undefined): SearchField {
  return { name, text, lower: text.map((value) => value.toLowerCase()), shown };
}

function decode(vector: Vector): string[] {
  const out = new Array<string>(vector.length);
  for (let i = 0; i < vector.length; i++) out[i] = formatValue(vector.get(i));
  return out;
}

function decodeNullable(vector: Vector): (string | null)[] {
  const out = new Array<string | null>(vector.length);
  for (let i = 0; i < vector.length; i++) {
    const value: unknown = vector.get(i);
    out[i] = value === null || value === undefined ? null : formatValue(value);
  }
  return out;
}

function isText(type: DataType): boolean {
  return isTextType(type) || (DataType.isDictionary(type) && isTextType(type.dictionary));
}
