// The algorithms a request may name: the registry's, plus entries from modules named in COMPUTE_EXTRA_ALGORITHMS
// (comma-separated paths of modules exporting `entries`): the seam tests use to run fixture algorithms through the
// whole service, in every thread that runs compute.
import { pathToFileURL } from "node:url";
import { findAlgorithm } from "./registry.ts";
import type { AlgorithmEntry } from "./types.ts";

const extra = new Map<string, AlgorithmEntry>();

/** Adds entries (a name the registry has stays the registry's). */
export function registerAlgorithms(entries: readonly AlgorithmEntry[]): void {
  for (const entry of entries) extra.set(`${entry.library}/${entry.name}`, entry);
}

/** The entry for `name` under `library`: the registry's, else a registered extra one. */
export function lookupAlgorithm(library: string, name: string): AlgorithmEntry | undefined {
  return findAlgorithm(library, name) ?? extra.get(`${library}/${name}`);
}

/** Imports the modules COMPUTE_EXTRA_ALGORITHMS names and registers their entries (once per thread). */
export async function loadExtraAlgorithms(): Promise<void> {
  const list = process.env.COMPUTE_EXTRA_ALGORITHMS;
  if (!list) return;
  for (const file of list.split(",").filter(Boolean)) {
    const module = (await import(pathToFileURL(file).href)) as { entries?: AlgorithmEntry[] };
    registerAlgorithms(module.entries ?? []);
  }
}
