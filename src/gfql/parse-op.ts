// Parses one GFQL chain operation (Node, Edge or Call) from JSON, resolving Edge hop bounds.

import type { ChainOp, Direction, EdgeOp, NodeOp } from "./ast.ts";
import { checkKeys, gfqlError, isPlainObject } from "./gfql-error.ts";
import { parseCall } from "./parse-call.ts";
import { parseFilterDict } from "./parse-predicate.ts";
import { parseQueryString, type QueryExpr } from "./query-string/index.ts";

const NODE_KEYS = ["type", "filter_dict", "name", "query"] as const;
const EDGE_KEYS = [
  "type",
  "direction",
  "edge_match",
  "hops",
  "min_hops",
  "max_hops",
  "to_fixed_point",
  "source_node_match",
  "destination_node_match",
  "name",
  "source_node_query",
  "destination_node_query",
  "edge_query",
  "output_min_hops",
  "output_max_hops",
  "label_node_hops",
  "label_edge_hops",
  "label_seeds",
  "include_zero_hop_seed",
] as const;
/** Edge options accepted only at their default (null/false): their behaviour is not implemented yet. */
const EDGE_DEFAULT_ONLY = ["include_zero_hop_seed"] as const;
const DIRECTIONS: readonly Direction[] = ["forward", "reverse", "undirected"];

function parseName(value: unknown, path: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string" || value === "") throw gfqlError("E204", "'name' must be a non-empty string", path);
  return value;
}

/** A `query` / `*_query` string: a pandas DataFrame.query expression, parsed now (E205 with its column if bad). */
function parseQuery(value: unknown, key: string, path: string): QueryExpr | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw gfqlError("E205", `'${key}' must be a string`, `${path}.${key}`);
  return parseQueryString(value, `${path}.${key}`);
}

function optHopCount(obj: Record<string, unknown>, key: string, path: string): number | undefined {
  const v = obj[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "number" || !Number.isInteger(v) || v < 0) {
    throw gfqlError("E103", `'${key}' must be a non-negative integer`, `${path}.${key}`);
  }
  return v;
}

function parseNode(obj: Record<string, unknown>, path: string): NodeOp {
  checkKeys(obj, NODE_KEYS, path);
  const name = parseName(obj.name, `${path}.name`);
  const op: NodeOp = { type: "Node", filter: parseFilterDict(obj.filter_dict, `${path}.filter_dict`) };
  const query = parseQuery(obj.query, "query", path);
  if (query !== undefined) op.query = query;
  if (name !== undefined) op.name = name;
  return op;
}

/** Parses an Edge object (also the params of a hop Call). */
export function parseEdgeObject(obj: Record<string, unknown>, path: string): EdgeOp {
  checkKeys(obj, EDGE_KEYS, path);
  if (obj.direction === undefined) throw gfqlError("E105", "missing required field 'direction'", path);
  if (typeof obj.direction !== "string" || !(DIRECTIONS as readonly string[]).includes(obj.direction)) {
    throw gfqlError("E104", `direction must be forward, reverse or undirected, not ${JSON.stringify(obj.direction)}`, `${path}.direction`);
  }
  for (const key of EDGE_DEFAULT_ONLY) {
    const v = obj[key];
    if (v !== undefined && v !== null && v !== false) throw gfqlError("E103", `'${key}' is not supported yet`, `${path}.${key}`);
  }
  const toFixedPoint = obj.to_fixed_point ?? false;
  if (typeof toFixedPoint !== "boolean") throw gfqlError("E103", "'to_fixed_point' must be a boolean", `${path}.to_fixed_point`);
  const hops = optHopCount(obj, "hops", path);
  // ASTEdge._validate_fields: "hops must be a positive integer or None" (E103); max_hops: 0 is the zero-length walk
  if (hops === 0) throw gfqlError("E103", "'hops' must be a positive integer", `${path}.hops`);
  const minGiven = optHopCount(obj, "min_hops", path);
  const maxGiven = optHopCount(obj, "max_hops", path);
  // Hop bounds as documented (language.md, hop.py resolve_hop_bounds): `hops` is shorthand for max_hops and an
  // absent/null `hops` counts as 1 (as the n-e-n fast path and the SDK examples do); to_fixed_point removes the
  // upper bound, max_hops included (resolve_hop_bounds: `if to_fixed_point: resolved_max_hops = None`).
  const maxHops = toFixedPoint ? null : (maxGiven ?? hops ?? 1);
  // min_hops defaults to 1, or 0 when max_hops is 0; a zero-length walk keeps the wavefront node itself
  const minHops = minGiven ?? (maxHops === 0 ? 0 : 1);
  if (maxHops !== null && minHops > maxHops) {
    throw gfqlError("E103", `min_hops (${minHops}) exceeds max_hops (${maxHops})`, path);
  }
  const op: EdgeOp = {
    type: "Edge",
    direction: obj.direction as Direction,
    edgeMatch: parseFilterDict(obj.edge_match, `${path}.edge_match`),
    sourceNodeMatch: parseFilterDict(obj.source_node_match, `${path}.source_node_match`),
    destinationNodeMatch: parseFilterDict(obj.destination_node_match, `${path}.destination_node_match`),
    minHops,
    maxHops,
    toFixedPoint,
  };
  for (const [key, field] of [
    ["edge_query", "edgeQuery"],
    ["source_node_query", "sourceNodeQuery"],
    ["destination_node_query", "destinationNodeQuery"],
  ] as const) {
    const query = parseQuery(obj[key], key, path);
    if (query !== undefined) op[field] = query;
  }
  parseOutputOptions(obj, op, path);
  const name = parseName(obj.name, `${path}.name`);
  if (name !== undefined) op.name = name;
  return op;
}

