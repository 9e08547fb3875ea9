// Layouts of this family (registered in ../../registry.ts): cuGraph's force_atlas2.
import type { LayoutEntry } from "../../types.ts";
import { forceAtlas2Entry } from "./force-atlas2.ts";

export const entries: LayoutEntry[] = [forceAtlas2Entry];
