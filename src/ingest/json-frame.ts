// The DataFrame pandas' read_json builds from decoded JSON for each orient (pandas 1.5's FrameParser),
// before its type conversions: column labels and columns of Python values, typed as the constructor types them.
import { AppError } from "../errors/app-error.ts";
import { astype, type Col, inferObjects } from "./json-columns.ts";
import { isDict, type PyDict, type PyValue } from "./json-decode.ts";

export const ORIENTS = ["records", "columns", "index", "split", "values", "table"] as const;
export type Orient = (typeof ORIENTS)[number];

/** A column label: JSON keys are text, positions are ints; read_json may turn them into numbers or instants. */
export type Label = string | bigint | number | { ns: bigint | null; tz: string | null };
export type Frame = { labels: Label[]; cols: Col[] };

/** Keys @graphistry/js-upload-api adds to a JSON body of columns; they are not data. */
const CLIENT_KEYS = ["agent_name", "agent_version"];

export const failed = (message: string, details: Record<string, unknown> = {}) =>
  new AppError("PARSE_FAILED", message, { details: { format: "json", ...details } });

const typed = (labels: Label[], raw: PyValue[][]): Frame => ({ labels, cols: raw.map(inferObjects) });
const kindOf = (v: PyValue) => (isDict(v) ? "object" : Array.isArray(v) ? "array" : "scalar");

/** DataFrame(list): records (union of keys, first seen first), rows of values, or one column of values. */
function fromList(rows: PyValue[], columns?: PyValue[]): Frame {
  const first = rows[0];
  if (first === undefined) return { labels: (columns ?? []).map(labelOf), cols: (columns ?? []).map(() => inferObjects([])) };
  if (isDict(first)) {
    const bad = rows.findIndex((r) => !isDict(r));
    if (bad >= 0)
      throw failed(`row ${bad} is not a JSON object, but row 0 is (pandas: 'list' object has no attribute 'keys')`, { row: bad });
    const dicts = rows as PyDict[];
    const names = columns ? columns.map(labelText) : [...new Set(dicts.flatMap((r) => [...r.keys()]))];
    return typed(
      columns ? columns.map(labelOf) : names,
      names.map((n) => dicts.map((r) => (r.has(n) ? (r.get(n) as PyValue) : Number.NaN))),
    );
  }
  if (Array.isArray(first)) {
    const bad = rows.findIndex((r) => !Array.isArray(r));
    if (bad >= 0) throw failed(`row ${bad} is not a JSON array, but row 0 is`, { row: bad });
    const lists = rows as PyValue[][];
    const width = Math.max(...lists.map((r) => r.length));
    if (columns && columns.length !== width) throw failed(`${columns.length} columns passed, passed data had ${width} columns`);
    const labels = columns ? columns.map(labelOf) : Array.from({ length: width }, (_, i) => BigInt(i));
    return typed(
      labels,
      labels.map((_, c) => lists.map((r) => (c < r.length ? (r[c] as PyValue) : null))),
    );
  }
  if (columns && columns.length !== 1) throw failed(`${columns.length} columns passed, passed data had 1 columns`);
  return typed([columns?.[0] !== undefined ? labelOf(columns[0]) : 0n], [rows]);
}

/** DataFrame(dict): column arrays (scalars repeated), or objects keyed by row label (rows first seen first). */
function fromDict(data: PyDict): Frame {
  let entries = [...data];
  if (entries.some(([, v]) => Array.isArray(v)))
    entries = entries.filter(([k, v]) => !(CLIENT_KEYS.includes(k) && (typeof v === "string" || v === null)));
  if (entries.length === 0) return { labels: [], cols: [] };
  const kinds = new Set(entries.map(([, v]) => kindOf(v)));
  if (kinds.has("object") && kinds.has("array")) throw failed("Mixing dicts with non-Series may lead to ambiguous ordering.");
  const labels = entries.map(([k]) => k);
  if (kinds.has("object")) {
    const rows = [...new Set(entries.flatMap(([, v]) => (isDict(v) ? [...v.keys()] : [])))];
    return typed(
      labels,
      entries.map(([, v]) => rows.map((r) => (isDict(v) ? (v.has(r) ? (v.get(r) as PyValue) : Number.NaN) : v))),
    );
  }
  if (!kinds.has("array")) throw failed("If using all scalar values, you must pass an index");
  const lengths = new Set(entries.filter(([, v]) => Array.isArray(v)).map(([, v]) => (v as PyValue[]).length));
  if (lengths.size > 1) throw failed("All arrays must be of the same length");
  const [length = 0] = lengths;
  return typed(
    labels,
    entries.map(([, v]) => (Array.isArray(v) ? v : Array.from({ length }, () => v))),
  );
}

/** DataFrame.from_dict(orient="index"): each member is a row. */
function fromIndex(data: PyValue): Frame {
  if (!isDict(data)) throw failed('orient "index" needs a JSON object of rows');
  const rows = [...data];
  if (rows.length === 0) return { labels: [], cols: [] };
  if (!isDict(rows[0]?.[1] ?? null)) return fromList(rows.map(([, v]) => v));
  const bad = rows.findIndex(([, v]) => !isDict(v));
  if (bad >= 0) throw failed(`row "${rows[bad]?.[0]}" is not a JSON object, but the first row is`);
  const names = [...new Set(rows.flatMap(([, v]) => [...(v as PyDict).keys()]))];
  // pandas regroups the rows by column, then aligns the columns: rows come in the order the columns meet them.
  const order = [...new Set(names.flatMap((n) => rows.filter(([, v]) => (v as PyDict).has(n)).map(([k]) => k)))];
  const byLabel = new Map(rows);
  return typed(
    names,
    names.map((n) => order.map((r) => ((byLabel.get(r) as PyDict).has(n) ? ((byLabel.get(r) as PyDict).get(n) as PyValue) : Number.NaN))),
  );
}

