// Compute entries ({libraries: [lib], alg, params, directed}) checked against the registry: parsed, defaults filled,
// node ids and column names resolved against a dataset's tables. Every refusal is a 400 naming the field.
import pl from "nodejs-polars";
import { AppError } from "../errors/app-error.ts";
import { lookupAlgorithm } from "./algorithm-lookup.ts";
import { unknownNameHint } from "./name-hint.ts";
import type { AlgorithmEntry, ParamSpec } from "./types.ts";

/** One labelled entry, checked without the tables: its registry entry, its parameters (defaults filled), `directed`. */
export type ParsedEntry = {
  label: string;
  /** Where the entry sits in the request, for error fields ("compute.<label>"). */
  field: string;
  entry: AlgorithmEntry;
  params: Record<string, unknown>;
  directed: boolean;
};

/** The tables parameters are resolved against. */
export type ParamTables = { nodes: pl.DataFrame; edges: pl.DataFrame | undefined; nodeId: string };

export type FindAlgorithm = (library: string, name: string) => AlgorithmEntry | undefined;

export const invalidField = (message: string, field: string, extra: Record<string, unknown> = {}) =>
  new AppError("INVALID_INPUT", message, { details: { field, ...extra } });

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function checkNumber(value: unknown, spec: ParamSpec, field: string): number {
  if (typeof value !== "number" || !Number.isFinite(value)) throw invalidField(`${field} must be a finite number`, field);
  if (spec.type === "integer" && !Number.isInteger(value)) throw invalidField(`${field} must be an integer`, field);
  const ex = spec.exclusive === true;
  if (spec.min !== undefined && (ex ? value <= spec.min : value < spec.min))
    throw invalidField(`${field} must be ${ex ? "above" : "at least"} ${spec.min}`, field);
  if (spec.max !== undefined && (ex ? value >= spec.max : value > spec.max))
    throw invalidField(`${field} must be ${ex ? "below" : "at most"} ${spec.max}`, field);
  return value;
}

const isId = (v: unknown) => typeof v === "string" || (typeof v === "number" && Number.isFinite(v)) || typeof v === "boolean";

/** Checks one value's type and range (node ids and column names stay as given: resolveParams reads the tables). */
function checkValue(value: unknown, spec: ParamSpec, field: string): unknown {
  switch (spec.type) {
    case "number":
    case "integer":
      return checkNumber(value, spec, field);
    case "boolean":
      if (typeof value !== "boolean") throw invalidField(`${field} must be true or false`, field);
      return value;
    case "string":
      if (typeof value !== "string") throw invalidField(`${field} must be a string`, field);
      return value;
    case "enum":
      if (typeof value !== "string" || !(spec.values ?? []).includes(value))
        throw invalidField(`${field} must be one of ${(spec.values ?? []).join(", ")}`, field);
      return value;
    case "numbers":
      if (!Array.isArray(value)) throw invalidField(`${field} must be a list of numbers`, field);
      return value.map((v, i) => checkNumber(v, spec, `${field}[${i}]`));
    case "node":
      if (!isId(value)) throw invalidField(`${field} must be a node id`, field);
      return value;
    case "nodes":
      if (!Array.isArray(value) || !value.every(isId)) throw invalidField(`${field} must be a list of node ids`, field);
      return value;
    case "edgeColumn":
    case "nodeColumn":
      if (typeof value !== "string" || value === "") throw invalidField(`${field} must name a column`, field);
      return value;
    case "json":
      return value;
    case "positions":
      return checkPositionRecords(value, field);
  }
}

/** A list of {vertex, x, y} records (cuGraph's pos_list): vertex a node id, x and y finite numbers. */
function checkPositionRecords(value: unknown, field: string): unknown {
  if (!Array.isArray(value)) throw invalidField(`${field} must be a list of {vertex, x, y} records`, field);
  for (const [k, record] of value.entries()) {
    const at = `${field}[${k}]`;
    if (!isObject(record)) throw invalidField(`${at} must be a {vertex, x, y} record`, at);
    if (!isId(record.vertex)) throw invalidField(`${at}.vertex must be a node id`, `${at}.vertex`);
    for (const axis of ["x", "y"]) {
      const v = record[axis];
      if (typeof v !== "number" || !Number.isFinite(v)) throw invalidField(`${at}.${axis} must be a finite number`, `${at}.${axis}`);
    }
  }
  return value;
}

