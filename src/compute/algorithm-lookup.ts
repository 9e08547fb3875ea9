// The algorithms a request may name: the registry's (imported on first need: its many modules take most of a second
// to load, which a GFQL worker pays only for a query that computes), plus entries from modules named in
// COMPUTE_EXTRA_ALGORITHMS (comma-separated paths of modules exporting `entries`): the seam tests use to run
// fixture algorithms through the whole service, in every thread that runs compute.
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import type { AlgorithmEntry } from "./types.ts";

const extra = new Map<string, AlgorithmEntry>();
let find: ((library: string, name: string) => AlgorithmEntry | undefined) | undefined;
let loading: Promise<void> | undefined;

/** Adds entries (a name the registry has stays the registry's). */
export function registerAlgorithms(entries: readonly AlgorithmEntry[]): void {
  for (const entry of entries) extra.set(`${entry.library}/${entry.name}`, entry);
}

/** Loads the registry and the COMPUTE_EXTRA_ALGORITHMS modules (once per thread); lookups need it done. */
export function loadAlgorithms(): Promise<void> {
  loading ??= (async () => {
    const registry = await import("./registry.ts");
    for (const file of (process.env.COMPUTE_EXTRA_ALGORITHMS ?? "").split(",").filter(Boolean)) {
      const module = (await import(pathToFileURL(file).href)) as { entries?: AlgorithmEntry[] };
      registerAlgorithms(module.entries ?? []);
    }
    find = registry.findAlgorithm;
  })();
  return loading;
}

/** Whether loadAlgorithms() has finished in this thread. */
export const algorithmsLoaded = (): boolean => find !== undefined;

/**
 * The entry for `name` under `library`: the registry's, else a registered extra one. A thread that did not await
 * loadAlgorithms() loads the registry here, synchronously (without the COMPUTE_EXTRA_ALGORITHMS modules).
 */
export function lookupAlgorithm(library: string, name: string): AlgorithmEntry | undefined {
  find ??= (createRequire(import.meta.url)("./registry.ts") as typeof import("./registry.ts")).findAlgorithm;
  return find(library, name) ?? extra.get(`${library}/${name}`);
}
