// Every layout this service runs (spec 2.9 `layout`), by library and name; aliases are entries of their own that
// run the same layout.
import type { Library } from "../compute/types.ts";
import { entries as basic } from "./algorithms/basic/index.ts";
import { entries as energy } from "./algorithms/energy/index.ts";
import { entries as forceAtlas2 } from "./algorithms/force-atlas2/index.ts";
import { entries as fruchtermanReingold } from "./algorithms/fruchterman-reingold/index.ts";
import { entries as hierarchy } from "./algorithms/hierarchy/index.ts";
import { entries as stress } from "./algorithms/stress/index.ts";
import type { LayoutEntry } from "./types.ts";

export const LAYOUTS: readonly LayoutEntry[] = [...basic, ...hierarchy, ...stress, ...energy, ...forceAtlas2, ...fruchtermanReingold];

const byKey = new Map(LAYOUTS.map((entry) => [`${entry.library}/${entry.name}`, entry]));

/** The layout `name` of `library`, or undefined when this service does not run it. */
export function findLayout(library: string, name: string): LayoutEntry | undefined {
  return byKey.get(`${library}/${name}`);
}

/** Spec 2.9's `layout` object: each library's layout names, exactly those that run. */
export function layoutSchema(): Record<Library, string[]> {
  const out: Record<Library, string[]> = { cugraph: [], igraph: [] };
  for (const entry of LAYOUTS) out[entry.library].push(entry.name);
  return out;
}
