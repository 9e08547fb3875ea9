// Read-only Cypher subset compiled onto the GFQL AST: parseCypher(text, params) -> the query parseGfql returns.
//
// A query of the shape GFQL's Chain expresses (one MATCH path, WHERE that splits per variable, RETURN of one
// variable) lowers to a Chain (lower.ts). Any other supported query becomes a Chain of one `cypher_rows` Call that
// runs the per-path row plan (rows.ts); that Call has no wire form, so cypherToGfqlJson refuses such queries.

import type { GfqlQuery } from "../ast.ts";
import { parseGfql } from "../parse.ts";
import { isUnsupported } from "./errors.ts";
import { lowerCypher } from "./lower.ts";
import { parseCypherSyntax } from "./parser.ts";
import { planRows } from "./rows.ts";

/** The GFQL wire form (JSON) a Cypher query lowers to, before validation (Chain-shaped queries only). */
export function cypherToGfqlJson(text: string, params: Record<string, unknown> = {}): Record<string, unknown> {
  return lowerCypher(parseCypherSyntax(text, params));
}

/** Parses a read-only Cypher query (see README, GFQL) into the GFQL query AST that executeGfql runs. */
export function parseCypher(text: string, params: Record<string, unknown> = {}): GfqlQuery {
  const q = parseCypherSyntax(text, params);
  let wire: Record<string, unknown>;
  try {
    wire = lowerCypher(q);
  } catch (e) {
    if (!isUnsupported(e)) throw e;
    return { type: "Chain", chain: [{ type: "Call", call: { fn: "cypher_rows", plan: planRows(q) } }] };
  }
  return bindPerPath(parseGfql(wire));
}

/**
 * A Cypher variable binds per matched path: each named Node step marks the nodes the paths pass there. The flag is
 * not enumerable: it is a hint to the engine (parsed where the query runs), not part of the query's shape, so the
 * parsed query still equals the one its GFQL twin parses to.
 */
export function bindPerPath(q: GfqlQuery): GfqlQuery {
  if (q.type !== "Chain") return q;
  for (const op of q.chain) if (op.type === "Node") Object.defineProperty(op, "pathBinding", { value: true, enumerable: false });
  return q;
}
