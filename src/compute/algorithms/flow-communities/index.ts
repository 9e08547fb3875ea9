// The flow-communities algorithms of spec 2.9, as registry entries.
import type { AlgorithmEntry } from "../../types.ts";

export const entries: AlgorithmEntry[] = [];
