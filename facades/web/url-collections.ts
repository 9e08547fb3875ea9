// graph.html's `collections` parameter as pygraphistry writes it (URL-encoded JSON list of sets, reference section 6):
// each set with a GFQL chain becomes a collection of the session the visit opens.

export type UrlCollection = { name: string; query: unknown[]; nodeColor?: string; description?: string };

export type UrlCollections = { sets: UrlCollection[]; skipped: string[] };

const HEX = /^#?(?:[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;

/**
 * The sets the parameter names, in order; what cannot become a collection (an intersection of other sets, a set
 * without a GFQL chain, unreadable JSON) is listed in `skipped` with the reason, never fatal to opening the page.
 */
export function readUrlCollections(raw: string | null): UrlCollections {
  if (!raw) return { sets: [], skipped: [] };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { sets: [], skipped: ["the collections parameter is not JSON"] };
  }
  if (!Array.isArray(value)) return { sets: [], skipped: ["the collections parameter is not a list"] };
  const sets: UrlCollection[] = [];
  const skipped: string[] = [];
  for (const [i, item] of value.entries()) {
    const entry = (item ?? {}) as Record<string, unknown>;
    const label = String(entry.name ?? entry.id ?? `collections[${i}]`);
    const expr = (entry.expr ?? {}) as Record<string, unknown>;
    if (expr.type !== "gfql_chain" || !Array.isArray(expr.gfql)) {
      skipped.push(`${label}: only sets with a gfql_chain expression are applied (got ${String(expr.type ?? entry.type)})`);
      continue;
    }
    const color = typeof entry.node_color === "string" && HEX.test(entry.node_color) ? entry.node_color : undefined;
    sets.push({
      name: label,
      query: expr.gfql,
      ...(color ? { nodeColor: color.startsWith("#") ? color : `#${color}` } : {}),
      ...(typeof entry.description === "string" && entry.description ? { description: entry.description } : {}),
    });
  }
  return { sets, skipped };
}
