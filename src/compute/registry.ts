// Every compute algorithm this service runs (spec 2.9 `compute`), by library and name.
import { entries as centrality } from "./algorithms/centrality/index.ts";
import { entries as flowCommunities } from "./algorithms/flow-communities/index.ts";
import { entries as modularity } from "./algorithms/modularity/index.ts";
import { entries as structure } from "./algorithms/structure/index.ts";
import type { AlgorithmEntry, Library } from "./types.ts";

export const ALGORITHMS: readonly AlgorithmEntry[] = [...centrality, ...structure, ...modularity, ...flowCommunities];

const byKey = new Map(ALGORITHMS.map((entry) => [`${entry.library}/${entry.name}`, entry]));

/** The entry for `name` under `library`, or undefined when this service does not run it. */
export function findAlgorithm(library: string, name: string): AlgorithmEntry | undefined {
  return byKey.get(`${library}/${name}`);
}

/** Spec 2.9's `compute` object: each library's algorithm names, exactly those that run. */
export function computeSchema(): Record<Library, string[]> {
  const out: Record<Library, string[]> = { cugraph: [], igraph: [] };
  for (const entry of ALGORITHMS) out[entry.library].push(entry.name);
  return out;
}