function fromSplit(data: PyValue): Frame {
  if (!isDict(data)) throw failed('orient "split" needs a JSON object with "columns", "data" and "index"');
  const unexpected = [...data.keys()].filter((k) => !["columns", "index", "data"].includes(k));
  if (unexpected.length > 0) throw failed(`JSON data had unexpected key(s): ${unexpected.join(", ")}`);
  const columns = data.get("columns") ?? null;
  const rows = data.get("data") ?? null;
  const index = data.get("index") ?? null;
  if (columns !== null && !Array.isArray(columns)) throw failed('orient "split": "columns" must be a list');
  if (rows !== null && !Array.isArray(rows)) throw failed('orient "split": "data" must be a list of rows');
  if (index !== null && !Array.isArray(index)) throw failed('orient "split": "index" must be a list');
  if (rows === null) {
    const length = index?.length ?? 0;
    return { labels: (columns ?? []).map(labelOf), cols: (columns ?? []).map(() => inferObjects(Array(length).fill(Number.NaN))) };
  }
  const frame = fromList(rows, columns ?? undefined);
  if (index && index.length !== rows.length) {
    throw failed(
      `Shape of passed values is (${rows.length}, ${frame.labels.length}), indices imply (${index.length}, ${frame.labels.length})`,
    );
  }
  return frame;
}

const TABLE_TYPES: Record<string, string> = {
  string: "object",
  integer: "int64",
  number: "float64",
  boolean: "bool",
  datetime: "datetime64",
};

/** orient="table": the rows of "data", each field cast to its schema type; the primaryKey fields become the index. */
function fromTable(data: PyValue): Frame {
  const schema = isDict(data) ? data.get("schema") : undefined;
  const fields = isDict(schema) ? schema.get("fields") : undefined;
  const rows = isDict(data) ? data.get("data") : undefined;
  if (!Array.isArray(fields) || !fields.every(isDict) || !Array.isArray(rows)) {
    throw failed('orient "table" needs {"schema": {"fields": [...]}, "data": [...]}, as DataFrame.to_json(orient="table") writes');
  }
  const names = (fields as PyDict[]).map((f) => f.get("name") ?? null);
  const frame = rows.length === 0 ? fromList([], names) : fromList(rows, names);
  for (const [i, field] of (fields as PyDict[]).entries()) {
    const type = String(field.get("type"));
    const constraints = field.get("constraints");
    let target =
      TABLE_TYPES[type] ?? (type === "any" ? (isDict(constraints) && constraints.has("enum") ? "category" : "object") : undefined);
    if (type === "duration") throw failed('table="orient" can not yet read ISO-formatted Timedelta data');
    if (!target) throw failed(`Unsupported or invalid field type: ${type}`);
    if (type === "datetime" && field.get("tz") !== undefined && field.get("tz") !== "UTC") {
      throw failed(`table field "${String(names[i])}": time zone ${String(field.get("tz"))} is not supported (UTC is)`);
    }
    if (type === "datetime" && field.get("freq") !== undefined) target = "object";
    const cast = astype(frame.cols[i] as Col, target);
    if (!cast) throw failed(`table field "${String(names[i])}" cannot be read as ${target}`, { column: String(names[i]) });
    frame.cols[i] = cast.kind === "datetime" && field.get("tz") === "UTC" ? { ...cast, tz: "UTC" } : cast;
  }
  const keyField = isDict(schema) ? schema.get("primaryKey") : undefined;
  const keys = Array.isArray(keyField) ? keyField : keyField === undefined || keyField === null ? [] : [keyField];
  const drop = new Set<number>();
  for (const key of keys) {
    const at = frame.labels.indexOf(key as Label);
    if (at < 0) throw failed(`primaryKey names "${String(key)}", which is not a field`);
    drop.add(at);
  }
  return { labels: frame.labels.filter((_, i) => !drop.has(i)), cols: frame.cols.filter((_, i) => !drop.has(i)) };
}

function labelOf(v: PyValue): Label {
  if (typeof v === "string" || typeof v === "bigint" || typeof v === "number") return v;
  return labelText(v);
}

function labelText(v: PyValue): string {
  return typeof v === "string"
    ? v
    : JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? x.toString() : x instanceof Map ? Object.fromEntries(x) : x));
}

/** The frame pandas' FrameParser builds for an orient (None, records, columns and values all call DataFrame(data)). */
export function constructFrame(data: PyValue, orient: Orient | undefined): Frame {
  if (orient === "split") return fromSplit(data);
  if (orient === "index") return fromIndex(data);
  if (orient === "table") return fromTable(data);
  if (Array.isArray(data)) return fromList(data);
  if (isDict(data)) return fromDict(data);
  throw failed("DataFrame constructor not properly called! (the JSON document is a single value, not a table)");
}
