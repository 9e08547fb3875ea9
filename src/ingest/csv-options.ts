// pandas' read_csv options (spec 4.3) checked and planned: the tokenizer's settings and the table steps (csv-table.ts).
import { AppError } from "../errors/app-error.ts";
import { csvHintName } from "./csv-infer.ts";
import type { NaPlan, TablePlan } from "./csv-table.ts";
import type { TokenizeOptions } from "./csv-tokenize.ts";
import { bool, char, columnRefs, int, type Options, oneOf, refuseUnknown, str, strings } from "./option-readers.ts";

export const CSV_OPTIONS = [
  "sep",
  "delimiter",
  "delim_whitespace",
  "lineterminator",
  "skipinitialspace",
  "names",
  "dtype",
  "quotechar",
  "quoting",
  "doublequote",
  "encoding",
  "header",
  "usecols",
  "mangle_dupe_cols",
  "skiprows",
  "skipfooter",
  "compression",
  "decimal",
  "thousands",
  "true_values",
  "false_values",
  "nrows",
  "skip_blank_lines",
  "parse_dates",
  "comment",
  "na_values",
  "keep_default_na",
  "na_filter",
  "prefix",
  "byte_range",
] as const;

/** pandas 1.5's default missing-value markers (read_csv's STR_NA_VALUES; "None" joined them in pandas 2.0). */
export const PANDAS_NA_VALUES = [
  "",
  "#N/A",
  "#N/A N/A",
  "#NA",
  "-1.#IND",
  "-1.#QNAN",
  "-NaN",
  "-nan",
  "1.#IND",
  "1.#QNAN",
  "<NA>",
  "N/A",
  "NA",
  "NULL",
  "NaN",
  "n/a",
  "nan",
  "null",
];

export type CsvEncoding = "utf-8" | "latin-1" | "windows-1252" | "utf-16le" | "utf-16be" | "utf-16";

const ENCODINGS: Record<string, CsvEncoding> = {
  "utf-8": "utf-8",
  utf8: "utf-8",
  "utf-8-sig": "utf-8",
  "latin-1": "latin-1",
  latin1: "latin-1",
  "iso-8859-1": "latin-1",
  l1: "latin-1",
  cp1252: "windows-1252",
  "windows-1252": "windows-1252",
  "utf-16": "utf-16",
  utf16: "utf-16",
  "utf-16le": "utf-16le",
  "utf-16be": "utf-16be",
};

export type CsvPlan = {
  tokenize: TokenizeOptions;
  table: TablePlan;
  encoding: CsvEncoding;
  /** cudf's byte_range: [offset, size] of the rows to read (a row is read when it starts in the range). */
  byteRange: [number, number] | undefined;
};

const refuse = (key: string, why: string) =>
  new AppError("INVALID_INPUT", `parser_options.${key}: ${why}`, { details: { field: `parser_options.${key}` } });

function headerOf(options: Options, names: string[] | undefined): number | null {
  const v = options.header;
  // pandas: header defaults to "infer", which means none when names are given.
  if (v === undefined || v === "infer") return names ? null : 0;
  if (v === null || v === false || v === "none" || v === "None") return null;
  if (typeof v === "number" && Number.isInteger(v) && v >= 0) return v;
  throw refuse("header", 'must be "infer", a row number, or null for no header row');
}

/** pandas' na_values forms: numbers also match "-1.0" and, in numeric columns, any text that parses to them. */
function markerForms(values: unknown[]): { text: string[]; numbers: number[] } {
  const text: string[] = [];
  const numbers: number[] = [];
  for (const value of values) {
    text.push(String(value));
    const n = typeof value === "number" ? value : Number.NaN;
    if (Number.isFinite(n)) {
      numbers.push(n);
      if (Number.isInteger(n)) text.push(`${n}.0`);
    }
  }
  return { text, numbers };
}

function naOf(options: Options): NaPlan {
  const filter = bool(options, "na_filter") ?? true;
  const keepDefault = bool(options, "keep_default_na") ?? true;
  const base = keepDefault ? PANDAS_NA_VALUES : [];
  const raw = options.na_values;
  if (!filter) return { filter: false, markers: new Set(), perColumn: {}, numbers: new Set() };
  if (raw && typeof raw === "object" && !Array.isArray(raw)) {
    const perColumn: Record<string, Set<string>> = {};
    const numbers = new Set<number>();
    for (const [column, values] of Object.entries(raw as Record<string, unknown>)) {
      const forms = markerForms(Array.isArray(values) ? values : [values]);
      perColumn[column] = new Set([...base, ...forms.text]);
      for (const n of forms.numbers) numbers.add(n);
    }
    return { filter, markers: new Set(base), perColumn, numbers };
  }
  if (raw !== undefined && raw !== null && typeof raw !== "string" && typeof raw !== "number" && !Array.isArray(raw)) {
    throw refuse("na_values", "must be a value, a list of values, or an object of column to values");
  }
  const forms = markerForms(raw === undefined || raw === null ? [] : Array.isArray(raw) ? raw : [raw]);
  return { filter, markers: new Set([...base, ...forms.text]), perColumn: {}, numbers: new Set(forms.numbers) };
}

const DATETIME_HINT = /^datetime64/i;

/** One dtype name for read_csv: pandas' own refusals come with pandas' reason. */
function hintName(raw: unknown, field: string): string {
  if (typeof raw !== "string") throw refuse(field, "must be a dtype name");
  if (DATETIME_HINT.test(raw.trim())) {
    throw refuse(
      field,
      /,/.test(raw)
        ? `pandas cannot parse text into "${raw}" (NotImplementedError: DatetimeArray must implement _from_sequence_of_strings); pass the column in parse_dates instead`
        : `the dtype ${raw.trim()} is not supported for parsing, pass this column using parse_dates instead (pandas' TypeError)`,
    );
  }
  const name = csvHintName(raw);
  if (!name) throw refuse(field, `data type '${raw}' not understood`);
  return name;
}

