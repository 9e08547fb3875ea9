// Layouts of this family (registered in ../../registry.ts).
import type { LayoutEntry } from "../../types.ts";

export const entries: LayoutEntry[] = [];
