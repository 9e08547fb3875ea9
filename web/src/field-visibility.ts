// Which of an entity's fields the inspector lists, by the dataset's field filters (spec 2.6) via visibleFields.
import type { FieldFilter, GraphType } from "../../src/datasets/encodings/types.ts";
import { visibleFields } from "../../src/datasets/encodings/visible-fields.ts";

/** The column that names an entity's type when a filter has no `attribute` of its own. */
export const TYPE_COLUMN = "type";

/**
 * The fields to list, in the row's order. A filter with an `attribute` reads the entity type from that column (visibleFields
 * does so when no type is passed); any other filter takes it from the `type` column. Each filter is applied on its own with
 * the type it reads, and a field must pass them all; the null rule (rule 6) is applied once over all filters together.
 */
export function inspectorFields(filters: FieldFilter[], graphType: GraphType, fields: Record<string, unknown>): string[] {
  const applicable = filters.filter((filter) => filter.graphType === graphType);
  const typeValue = fields[TYPE_COLUMN];
  const columnType = typeValue === null || typeValue === undefined ? undefined : String(typeValue);
  const allowed = applicable.map(
    (filter) =>
      new Set(visibleFields([{ ...filter, showNulls: true }], graphType, filter.attribute === undefined ? columnType : undefined, fields)),
  );
  const nullsRule = visibleFields(
    applicable.map((filter) => ({ ...filter, global: {}, byType: {} })),
    graphType,
    undefined,
    fields,
  );
  return nullsRule.filter((field) => allowed.every((set) => set.has(field)));
}
