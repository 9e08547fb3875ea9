// Reads JSON tables: records, column arrays (as the JS client sends them), JSON lines, and pandas' orients.
import { open, readFile } from "node:fs/promises";
import pl from "nodejs-polars";
import { AppError } from "../errors/app-error.ts";
import { applyDtypeHints, readDtypeHints } from "./dtype-hints.ts";
import { bool, type Options, oneOf, refuseUnknown } from "./option-readers.ts";
import { seriesOf } from "./series.ts";

export const JSON_OPTIONS = ["orient", "lines", "dtype", "compression"] as const;
const ORIENTS = ["records", "columns", "index", "split", "values", "table"] as const;
type Orient = (typeof ORIENTS)[number];

/** Keys @graphistry/js-upload-api adds to a JSON body of columns; they are not data. */
const CLIENT_KEYS = ["agent_name", "agent_version"];

const failed = (message: string, details: Record<string, unknown> = {}) =>
  new AppError("PARSE_FAILED", message, { details: { format: "json", ...details } });

async function firstChar(file: string): Promise<string> {
  const handle = await open(file, "r");
  try {
    const head = Buffer.alloc(4096);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return (
      /\S/.exec(
        head
          .subarray(0, bytesRead)
          .toString("utf8")
          .replace(/^\uFEFF/, ""),
      )?.[0] ?? ""
    );
  } finally {
    await handle.close();
  }
}

function fromRecords(records: unknown[]): pl.DataFrame {
  if (records.length === 0) return pl.DataFrame({});
  if (records.every((r) => Array.isArray(r))) return fromValues(records as unknown[][]);
  const bad = records.findIndex((r) => r === null || typeof r !== "object" || Array.isArray(r));
  if (bad >= 0) throw failed(`record ${bad} is not a JSON object`, { row: bad });
  const names = [...new Set((records as Record<string, unknown>[]).flatMap((r) => Object.keys(r)))];
  return pl.DataFrame(
    names.map((name) =>
      seriesOf(
        name,
        (records as Record<string, unknown>[]).map((r) => r[name]),
      ),
    ),
  );
}

function fromValues(rows: unknown[][]): pl.DataFrame {
  const width = Math.max(0, ...rows.map((r) => r.length));
  const columns: Record<string, unknown[]> = {};
  for (let c = 0; c < width; c += 1) columns[String(c)] = rows.map((r) => r[c] ?? null);
  return fromColumns(columns);
}

function fromColumns(columns: Record<string, unknown>): pl.DataFrame {
  const entries = Object.entries(columns).filter(([key, value]) => !(CLIENT_KEYS.includes(key) && !Array.isArray(value)));
  let length: number | undefined;
  for (const [name, values] of entries) {
    if (!Array.isArray(values)) throw failed(`"${name}" is not an array: an object of columns needs an array per column`, { column: name });
    length ??= values.length;
    if (values.length !== length)
      throw failed(`column "${name}" has ${values.length} values but the first column has ${length}`, { column: name });
  }
  const series = entries.map(([name, values]) => seriesOf(name, values as unknown[]));
  return pl.DataFrame(series);
}

/** pandas' orient="columns"/"index": an object of objects keyed by row (or column) labels. */
function fromNested(data: Record<string, unknown>, orient: "columns" | "index"): pl.DataFrame {
  const outer = Object.entries(data);
  if (orient === "columns") {
    const labels = [...new Set(outer.flatMap(([, inner]) => Object.keys((inner ?? {}) as object)))];
    const columns: Record<string, unknown[]> = {};
    for (const [column, inner] of outer) columns[column] = labels.map((label) => (inner as Record<string, unknown>)[label] ?? null);
    return fromColumns(columns);
  }
  return fromRecords(outer.map(([label, row]) => ({ index: label, ...(row as object) })));
}

function fromObject(data: Record<string, unknown>, orient: Orient | undefined): pl.DataFrame {
  if (orient === "split" || (!orient && Array.isArray(data.columns) && Array.isArray(data.data))) {
    const columns = (data.columns as unknown[]).map(String);
    return fromColumns(Object.fromEntries(columns.map((c, i) => [c, (data.data as unknown[][]).map((row) => row?.[i] ?? null)])));
  }
  if (orient === "table" || (!orient && data.schema && Array.isArray(data.data))) return fromRecords(data.data as unknown[]);
  if (orient === "columns" || orient === "index") return fromNested(data, orient);
  const values = Object.entries(data).filter(([key]) => !CLIENT_KEYS.includes(key));
  if (values.length > 0 && values.every(([, v]) => Array.isArray(v))) return fromColumns(data);
  if (values.length > 0 && values.every(([, v]) => v !== null && typeof v === "object" && !Array.isArray(v)))
    return fromNested(data, "columns");
  throw failed("the JSON object is not a table: expected an array of records, an object of column arrays, or JSON lines");
}

function readLines(file: string): pl.DataFrame {
  try {
    // nodejs-polars' readJSON cannot take a path for JSON lines; the scanner can.
    return pl.scanJson(file, { inferSchemaLength: null }).collectSync();
  } catch (error) {
    throw failed(`JSON lines could not be parsed: ${(error as Error).message.split("\n")[0]}`);
  }
}

export async function readJson(file: string, options: Options): Promise<pl.DataFrame> {
  refuseUnknown(options, JSON_OPTIONS, "json");
  const orient = oneOf(options, "orient", ORIENTS);
  const lines = bool(options, "lines");
  const dtypes = readDtypeHints(options.dtype);
  if (lines) return applyDtypeHints(readLines(file), dtypes);
  const first = await firstChar(file);
  if (first === "") throw failed("the JSON file is empty");
  if (first === "[" && (!orient || orient === "records")) {
    try {
      // The fast path: polars reads an array of flat records natively.
      return applyDtypeHints(pl.readJSON(file, { format: "json", inferSchemaLength: null }), dtypes);
    } catch {
      // Arrays of arrays, nested values or mixed types: the general path below.
    }
  }
  const text = (await readFile(file, "utf8")).replace(/^\uFEFF/, "");
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    // One object per line without lines=true: read it as JSON lines, as a user would mean.
    if (first === "{" && /\}\s*\r?\n\s*\{/.test(text.slice(0, 1 << 20))) return applyDtypeHints(readLines(file), dtypes);
    const message = (error as Error).message;
    const at = /position (\d+)/.exec(message)?.[1];
    throw failed(`invalid JSON: ${message}`, at ? { byteOffset: Number(at) } : {});
  }
  const frame = Array.isArray(parsed)
    ? orient === "values"
      ? fromValues(parsed as unknown[][])
      : fromRecords(parsed)
    : parsed !== null && typeof parsed === "object"
      ? fromObject(parsed as Record<string, unknown>, orient)
      : (() => {
          throw failed("the JSON document is a single value, not a table");
        })();
  return applyDtypeHints(frame, dtypes);
}
