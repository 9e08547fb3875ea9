// Entry point of GFQL parsing: turns a JSON chain, Chain object or Let into a validated query AST.

import type { Binding, ChainQuery, GfqlQuery, LetQuery } from "./ast.ts";
import { checkKeys, gfqlError, isPlainObject, sub } from "./gfql-error.ts";
import { letOrder } from "./let-order.ts";
import { parseCall } from "./parse-call.ts";
import { parseChainOp, parseChainOps } from "./parse-op.ts";
import { parseWhere } from "./parse-where.ts";
import { checkGfqlSchema } from "./schema-check.ts";

function parseChainObject(obj: Record<string, unknown>, path: string): ChainQuery {
  checkKeys(obj, ["type", "chain", "where"], path);
  const chain = parseChainOps(obj.chain, sub(path, "chain"));
  const where = parseWhere(obj.where, chain, sub(path, "where"));
  return where.length === 0 ? { type: "Chain", chain } : { type: "Chain", chain, where };
}

function parseBinding(value: unknown, path: string, scope: ReadonlySet<string>): Binding {
  if (Array.isArray(value)) return { type: "Chain", chain: parseChainOps(value, path) };
  if (!isPlainObject(value)) throw gfqlError("E101", "a Let binding must be an operation object", path);
  switch (value.type) {
    case "Node":
    case "Edge":
      return parseChainOp(value, path);
    case "Chain":
      return parseChainObject(value, path);
    case "Let":
    case "QueryDAG":
      return parseLet(value, path, scope);
    case "Ref": {
      checkKeys(value, ["type", "ref", "chain"], path);
      if (typeof value.ref !== "string" || value.ref === "") {
        throw gfqlError("E105", "Ref needs a 'ref' binding name", sub(path, "ref"));
      }
      const chain = value.chain === undefined ? [] : parseChainOps(value.chain, sub(path, "chain"));
      return { type: "Ref", ref: value.ref, chain };
    }
    case "Call":
      return parseCall(value, path);
    case "RemoteGraph":
      throw gfqlError("E101", `'${value.type}' bindings are not supported yet`, sub(path, "type"));
    default:
      throw gfqlError("E101", `unknown binding type ${JSON.stringify(value.type)}`, sub(path, "type"));
  }
}

function parseLet(obj: Record<string, unknown>, path: string, outer: ReadonlySet<string> = new Set()): LetQuery {
  checkKeys(obj, ["type", "bindings", "output"], path);
  if (!isPlainObject(obj.bindings)) throw gfqlError("E105", "Let needs a 'bindings' object", path);
  const scope = new Set([...outer, ...Object.keys(obj.bindings)]);
  const bindings = Object.entries(obj.bindings).map(([name, v]) => ({
    name,
    value: parseBinding(v, sub(path, `bindings.${name}`), scope),
  }));
  // chain_let.py: `if not dag.bindings: return g` -- a Let without bindings is the whole graph
  const query: LetQuery = { type: "Let", bindings };
  if (obj.output !== undefined && obj.output !== null) {
    if (typeof obj.output !== "string" || !bindings.some((b) => b.name === obj.output)) {
      throw gfqlError("E151", `output ${JSON.stringify(obj.output)} names no binding`, sub(path, "output"));
    }
    query.output = obj.output;
  }
  letOrder(query, path, outer); // validates references and cycles now, so execution cannot fail on them
  return query;
}

/** Parses a GFQL query (validated against schema/json/gfql/query.json first): a JSON array of ops, a {"type":"Chain"} object, a Let, a single Node/Edge/Call, or a JSON string of one of those. */
export function parseGfql(json: unknown): GfqlQuery {
  let value = json;
  if (typeof value === "string") {
    try {
      value = JSON.parse(value);
    } catch {
      throw gfqlError("E101", "the query is not valid JSON", "");
    }
  }
  // the wire shape first (schema/json/gfql), then what a schema cannot say: names, references, safelist, bounds
  checkGfqlSchema(value);
  if (Array.isArray(value)) return { type: "Chain", chain: parseChainOps(value, "chain") };
  if (!isPlainObject(value)) throw gfqlError("E101", "a query must be a list of operations, a Chain or a Let", "");
  switch (value.type) {
    case "Chain":
      return parseChainObject(value, "");
    case "Let":
    case "QueryDAG":
      return parseLet(value, "");
    case "Node":
    case "Edge":
      return { type: "Chain", chain: [parseChainOp(value, "chain[0]")] };
    case "Call":
      return { type: "Chain", chain: [parseCall(value, "chain[0]")] };
    case "RemoteGraph":
    case "Ref":
      throw gfqlError("E101", `top-level '${value.type}' is not supported yet`, "type");
    default:
      throw gfqlError("E101", `unknown query type ${JSON.stringify(value.type)}`, "type");
  }
}
