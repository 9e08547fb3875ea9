// Reads JSON tables as pandas.read_json (pandas 1.5) reads them: every orient, lines, dtype (True infers),
// convert_dates and keep_default_dates; integers exact to uint64, floats as pandas' decoder computes them.
import { readFile, stat } from "node:fs/promises";
import pl from "nodejs-polars";
import { AppError } from "../errors/app-error.ts";
import { type Col, isMissing, pyStr, UNSUPPORTED_DTYPE } from "./json-columns.ts";
import { convertFrame, DATE_UNITS, type DateUnit, type DtypeOption, isNested, labelName } from "./json-convert.ts";
import { decodeJson, JsonDecodeError, type PyValue } from "./json-decode.ts";
import { constructFrame, failed, ORIENTS } from "./json-frame.ts";
import { bool, int, type Options, oneOf, refuseUnknown } from "./option-readers.ts";
import { checkColumns, DEFAULT_TABLE_LIMITS, overLimit, type TableLimits } from "./table-limits.ts";

export const JSON_OPTIONS = [
  "orient",
  "lines",
  "dtype",
  "compression",
  "convert_dates",
  "keep_default_dates",
  "convert_axes",
  "date_unit",
  "precise_float",
  "nrows",
] as const;

const invalid = (key: string, message: string) =>
  new AppError("INVALID_INPUT", `parser_options.${key}: ${message}`, { details: { field: `parser_options.${key}` } });

/** Checks json parser_options (before any data arrives, and again when reading), refusing what pandas refuses. */
export function checkJsonOptions(options: Options) {
  refuseUnknown(options, JSON_OPTIONS, "json");
  const orient = oneOf(options, "orient", ORIENTS);
  const lines = bool(options, "lines") ?? false;
  const keepDefaultDates = bool(options, "keep_default_dates") ?? true;
  const dates = options.convert_dates ?? true;
  if (typeof dates !== "boolean" && !(Array.isArray(dates) && dates.every((d) => typeof d === "string"))) {
    throw invalid("convert_dates", "must be true, false or a list of column names");
  }
  const dtype = options.dtype as DtypeOption;
  const names = typeof dtype === "string" ? [dtype] : dtype && typeof dtype === "object" ? Object.values(dtype) : [];
  const unsupported = names.find((n) => typeof n === "string" && UNSUPPORTED_DTYPE.test(n));
  if (unsupported) throw invalid("dtype", `"${unsupported}" (a pandas extension type) is not supported for json uploads`);
  const truthy = Boolean(dtype) && !(typeof dtype === "object" && Object.keys(dtype as object).length === 0);
  const convertAxes = bool(options, "convert_axes");
  const dateUnit = options.date_unit ?? undefined;
  const nrows = int(options, "nrows");
  // pandas.read_json's own refusals, in its words.
  if (orient === "table" && truthy) throw invalid("dtype", "cannot pass both dtype and orient='table'");
  if (orient === "table" && convertAxes) throw invalid("convert_axes", "cannot pass both convert_axes and orient='table'");
  if (dateUnit !== undefined && !DATE_UNITS.includes(String(dateUnit).toLowerCase() as DateUnit)) {
    throw invalid("date_unit", "date_unit must be one of ('s', 'ms', 'us', 'ns')");
  }
  if (nrows !== undefined && !lines) throw invalid("nrows", "nrows can only be passed if lines=True");
  return {
    orient,
    lines,
    // nrows=0 reads every line, as pandas does (it tests the number's truth).
    nrows: nrows || undefined,
    preciseFloat: bool(options, "precise_float") ?? false,
    dtype: dtype === undefined || dtype === null ? (orient === "table" ? undefined : true) : dtype,
    convertDates: dates as boolean | string[],
    keepDefaultDates,
    convertAxes: convertAxes ?? orient !== "table",
    dateUnit: dateUnit === undefined ? undefined : (String(dateUnit).toLowerCase() as DateUnit),
  };
}

function decode(text: string, lines: boolean, nrows: number | undefined, preciseFloat: boolean, limits: TableLimits): PyValue {
  // pandas: with lines=True, the non-blank lines (of the first nrows) are joined into one JSON array.
  const source = lines
    ? `[${text
        .split("\n")
        .slice(0, nrows)
        .map((l) => l.trim())
        .filter(Boolean)
        .join(",")}]`
    : text;
  try {
    // Each line of lines=true is one level deeper, inside the array they are joined into.
    return decodeJson(source, preciseFloat, limits.maxNestingDepth + (lines ? 1 : 0));
  } catch (error) {
    if (!(error instanceof JsonDecodeError)) throw error;
    if (error.depthLimit !== undefined) {
      const limit = limits.maxNestingDepth;
      throw overLimit(`the JSON nests arrays and objects more than ${limit} deep`, "PARSE_MAX_NESTING_DEPTH", limit, { format: "json" });
    }
    const hint = !lines && error.message === "Trailing data" ? " (one JSON value per line? set lines to true)" : "";
    throw failed(`invalid JSON: ${error.message}${hint}`, lines ? {} : { byteOffset: Buffer.byteLength(source.slice(0, error.offset)) });
  }
}

const SIZES: Record<string, pl.DataType> = {
  int8: pl.Int8,
  int16: pl.Int16,
  int32: pl.Int32,
  int64: pl.Int64,
  uint8: pl.UInt8,
  uint16: pl.UInt16,
  uint32: pl.UInt32,
  uint64: pl.UInt64,
};

