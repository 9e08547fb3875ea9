// Reads one `edge_hypergraph_transform` object from a request body, refusing unknown keys and wrong types by name.
import { AppError } from "../../errors/app-error.ts";

export type HypergraphOpts = {
  EVENTID?: string;
  CATEGORIES?: Record<string, string[]>;
  DELIM?: string;
  SKIP?: string[];
  EDGES?: Record<string, string[]>;
  TITLE?: string;
  NODEID?: string;
  ATTRIBID?: string;
  EVENTTYPE?: string;
  SOURCE?: string;
  DESTINATION?: string;
  CATEGORY?: string;
  NODETYPE?: string;
  EDGETYPE?: string;
  NULLVAL?: string;
};

export type HypergraphOptions = {
  entity_types?: string[];
  direct?: boolean;
  drop_edge_attrs?: boolean;
  drop_na?: boolean;
  opts?: HypergraphOpts;
};

type Json = Record<string, unknown>;

const TOP_KEYS = ["entity_types", "direct", "drop_edge_attrs", "drop_na", "opts"] as const;
const FLAG_KEYS = ["direct", "drop_edge_attrs", "drop_na"] as const;
/** Options that name output columns: an empty name could not be stored. */
const NAME_KEYS = ["EVENTID", "TITLE", "NODEID", "ATTRIBID", "SOURCE", "DESTINATION", "CATEGORY", "NODETYPE", "EDGETYPE"] as const;
/** Options that are text inside ids and values, where empty is meaningful (DELIM "" joins directly). */
const TEXT_KEYS = ["DELIM", "EVENTTYPE", "NULLVAL"] as const;
const MAP_KEYS = ["CATEGORIES", "EDGES"] as const;
const OPTS_KEYS: readonly string[] = [...NAME_KEYS, ...TEXT_KEYS, ...MAP_KEYS, "SKIP"];

const invalid = (field: string, message: string) => new AppError("INVALID_INPUT", `${field} ${message}`, { details: { field } });

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function refuseUnknown(value: Json, known: readonly string[], field: string): void {
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) throw invalid(`${field}.${key}`, `is not a hypergraph option (known: ${known.join(", ")})`);
  }
}

function stringList(value: unknown, field: string): string[] {
  if (!Array.isArray(value)) throw invalid(field, "must be a list of column names");
  value.forEach((item, i) => {
    if (typeof item !== "string") throw invalid(`${field}[${i}]`, "must be a column name (a string)");
  });
  return value as string[];
}

function listMap(value: unknown, field: string): Record<string, string[]> {
  if (!isObject(value)) throw invalid(field, "must be an object mapping names to lists of column names");
  const out: Record<string, string[]> = {};
  for (const [key, list] of Object.entries(value)) out[key] = stringList(list, `${field}.${key}`);
  return out;
}

function readOpts(value: unknown, field: string): HypergraphOpts {
  if (!isObject(value)) throw invalid(field, "must be an object");
  refuseUnknown(value, OPTS_KEYS, field);
  const out: HypergraphOpts = {};
  for (const key of [...NAME_KEYS, ...TEXT_KEYS]) {
    const v = value[key];
    if (v === undefined || v === null) continue;
    if (typeof v !== "string") throw invalid(`${field}.${key}`, "must be a string");
    if (v === "" && (NAME_KEYS as readonly string[]).includes(key))
      throw invalid(`${field}.${key}`, "must not be empty (it names a column)");
    out[key] = v;
  }
  for (const key of MAP_KEYS) {
    if (value[key] !== undefined && value[key] !== null) out[key] = listMap(value[key], `${field}.${key}`);
  }
  if (value.SKIP !== undefined && value.SKIP !== null) out.SKIP = stringList(value.SKIP, `${field}.SKIP`);
  return out;
}

/**
 * Validates one transform object from a dataset body's `edge_hypergraph_transform` list (`{}` = defaults).
 * null stands for "not given", as Python clients send None for defaults. Column names are checked
 * against the table later, by hypergraph().
 */
export function readHypergraphOptions(value: unknown, field: string): HypergraphOptions {
  if (!isObject(value)) throw invalid(field, "must be an object of hypergraph options");
  refuseUnknown(value, TOP_KEYS, field);
  const out: HypergraphOptions = {};
  for (const key of FLAG_KEYS) {
    const v = value[key];
    if (v === undefined || v === null) continue;
    if (typeof v !== "boolean") throw invalid(`${field}.${key}`, "must be true or false");
    out[key] = v;
  }
  if (value.entity_types !== undefined && value.entity_types !== null) {
    out.entity_types = stringList(value.entity_types, `${field}.entity_types`);
  }
  if (value.opts !== undefined && value.opts !== null) out.opts = readOpts(value.opts, `${field}.opts`);
  return out;
}
