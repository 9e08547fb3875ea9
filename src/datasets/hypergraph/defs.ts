// The hypergraph's resolved names and settings (pygraphistry's HyperBindings), and the column checks against a table.
import { AppError } from "../../errors/app-error.ts";
import type { HypergraphOptions } from "./options.ts";

export type Defs = {
  title: string;
  delim: string;
  nodeId: string;
  attribId: string;
  eventId: string;
  eventType: string;
  source: string;
  destination: string;
  category: string;
  nodeType: string;
  edgeType: string;
  nullVal: string;
  skip: string[];
  categories: Record<string, string[]>;
  edges: Record<string, string[]> | undefined;
  direct: boolean;
  dropNa: boolean;
  dropEdgeAttrs: boolean;
  /** Column name -> category name in ids (CATEGORIES reversed; a column listed twice takes the later category). */
  categoryOf: (column: string) => string;
  usesCategories: boolean;
};

export function resolveDefs(options: HypergraphOptions): Defs {
  const o = options.opts ?? {};
  const categories = o.CATEGORIES ?? {};
  const lookup = new Map<string, string>();
  for (const [category, columns] of Object.entries(categories)) for (const column of columns) lookup.set(column, category);
  return {
    title: o.TITLE ?? "nodeTitle",
    delim: o.DELIM ?? "::",
    nodeId: o.NODEID ?? "nodeID",
    attribId: o.ATTRIBID ?? "attribID",
    eventId: o.EVENTID ?? "EventID",
    eventType: o.EVENTTYPE ?? "event",
    source: o.SOURCE ?? "src",
    destination: o.DESTINATION ?? "dst",
    category: o.CATEGORY ?? "category",
    nodeType: o.NODETYPE ?? "type",
    edgeType: o.EDGETYPE ?? "edgeType",
    nullVal: o.NULLVAL ?? "null",
    skip: o.SKIP ?? [],
    categories,
    edges: o.EDGES,
    direct: options.direct ?? false,
    // pygraphistry's hypergraph() defaults drop_na to True; the spec gives no default of its own.
    dropNa: options.drop_na ?? true,
    dropEdgeAttrs: options.drop_edge_attrs ?? false,
    categoryOf: (column) => lookup.get(column) ?? column,
    usesCategories: Object.keys(categories).length > 0,
  };
}

/** Python's sorted() on strings: by code point, which differs from UTF-16 order for astral characters. */
export function byCodePoint(a: string, b: string): number {
  const x = Array.from(a, (c) => c.codePointAt(0) ?? 0);
  const y = Array.from(b, (c) => c.codePointAt(0) ?? 0);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

/**
 * Refuses options that name a column the table lacks (pygraphistry would fail later or silently ignore it).
 * The EVENTID column always exists once events are numbered, so naming it is allowed.
 */
export function checkColumns(columns: readonly string[], options: HypergraphOptions, defs: Defs): void {
  const known = new Set([...columns, defs.eventId]);
  const references: [string, string[]][] = [
    ["entity_types", options.entity_types ?? []],
    ["opts.SKIP", defs.skip],
    ...Object.entries(defs.categories).map(([k, v]): [string, string[]] => [`opts.CATEGORIES.${k}`, v]),
    ...Object.entries(defs.edges ?? {}).map(([k, v]): [string, string[]] => [`opts.EDGES.${k}`, [k, ...v]]),
  ];
  for (const [option, names] of references) {
    const missing = names.filter((name) => !known.has(name));
    if (missing.length === 0) continue;
    const list = missing.map((m) => `"${m}"`).join(", ");
    const has = columns.slice(0, 20).join(", ") + (columns.length > 20 ? ", …" : "");
    throw new AppError(
      "INVALID_INPUT",
      `edge_hypergraph_transform ${option} names column${missing.length > 1 ? "s" : ""} ${list}, which the table does not have (it has ${has || "no columns"})`,
      { details: { field: `edge_hypergraph_transform.${option}`, columns: missing } },
    );
  }
}
