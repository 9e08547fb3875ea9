// What a filter on a column its table lacks does, as pygraphistry's gfql/strictness.py resolves it: under "warn"
// (the default) it matches nothing, except an IsNA test, which every row of an absent (all-null) column passes,
// and the query's answer carries one warning per absent name; "quiet" does the same without the warning; "strict"
// refuses the query with E301. The level and the warnings belong to one query run (a worker runs one at a time).

import type { FilterValue } from "./ast.ts";
import { gfqlError } from "./gfql-error.ts";

export const STRICTNESS_LEVELS = ["strict", "warn", "quiet"] as const;
export type Strictness = (typeof STRICTNESS_LEVELS)[number];

let level: Strictness = "warn";
/** Warning text per absent name (strictness.py warns once per distinct name per call: key `column:<name>`). */
let warnings = new Map<string, string>();

/** Starts a query run at this level, with no warnings yet. */
export function beginRun(strictness: Strictness = "warn"): void {
  level = strictness;
  warnings = new Map();
}

/** The warnings of the current run, in the order they were first raised. */
export function runWarnings(): string[] {
  return [...warnings.values()];
}

/** Which table a filter reads, named as validate_schema.py's _validate_filter_dict contexts name it. */
function contextOf(path: string): string {
  if (path.endsWith(".source_node_match")) return "source node dataframe";
  if (path.endsWith(".destination_node_match")) return "destination node dataframe";
  if (path.endsWith(".edge_match")) return "edge dataframe";
  return "node dataframe";
}

/**
 * A filter entry on `column`, which the table lacks: `true` when every row passes it (an IsNA test,
 * strictness.absent_column_matches), `false` when none does; under "strict" the E301 error. `path` is the filter
 * dict's path (the entry's is `${path}.${column}`).
 */
export function absentColumnPasses(column: string, value: FilterValue, path: string, table?: string): boolean {
  if (level === "strict") throw gfqlError("E301", `column '${column}' not found`, `${path}.${column}`);
  const key = `column:${column}`;
  if (level === "warn" && !warnings.has(key)) {
    warnings.set(
      key,
      `GFQL: column "${column}" is absent in ${table ?? contextOf(path)}; it resolves to null. ` +
        `Send strictness "strict" to make this an error, or "quiet" to silence this warning. (at ${path}.${column})`,
    );
  }
  return value.kind === "predicate" && value.predicate.type === "IsNA";
}

/** Parses a strictness option: a level name, or a boolean (true is "strict", false "quiet"), as normalize_strict_level. */
export function parseStrictness(value: unknown, field = "strictness"): Strictness {
  if (value === undefined || value === null) return "warn";
  if (typeof value === "boolean") return value ? "strict" : "quiet";
  if (typeof value === "string" && (STRICTNESS_LEVELS as readonly string[]).includes(value)) return value as Strictness;
  throw gfqlError("E201", `${field} must be one of ${STRICTNESS_LEVELS.join(", ")} or a boolean, not ${JSON.stringify(value)}`, field);
}