/** Checks `params` against the entry's specs: unknown names, types, ranges; fills defaults. */
export function checkParams(entry: AlgorithmEntry, params: unknown, field: string): Record<string, unknown> {
  if (params !== undefined && params !== null && !isObject(params)) throw invalidField(`${field} must be an object`, field);
  const given = (params ?? {}) as Record<string, unknown>;
  for (const name of Object.keys(given)) {
    if (!Object.hasOwn(entry.params, name)) {
      const known = Object.keys(entry.params);
      throw invalidField(
        `${field}.${name}: ${entry.library} ${entry.name} takes no parameter "${name}" (it takes ${known.length ? known.join(", ") : "none"})`,
        `${field}.${name}`,
        { unknownParameter: true },
      );
    }
  }
  const out: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(entry.params)) {
    const value = given[name];
    const at = `${field}.${name}`;
    if (value === undefined) {
      if (spec.required) throw invalidField(`${at} is required`, at);
      if (spec.default !== undefined) out[name] = spec.default;
      continue;
    }
    if (value === null) {
      if (!spec.nullable && spec.default !== null) throw invalidField(`${at} cannot be null`, at);
      out[name] = null;
      continue;
    }
    out[name] = checkValue(value, spec, at);
  }
  return out;
}

/** One entry `{libraries: [lib], alg, params, directed}` under `field`. */
export function parseEntry(label: string, raw: unknown, field: string, find: FindAlgorithm = lookupAlgorithm): ParsedEntry {
  if (!isObject(raw)) throw invalidField(`${field} must be an object {libraries, alg, params, directed}`, field);
  for (const key of Object.keys(raw)) {
    if (!["libraries", "alg", "params", "directed"].includes(key))
      throw invalidField(`${field}.${key} is not a compute entry field (libraries, alg, params, directed)`, `${field}.${key}`);
  }
  const libraries = typeof raw.libraries === "string" ? [raw.libraries] : raw.libraries;
  if (!Array.isArray(libraries) || libraries.length !== 1 || typeof libraries[0] !== "string")
    throw invalidField(`${field}.libraries must be a list of one library name (cugraph or igraph)`, `${field}.libraries`);
  const library = libraries[0];
  if (library !== "igraph" && library !== "cugraph")
    throw invalidField(`${field}.libraries: unknown library "${library}" (cugraph or igraph)`, `${field}.libraries`);
  if (typeof raw.alg !== "string" || raw.alg === "") throw invalidField(`${field}.alg must name an algorithm`, `${field}.alg`);
  const entry = find(library, raw.alg);
  if (!entry)
    throw invalidField(
      `${field}.alg: ${library} has no algorithm "${raw.alg}" here${unknownNameHint(library, raw.alg, find)}`,
      `${field}.alg`,
    );
  if (raw.directed !== undefined && raw.directed !== null && typeof raw.directed !== "boolean")
    throw invalidField(`${field}.directed must be true or false`, `${field}.directed`);
  const directed = raw.directed ?? true;
  if (entry.undirectedOnly && directed !== false)
    throw invalidField(
      `${field}.directed: ${library} ${entry.name} only takes undirected graphs; pass directed: false`,
      `${field}.directed`,
    );
  return { label, field, entry, params: checkParams(entry, raw.params, `${field}.params`), directed };
}

/** The `compute` object of a request: labels -> entries, in order. */
export function parseCompute(raw: unknown, field = "compute", find: FindAlgorithm = lookupAlgorithm): ParsedEntry[] {
  if (!isObject(raw)) throw invalidField(`${field} must be an object mapping output labels to entries`, field);
  return Object.entries(raw).map(([label, entry]) => {
    if (label.trim() === "") throw invalidField(`${field} has an empty label`, field);
    return parseEntry(label, entry, `${field}.${label}`, find);
  });
}