/** dtype: one name, an object of column to name, or (as cudf takes it) a list of names in column order. */
function hintsOf(value: unknown): TablePlan["hints"] {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") return { all: hintName(value, "dtype") };
  if (Array.isArray(value)) return { byPosition: value.map((v, i) => hintName(v, `dtype.${i}`)) };
  if (typeof value === "object") {
    return {
      byColumn: Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([c, v]) => [c, hintName(v, `dtype.${c}`)])),
    };
  }
  throw refuse("dtype", "must be a dtype name, an object of column to dtype name, or a list of dtype names in column order");
}

function byteRangeOf(options: Options): [number, number] | undefined {
  const v = options.byte_range;
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || v.length !== 2 || !v.every((x) => typeof x === "number" && Number.isInteger(x) && x >= 0)) {
    throw refuse("byte_range", "must be [offset, size], two integers >= 0");
  }
  return [v[0] as number, v[1] as number];
}

function sepOf(options: Options): string {
  const whitespace = bool(options, "delim_whitespace") ?? false;
  if (options.sep !== undefined && options.sep !== null && options.delimiter !== undefined && options.delimiter !== null) {
    throw refuse("delimiter", "Specified a sep and a delimiter; you can only specify one. (as in pandas)");
  }
  const given = str(options, "sep") ?? str(options, "delimiter");
  if (whitespace && given !== undefined) {
    throw refuse("delim_whitespace", "Specified a delimiter with both sep and delim_whitespace=True; you can only specify one.");
  }
  if (whitespace || given === "\\s+") return "whitespace";
  if (given === undefined) return ",";
  if ([...given].length !== 1) throw refuse(options.sep !== undefined ? "sep" : "delimiter", 'must be a single character (or "\\s+")');
  return given;
}

/** Checks every option and plans the read; an option that cannot be honoured is refused by name. */
export function planCsv(options: Options, compression: string): CsvPlan {
  refuseUnknown(options, CSV_OPTIONS, "csv");
  if (bool(options, "mangle_dupe_cols") === false)
    throw refuse("mangle_dupe_cols", "Setting mangle_dupe_cols=False is not supported yet (as in pandas)");
  const declared = oneOf(options, "compression", ["infer", "gzip", "zip", "bz2", "xz", "none"] as const);
  if (declared && declared !== "infer" && declared !== (compression || "none")) {
    throw refuse("compression", `says "${declared}" but file_compression is "${compression}"`);
  }
  const quoting = int(options, "quoting");
  if (quoting !== undefined && quoting > 3)
    throw refuse("quoting", "must be 0 (QUOTE_MINIMAL), 1 (QUOTE_ALL), 2 (QUOTE_NONNUMERIC) or 3 (QUOTE_NONE)");
  const sep = sepOf(options);
  const decimal = str(options, "decimal") ?? ".";
  if (decimal !== "." && decimal !== ",") throw refuse("decimal", 'must be "." or ","');
  const thousands = char(options, "thousands");
  const encodingName = (str(options, "encoding") ?? "utf-8").toLowerCase();
  const encoding = ENCODINGS[encodingName];
  if (!encoding) throw refuse("encoding", `"${encodingName}" is not supported (use utf-8, latin-1, cp1252 or utf-16)`);
  const nRows = int(options, "nrows", 0);
  const skipFooter = int(options, "skipfooter") ?? 0;
  if (skipFooter > 0 && nRows !== undefined) throw refuse("skipfooter", "'skipfooter' not supported with 'nrows' (as in pandas)");
  const names = strings(options, "names");
  if (names && new Set(names).size !== names.length) throw refuse("names", "Duplicate names are not allowed.");
  // parse_dates=True parses the index in pandas; tables here have none, so it changes nothing.
  const parseDates = options.parse_dates === true || options.parse_dates === false ? false : (columnRefs(options, "parse_dates") ?? false);
  const header = headerOf(options, names);
  const range = byteRangeOf(options);
  if (range && range[0] > 0 && header !== null) {
    throw refuse(
      "byte_range",
      "an offset past 0 with a header row is not supported (cudf: byte_range offset with header not supported); pass header=None and names",
    );
  }
  return {
    tokenize: {
      sep,
      quote: quoting === 3 ? undefined : (char(options, "quotechar") ?? '"'),
      doublequote: bool(options, "doublequote") ?? true,
      skipInitialSpace: bool(options, "skipinitialspace") ?? false,
      eol: char(options, "lineterminator"),
      comment: char(options, "comment"),
      skipBlankLines: bool(options, "skip_blank_lines") ?? true,
    },
    table: {
      header,
      names,
      prefix: str(options, "prefix"),
      usecols: columnRefs(options, "usecols"),
      skipRows: int(options, "skiprows") ?? 0,
      nRows,
      skipFooter,
      na: naOf(options),
      format: {
        thousands,
        decimalComma: decimal === ",",
        trueValues: strings(options, "true_values") ?? [],
        falseValues: strings(options, "false_values") ?? [],
        // QUOTE_NONNUMERIC: pandas reads the numbers of unquoted fields as floats.
        floatsOnly: quoting === 2,
      },
      parseDates,
      hints: hintsOf(options.dtype),
    },
    encoding,
    byteRange: range,
  };
}
