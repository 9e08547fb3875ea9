// Read-only Cypher subset compiled onto the GFQL AST: parseCypher(text, params) -> the query parseGfql returns.

import type { GfqlQuery } from "../ast.ts";
import { parseGfql } from "../parse.ts";
import { lowerCypher } from "./lower.ts";
import { parseCypherSyntax } from "./parser.ts";

/** The GFQL wire form (JSON) a Cypher query lowers to, before validation. */
export function cypherToGfqlJson(text: string, params: Record<string, unknown> = {}): Record<string, unknown> {
  return lowerCypher(parseCypherSyntax(text, params));
}

/** Parses a read-only Cypher query (see README, GFQL) into the GFQL query AST that executeGfql runs. */
export function parseCypher(text: string, params: Record<string, unknown> = {}): GfqlQuery {
  return parseGfql(cypherToGfqlJson(text, params));
}
