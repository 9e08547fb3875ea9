// What a refusal of an unknown algorithm or layout name adds, so a person can fix the request without the schema at
// hand: where the name does run (a layout given as a compute algorithm or the other way round; the other library),
// else the closest names this service runs under that library ("pagerank" for "page_rank"), else every name the
// library runs. Candidates are every compute and layout name; `find` (what the caller accepts: algorithms, layouts or
// both) keeps the ones it would take.
import { createRequire } from "node:module";
import type { FindAlgorithm } from "./params.ts";

type Named = { readonly library: string; readonly name: string };
const require = createRequire(import.meta.url);
let registries: { names: string[]; algorithms: Set<string>; layouts: Set<string> } | undefined;

/** Every algorithm and layout name of both libraries, and which are which (loaded on the first refusal). */
function known() {
  if (!registries) {
    const { ALGORITHMS } = require("./registry.ts") as { ALGORITHMS: readonly Named[] };
    const { LAYOUTS } = require("../layout/registry.ts") as { LAYOUTS: readonly Named[] };
    const key = (entry: Named) => `${entry.library}/${entry.name}`;
    registries = {
      names: [...new Set([...ALGORITHMS, ...LAYOUTS].map((entry) => entry.name))].sort(),
      algorithms: new Set(ALGORITHMS.map(key)),
      layouts: new Set(LAYOUTS.map(key)),
    };
  }
  return registries;
}

/** Levenshtein distance, with `_`, `-` and case ignored ("PageRank" and "page_rank" are "pagerank"). */
function distance(a: string, b: string): number {
  const x = a.toLowerCase().replace(/[_-]/g, "");
  const y = b.toLowerCase().replace(/[_-]/g, "");
  let row = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const next = [i];
    for (let j = 1; j <= y.length; j++)
      next[j] = Math.min((row[j] ?? 0) + 1, (next[j - 1] ?? 0) + 1, (row[j - 1] ?? 0) + (x[i - 1] === y[j - 1] ? 0 : 1));
    row = next;
  }
  return row[y.length] ?? 0;
}

/** "an igraph", "a cugraph". */
export const withArticle = (library: string) => `${/^[aeiou]/i.test(library) ? "an" : "a"} ${library}`;

const quoted = (names: readonly string[]) => names.map((n) => `"${n}"`).join(" or ");

/** The hint for `name`, unknown under `library`, as a sentence to append (starts with "; "). */
export function unknownNameHint(library: string, name: string, find: FindAlgorithm): string {
  const { names, algorithms, layouts } = known();
  if (layouts.has(`${library}/${name}`))
    return `; "${name}" is ${withArticle(library)} layout, not a compute algorithm (a dataset's layout field, or GFQL's layout_${library})`;
  if (algorithms.has(`${library}/${name}`))
    return `; "${name}" is ${withArticle(library)} compute algorithm, not a layout (a dataset's compute field, or GFQL's compute_${library})`;
  const other = library === "igraph" ? "cugraph" : "igraph";
  if (find(other, name)) return `; "${name}" is ${withArticle(other)} name: libraries ["${other}"]`;
  const runs = names.filter((candidate) => find(library, candidate));
  const scored = runs.map((candidate) => ({ candidate, d: distance(name, candidate) }));
  const best = Math.min(...scored.map((s) => s.d));
  const limit = Math.max(1, Math.min(3, Math.floor(name.length / 3)));
  if (best <= limit) return `; did you mean ${quoted(scored.filter((s) => s.d === best).map((s) => s.candidate))}?`;
  return runs.length > 0 ? `; ${library} names here: ${runs.join(", ")}` : "";
}
