// Which layouts a session's live job may run (registry layouts with `start`, plus COMPUTE_EXTRA_ALGORITHMS layout
// fixtures), and the checks of START's `layout` and SET_PARAMS' `layout.params` (400 naming the field).
import { lookupAlgorithm } from "../compute/algorithm-lookup.ts";
import { checkParams, invalidField, type ParsedEntry, parseEntry } from "../compute/params.ts";
import type { AlgorithmEntry } from "../compute/types.ts";
import { findLayout } from "../layout/registry.ts";
import type { LayoutEntry } from "../layout/types.ts";

/** START's layout when the request names none: cuGraph's ForceAtlas2 with its default parameters. */
export const DEFAULT_LIVE_LAYOUT = { libraries: ["cugraph"], alg: "force_atlas2", params: {} } as const;

const isLayout = (entry: AlgorithmEntry | undefined): entry is LayoutEntry =>
  entry !== undefined && (entry as Partial<LayoutEntry>).kind === "layout";

/** The layout `name` of `library`, from the registry or a registered fixture. */
export function findAnyLayout(library: string, name: string): LayoutEntry | undefined {
  const found = findLayout(library, name);
  if (found) return found;
  const extra = lookupAlgorithm(library, name);
  return isLayout(extra) ? extra : undefined;
}

export type LiveLayout = ParsedEntry & { entry: LayoutEntry };

/** START's `layout` ({libraries, alg, params, directed}; null/undefined: the default): a layout that runs step by step. */
export function parseLiveLayout(raw: unknown, field = "layout"): LiveLayout {
  const given = raw === undefined || raw === null ? DEFAULT_LIVE_LAYOUT : raw;
  const parsed = parseEntry("layout", withUndirectedDefault(given), field, findAnyLayout) as LiveLayout;
  if (!parsed.entry.start)
    throw invalidField(
      `${field}.alg: ${parsed.entry.library} ${parsed.entry.name} does not run step by step (live layouts need a force layout)`,
      `${field}.alg`,
    );
  return parsed;
}

/** Layouts read the graph undirected unless the request says otherwise (pygraphistry sends directed: false). */
function withUndirectedDefault(raw: unknown): unknown {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return raw;
  const entry = raw as Record<string, unknown>;
  return entry.directed === undefined ? { ...entry, directed: false } : entry;
}

/**
 * SET_PARAMS' `layout` ({params: {...}}): only the entry's live parameters, checked against its specs. Answers the
 * changed values only.
 */
export function parseLiveParams(entry: LayoutEntry, raw: unknown, field = "layout"): Record<string, unknown> {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw invalidField(`${field} must be an object {params}`, field);
  const layout = raw as Record<string, unknown>;
  for (const key of Object.keys(layout))
    if (key !== "params") throw invalidField(`${field}.${key}: SET_PARAMS takes only params`, `${field}.${key}`);
  const params = layout.params;
  if (typeof params !== "object" || params === null || Array.isArray(params))
    throw invalidField(`${field}.params must be an object of live parameters`, `${field}.params`);
  const live = new Set(entry.liveParams ?? []);
  for (const name of Object.keys(params)) {
    if (!live.has(name))
      throw invalidField(
        `${field}.params.${name}: ${entry.library} ${entry.name} cannot change "${name}" while it runs (it can change ${[...live].join(", ") || "nothing"})`,
        `${field}.params.${name}`,
      );
  }
  const checked = checkParams(entry, params, `${field}.params`);
  return Object.fromEntries(Object.keys(params).map((name) => [name, checked[name]]));
}

/** The iterations a layout runs with these parameters (cuGraph's max_iter, igraph's niter); 0: until stopped. */
export function maxIterOf(params: Record<string, unknown>): number {
  const value = params.max_iter ?? params.niter ?? params.maxiter;
  return typeof value === "number" && Number.isInteger(value) && value > 0 ? value : 0;
}