/** output_min/max_hops slicing and the label_* hop-number columns. */
function parseOutputOptions(obj: Record<string, unknown>, op: EdgeOp, path: string): void {
  const outMin = optHopCount(obj, "output_min_hops", path);
  const outMax = optHopCount(obj, "output_max_hops", path);
  if (outMin !== undefined && outMax !== undefined && outMin > outMax) {
    throw gfqlError("E103", `output_min_hops (${outMin}) exceeds output_max_hops (${outMax})`, path);
  }
  // resolve_hop_bounds (and ASTEdge._validate_fields, E103) compare the output slice with the resolved traversal bounds
  if (outMin !== undefined && op.maxHops !== null && outMin > op.maxHops) {
    throw gfqlError(
      "E103",
      `output_min_hops (${outMin}) cannot exceed the max_hops traversal bound (${op.maxHops})`,
      `${path}.output_min_hops`,
    );
  }
  if (outMax !== undefined && outMax < op.minHops) {
    throw gfqlError(
      "E103",
      `output_max_hops (${outMax}) cannot be below the min_hops traversal bound (${op.minHops})`,
      `${path}.output_max_hops`,
    );
  }
  if (outMin !== undefined) op.outputMinHops = outMin;
  if (outMax !== undefined) op.outputMaxHops = outMax;
  for (const [key, field] of [
    ["label_node_hops", "labelNodeHops"],
    ["label_edge_hops", "labelEdgeHops"],
  ] as const) {
    const v = obj[key];
    if (v === undefined || v === null) continue;
    if (typeof v !== "string" || v === "") throw gfqlError("E103", `'${key}' must be a column name`, `${path}.${key}`);
    op[field] = v;
  }
  const seeds = obj.label_seeds ?? false;
  if (typeof seeds !== "boolean") throw gfqlError("E103", "'label_seeds' must be a boolean", `${path}.label_seeds`);
  if (seeds) op.labelSeeds = true;
}

export function parseChainOp(value: unknown, path: string): ChainOp {
  if (!isPlainObject(value)) throw gfqlError("E101", "a chain operation must be an object", path);
  switch (value.type) {
    case "Node":
      return parseNode(value, path);
    case "Edge":
      return parseEdgeObject(value, path);
    case "Call":
      return parseCall(value, path);
    case "RemoteGraph":
      throw gfqlError("E101", `'${value.type}' operations are not supported yet`, `${path}.type`);
    case "Chain":
    case "Let":
    case "QueryDAG":
    case "Ref":
      throw gfqlError("E101", `'${value.type}' cannot appear inside a chain`, `${path}.type`);
    default:
      throw gfqlError("E101", `unknown operation type ${JSON.stringify(value.type)}`, `${path}.type`);
  }
}

/** Call steps may only form a prefix or a suffix around the traversal block (Node/Edge steps). */
function checkCallPlacement(ops: ChainOp[], path: string): void {
  const first = ops.findIndex((op) => op.type !== "Call");
  if (first < 0) return;
  let last = first;
  ops.forEach((op, i) => {
    if (op.type !== "Call") last = i;
  });
  for (let i = first; i <= last; i++) {
    if (ops[i]?.type === "Call") {
      // chain.py _get_boundary_calls: "Cannot mix call() operations with n()/e() traversals in interior of chain" (E201)
      throw gfqlError("E201", "Call steps may only come before or after the Node/Edge steps, not between them", `${path}[${i}]`);
    }
  }
}

/**
 * A chain's operations; an empty list is the whole graph (pygraphistry's chain([]) returns the graph unchanged).
 * Step names are unique per kind (combine_steps refuses a duplicate alias with E201): a Node and an Edge may share
 * one, each table then gets its own boolean column.
 */
export function parseChainOps(value: unknown, path: string): ChainOp[] {
  if (!Array.isArray(value)) throw gfqlError("E101", "a chain must be a list of operations", path);
  const ops = value.map((op, i) => parseChainOp(op, `${path}[${i}]`));
  const seen = new Map<string, number>();
  ops.forEach((op, i) => {
    if (op.type === "Call" || op.name === undefined) return;
    const key = `${op.type}\u0000${op.name}`;
    const first = seen.get(key);
    if (first !== undefined) {
      throw gfqlError("E201", `duplicate alias name '${op.name}' in chain (steps ${first} and ${i})`, `${path}[${i}].name`);
    }
    seen.set(key, i);
  });
  checkCallPlacement(ops, path);
  return ops;
}
