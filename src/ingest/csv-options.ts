// pandas' read_csv options (spec 4.3) checked and mapped onto the polars reader and our post-steps.
import { AppError } from "../errors/app-error.ts";
import { type DtypeHints, readDtypeHints } from "./dtype-hints.ts";
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

/** pandas' default missing-value markers (read_csv's STR_NA_VALUES). */
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
  "None",
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
  sep: string;
  quoteChar: string | undefined;
  eolChar: string | undefined;
  /** Row index of the header, or null for none. */
  header: number | null;
  skipRows: number;
  nRows: number | undefined;
  skipFooter: number;
  commentPrefix: string | undefined;
  /** Markers polars itself turns into nulls (undefined: its default, the empty field). */
  nullValues: string[] | undefined;
  perColumnNull: Record<string, string[]> | undefined;
  /** Apply pandas' default markers ("NA", "null", "NaN"...) to text columns after reading. */
  pandasMissing: boolean;
  decimalComma: boolean;
  thousands: string | undefined;
  trueValues: string[];
  falseValues: string[];
  parseDates: boolean | string[] | number[];
  names: string[] | undefined;
  prefix: string | undefined;
  usecols: string[] | number[] | undefined;
  encoding: CsvEncoding;
  dtypes: DtypeHints | undefined;
};

const refuse = (key: string, why: string) =>
  new AppError("INVALID_INPUT", `parser_options.${key}: ${why}`, { details: { field: `parser_options.${key}` } });

function headerOf(options: Options): number | null {
  const v = options.header;
  if (v === undefined || v === "infer" || v === 0) return 0;
  if (v === null || v === false || v === "none" || v === "None") return null;
  if (typeof v === "number" && Number.isInteger(v) && v > 0) return v;
  throw refuse("header", 'must be "infer", a row number, or null for no header row');
}

function naOf(options: Options): Pick<CsvPlan, "nullValues" | "perColumnNull" | "pandasMissing"> {
  const filter = bool(options, "na_filter") ?? true;
  const keepDefault = bool(options, "keep_default_na") ?? true;
  if (!filter) return { nullValues: [], perColumnNull: undefined, pandasMissing: false };
  const raw = options.na_values;
  // pandas' own markers are applied to text columns after the read: handing polars the whole list
  // makes it compare every field with each of them, which costs more than the read itself.
  if (raw && typeof raw === "object" && !Array.isArray(raw)) {
    const perColumnNull = Object.fromEntries(
      Object.entries(raw as Record<string, unknown>).map(([column, values]) => [
        column,
        (Array.isArray(values) ? values : [values]).map(String),
      ]),
    );
    return { nullValues: keepDefault ? undefined : [], perColumnNull, pandasMissing: keepDefault };
  }
  const extra = strings(options, "na_values") ?? [];
  if (keepDefault) return { nullValues: extra.length > 0 ? ["", ...extra] : undefined, perColumnNull: undefined, pandasMissing: true };
  // With keep_default_na=false only the given markers mean missing, not even the empty field.
  return { nullValues: extra, perColumnNull: undefined, pandasMissing: false };
}

/** Checks every option and plans the read; an option that cannot be honoured is refused by name. */
export function planCsv(options: Options, compression: string): CsvPlan {
  refuseUnknown(options, CSV_OPTIONS, "csv");
  if (bool(options, "delim_whitespace")) throw refuse("delim_whitespace", "is not supported; pass sep=' ' for single spaces");
  if (bool(options, "skipinitialspace")) throw refuse("skipinitialspace", "is not supported");
  if (bool(options, "doublequote") === false) throw refuse("doublequote", "false is not supported (doubled quotes always mean one quote)");
  if (bool(options, "mangle_dupe_cols") === false)
    throw refuse("mangle_dupe_cols", "false is not supported (duplicate names are always made unique)");
  if (bool(options, "skip_blank_lines") === false)
    throw refuse("skip_blank_lines", "false is not supported (blank lines are always skipped)");
  if (options.byte_range !== undefined) throw refuse("byte_range", "is not supported for files; upload the range you want");
  const declared = oneOf(options, "compression", ["infer", "gzip", "zip", "bz2", "xz", "none"] as const);
  if (declared && declared !== "infer" && declared !== (compression || "none")) {
    throw refuse("compression", `says "${declared}" but file_compression is "${compression}"`);
  }
  const quoting = int(options, "quoting");
  if (quoting !== undefined && quoting !== 0 && quoting !== 3)
    throw refuse("quoting", "only 0 (QUOTE_MINIMAL) and 3 (QUOTE_NONE) apply to reading");
  const sep = char(options, "sep") ?? char(options, "delimiter") ?? ",";
  const decimal = str(options, "decimal") ?? ".";
  if (decimal !== "." && decimal !== ",") throw refuse("decimal", 'must be "." or ","');
  if (decimal === "," && sep === ",") throw refuse("decimal", 'cannot be "," when the separator is ","');
  const encodingName = (str(options, "encoding") ?? "utf-8").toLowerCase();
  const encoding = ENCODINGS[encodingName];
  if (!encoding) throw refuse("encoding", `"${encodingName}" is not supported (use utf-8, latin-1, cp1252 or utf-16)`);
  const parseDates = options.parse_dates === true ? true : (columnRefs(options, "parse_dates") ?? false);
  return {
    sep,
    quoteChar: quoting === 3 ? undefined : (char(options, "quotechar") ?? '"'),
    eolChar: char(options, "lineterminator"),
    header: headerOf(options),
    skipRows: int(options, "skiprows") ?? 0,
    nRows: int(options, "nrows", 0),
    skipFooter: int(options, "skipfooter") ?? 0,
    commentPrefix: char(options, "comment"),
    ...naOf(options),
    decimalComma: decimal === ",",
    thousands: char(options, "thousands"),
    trueValues: strings(options, "true_values") ?? [],
    falseValues: strings(options, "false_values") ?? [],
    parseDates,
    names: strings(options, "names"),
    prefix: str(options, "prefix"),
    usecols: columnRefs(options, "usecols"),
    encoding,
    dtypes: readDtypeHints(options.dtype),
  };
}