const NUMERIC_IDS = /^(U?Int(8|16|32|64)|Float(32|64))$/;

/**
 * Row of each id in the node table's id column; unknown ids answer 400. Numeric id columns compare as numbers
 * (12, "12" and 12.0 meet), others as text.
 */
function rowsOfIds(tables: ParamTables, ids: unknown[], field: string): Int32Array {
  const numeric = NUMERIC_IDS.test(String(tables.nodes.getColumn(tables.nodeId).dtype.variant));
  const key = (v: unknown) => (numeric ? String(Number(v)) : String(v));
  const wanted = ids.map(key);
  const column = numeric ? pl.col(tables.nodeId).cast(pl.Float64) : pl.col(tables.nodeId).cast(pl.Utf8);
  const probe = numeric ? wanted.map(Number).filter((v) => !Number.isNaN(v)) : wanted;
  const found = tables.nodes.select(column.alias("__id")).withRowIndex("__r").filter(pl.col("__id").isIn(probe));
  const rowOf = new Map<string, number>();
  const idCol = found.getColumn("__id").toArray() as unknown[];
  const rowCol = found.getColumn("__r").toArray() as number[];
  for (let i = 0; i < idCol.length; i++) {
    const id = key(idCol[i]);
    if (!rowOf.has(id)) rowOf.set(id, Number(rowCol[i]));
  }
  const out = new Int32Array(wanted.length);
  for (const [i, id] of wanted.entries()) {
    const row = rowOf.get(id);
    if (row === undefined) throw invalidField(`${field}: no node has id ${JSON.stringify(ids[i])}`, field);
    out[i] = row;
  }
  return out;
}

const NUMERIC = /^(U?Int(8|16|32|64)|Float(32|64)|Bool)$/;

/** A numeric column without nulls as one float per row. */
function numericColumn(frame: pl.DataFrame | undefined, column: string, what: string, field: string): Float64Array {
  if (!frame?.columns.includes(column)) throw invalidField(`${field}: the ${what} table has no column "${column}"`, field);
  const series = frame.getColumn(column);
  if (!NUMERIC.test(String(series.dtype.variant))) throw invalidField(`${field}: column "${column}" is not numeric`, field);
  if (series.nullCount() > 0) throw invalidField(`${field}: column "${column}" holds nulls`, field);
  return Float64Array.from(series.cast(pl.Float64).toTypedArray() as Float64Array);
}

/** The values `run` sees: node ids as rows, column names as per-row floats; everything else as checked. */
export function resolveParams(parsed: ParsedEntry, tables: ParamTables): Record<string, unknown> {
  const out: Record<string, unknown> = { ...parsed.params };
  for (const [name, spec] of Object.entries(parsed.entry.params)) {
    const value = out[name];
    if (value === undefined || value === null) continue;
    const field = `${parsed.field}.params.${name}`;
    if (spec.type === "node") out[name] = rowsOfIds(tables, [value], field)[0];
    else if (spec.type === "nodes") out[name] = rowsOfIds(tables, value as unknown[], field);
    else if (spec.type === "edgeColumn") out[name] = numericColumn(tables.edges, value as string, "edge", field);
    else if (spec.type === "nodeColumn") out[name] = numericColumn(tables.nodes, value as string, "node", field);
    else if (spec.type === "json" && spec.columnOf && typeof value === "string")
      out[name] = numericColumn(spec.columnOf === "node" ? tables.nodes : tables.edges, value, spec.columnOf, field);
    else if (spec.type === "positions") {
      const records = value as { vertex: unknown; x: number; y: number }[];
      out[name] = {
        rows: rowsOfIds(
          tables,
          records.map((r) => r.vertex),
          field,
        ),
        x: Float64Array.from(records, (r) => r.x),
        y: Float64Array.from(records, (r) => r.y),
      };
    }
  }
  return out;
}
