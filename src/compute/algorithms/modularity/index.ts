// The modularity algorithms of spec 2.9, as registry entries.
import type { AlgorithmEntry } from "../../types.ts";
import { cugraphEntries } from "./cugraph-entries.ts";
import { igraphEntries } from "./igraph-entries.ts";

export const entries: AlgorithmEntry[] = [...igraphEntries, ...cugraphEntries];
