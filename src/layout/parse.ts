// A request's `layout` ({libraries: [lib], alg, params, directed}) checked against the layout registry: the same
// entry shape as compute, answering node columns x, y (and z).
import { type ParsedEntry, parseEntry } from "../compute/params.ts";
import { findLayout } from "./registry.ts";
import type { LayoutEntry } from "./types.ts";

export type ParsedLayout = ParsedEntry & { entry: LayoutEntry };

/** Parses one layout entry (400 naming `field` for anything the registry refuses). */
export function parseLayout(raw: unknown, field = "layout"): ParsedLayout {
  return parseEntry("layout", raw, field, findLayout) as ParsedLayout;
}
