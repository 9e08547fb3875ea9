// Decides which fields of one entity's label are shown under the field filters (spec 2.6 rules 1-6).
import type { FieldFilter, GraphType } from "./types.ts";

/**
 * Which fields of an entity's label are shown. Every filter of the entity's graph type must allow a field (rule 5: an
 * inclusion and an exclusion can both apply). For each filter the rules are the entity type's own when it has any, else
 * the global ones (rule 4); a rule set with no entries counts as not given, so a filter with only other types' rules
 * leaves this entity alone. Inclusion shows only true-listed fields (rules 1, 3), exclusion hides them (rule 2). Fields
 * whose value is null or missing are hidden unless a filter sets showNulls (rule 6; an explicit false wins).
 * The entity type is `entityType`, or when that is undefined the value of the filter's `attribute` field.
 */
export function visibleFields(
  filters: FieldFilter[],
  graphType: GraphType,
  entityType: string | undefined,
  fields: Record<string, unknown>,
): string[] {
  const applicable = filters.filter((filter) => filter.graphType === graphType);
  const rules = applicable.map((filter) => ({ filter, rules: rulesFor(filter, entityType ?? attributeType(filter, fields)) }));
  const showNulls = nullsShown(applicable);
  return Object.keys(fields).filter((field) => {
    if (!showNulls && (fields[field] === null || fields[field] === undefined)) return false;
    return rules.every(({ filter, rules }) => {
      if (rules === undefined) return true;
      const listed = Object.hasOwn(rules, field) && rules[field] === true;
      return filter.kind === "inclusion" ? listed : !listed;
    });
  });
}

function rulesFor(filter: FieldFilter, entityType: string | undefined): Record<string, boolean> | undefined {
  const own = entityType !== undefined && Object.hasOwn(filter.byType, entityType) ? filter.byType[entityType] : undefined;
  if (own && Object.keys(own).length > 0) return own;
  return Object.keys(filter.global).length > 0 ? filter.global : undefined;
}

function attributeType(filter: FieldFilter, fields: Record<string, unknown>): string | undefined {
  if (filter.attribute === undefined || !Object.hasOwn(fields, filter.attribute)) return undefined;
  const value = fields[filter.attribute];
  return value === null || value === undefined ? undefined : String(value);
}

function nullsShown(filters: FieldFilter[]): boolean {
  if (filters.some((filter) => filter.showNulls === false)) return false;
  return filters.some((filter) => filter.showNulls === true);
}