/** Exact integers: polars reads them from their decimal text. */
const intSeries = (name: string, values: (bigint | null)[], type: pl.DataType) =>
  pl
    .Series(
      name,
      values.map((v) => (v === null ? null : v.toString())),
      pl.Utf8,
    )
    .cast(type, true);

/** One column as Arrow stores it (pyarrow's from_pandas): NaN and None are missing; objects of one kind keep that kind. */
function seriesOf(name: string, col: Col): pl.Series {
  switch (col.kind) {
    case "int":
      return intSeries(name, col.v, SIZES[col.dtype] ?? pl.Int64);
    case "float":
      return pl.Series(
        name,
        col.v.map((v) => (Number.isNaN(v) ? null : v)),
        col.dtype === "float32" ? pl.Float32 : pl.Float64,
      );
    case "bool":
      return pl.Series(name, col.v, pl.Bool);
    case "datetime":
      return intSeries(name, col.v, pl.Int64).cast(pl.Datetime("ns", col.tz ?? undefined));
    default: {
      const present = col.v.filter((v) => !isMissing(v));
      const values = col.v.map((v) => (isMissing(v) ? null : v));
      let series: pl.Series;
      if (present.every((v) => typeof v === "string")) series = pl.Series(name, values, pl.Utf8);
      else if (present.every((v) => typeof v === "boolean")) series = pl.Series(name, values, pl.Bool);
      else if (present.every((v) => typeof v === "bigint")) series = intSeries(name, values as (bigint | null)[], pl.Int64);
      else if (present.every((v) => typeof v === "number")) series = pl.Series(name, values, pl.Float64);
      // Mixed or nested objects are kept as text: scalars as Python's str() writes them, lists and objects as JSON.
      else
        series = pl.Series(
          name,
          values.map((v) => (v === null ? null : isNested(v) ? jsonText(v) : pyStr(v))),
          pl.Utf8,
        );
      return col.kind === "category" && ["String", "Utf8"].includes(series.dtype.variant) ? series.cast(pl.Categorical) : series;
    }
  }
}

/** JSON text of a nested value, integers exact (Python's json.dumps of the value, compact). */
function jsonText(v: PyValue): string {
  if (v === null) return "null";
  if (typeof v === "bigint" || typeof v === "boolean") return String(v);
  if (typeof v === "number") return Number.isFinite(v) ? String(v) : Number.isNaN(v) ? "NaN" : v > 0 ? "Infinity" : "-Infinity";
  if (typeof v === "string") return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(jsonText).join(",")}]`;
  return `{${[...v].map(([k, x]) => `${JSON.stringify(k)}:${jsonText(x)}`).join(",")}}`;
}

/** JavaScript strings hold at most about 2^29 characters: larger JSON cannot be decoded whole. */
const MAX_JSON_BYTES = 512 * 1024 * 1024;

/** The file as UTF-8 text (pandas' default encoding): bytes that are not UTF-8 are refused, a leading BOM is dropped. */
async function readText(file: string): Promise<string> {
  if ((await stat(file)).size > MAX_JSON_BYTES) {
    throw failed("JSON larger than 512 MiB cannot be read whole; upload it as CSV, Parquet or Arrow, or split it");
  }
  const bytes = await readFile(file);
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    const at = firstInvalidUtf8(bytes);
    throw failed(`the JSON is not UTF-8 (byte ${at} is not part of a UTF-8 character)`, { byteOffset: at });
  }
}

/** Where UTF-8 decoding fails: the first byte that does not start a well-formed character. */
function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const c = bytes[i] as number;
    const more = c < 0x80 ? 0 : c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2 : c >= 0xf0 && c <= 0xf4 ? 3 : -1;
    if (more < 0) return i;
    // The second byte's range excludes overlong forms, surrogates and code points past U+10FFFF.
    const [lo, hi] =
      c === 0xe0 ? [0xa0, 0xbf] : c === 0xed ? [0x80, 0x9f] : c === 0xf0 ? [0x90, 0xbf] : c === 0xf4 ? [0x80, 0x8f] : [0x80, 0xbf];
    for (let k = 1; k <= more; k += 1) {
      const b = bytes[i + k];
      if (b === undefined || b < (k === 1 ? lo : 0x80) || b > (k === 1 ? hi : 0xbf)) return i;
    }
    i += more + 1;
  }
  return bytes.length;
}

/**
 * The table read_json gives, and its `category` columns: polars holds categories of text only, so the others
 * are stored with their values' type and encoded as dictionaries once written (dictionary-columns.ts).
 */
export async function readJson(
  file: string,
  options: Options,
  limits: TableLimits = DEFAULT_TABLE_LIMITS,
): Promise<{ frame: pl.DataFrame; categories: string[] }> {
  const read = checkJsonOptions(options);
  const text = await readText(file);
  if (text.trim() === "") throw failed("the JSON file is empty (pandas: Expected object or value)");
  const constructed = constructFrame(decode(text, read.lines, read.nrows, read.preciseFloat, limits), read.orient);
  // Before the columns are converted: each costs milliseconds, and a 2.6 MB file can hold 200,000 of them.
  checkColumns(constructed.labels.map(labelName), limits);
  const frame = convertFrame(constructed, read);
  const names = frame.labels.map(labelName);
  const repeated = names.find((n, i) => names.indexOf(n) !== i);
  if (repeated !== undefined) throw failed(`two columns are named "${repeated}" once pandas has read their labels`, { column: repeated });
  return {
    frame: pl.DataFrame(frame.cols.map((col, i) => seriesOf(names[i] as string, col))),
    categories: names.filter((_, i) => frame.cols[i]?.kind === "category"),
  };
}
