// Tokenized CSV records into a typed frame, step by step as pandas' read_csv takes them: header and names,
// the implicit index, field counts, usecols, nrows and skipfooter, missing markers, parse_dates, dtype, inference.
import pl from "nodejs-polars";
import { AppError } from "../errors/app-error.ts";
import { parseDateColumn } from "./csv-dates.ts";
import { hintedColumn, inferColumn, type NumberFormat } from "./csv-infer.ts";

export type TablePlan = {
  header: number | null;
  names: string[] | undefined;
  prefix: string | undefined;
  usecols: string[] | number[] | undefined;
  skipRows: number;
  nRows: number | undefined;
  skipFooter: number;
  na: NaPlan;
  format: NumberFormat;
  parseDates: boolean | string[] | number[];
  /** dtype hints as pandas names (checked by csv-options.ts): one for all columns, or by column. */
  hints: { all: string } | { byColumn: Record<string, string> } | { byPosition: string[] } | undefined;
};

/** Missing markers: none at all without na_filter; else a set for every column, or one per column. */
export type NaPlan = { filter: boolean; markers: Set<string>; perColumn: Record<string, Set<string>>; numbers: Set<number> };

const invalid = (field: string, message: string) =>
  new AppError("INVALID_INPUT", `parser_options.${field}: ${message}`, { details: { field: `parser_options.${field}` } });
const parseFailed = (message: string, row?: number) =>
  new AppError("PARSE_FAILED", `CSV could not be parsed: ${message}`, { details: { format: "csv", ...(row ? { row } : {}) } });

/**
 * Header names as pandas' C parser makes them: a blank is "Unnamed: i"; repeats get ".1", ".2"..., given names
 * first and the unnamed after them, skipping any suffixed name the header already holds (parsers.pyx _get_header).
 */
export function mangleNames(raw: readonly (string | null)[]): string[] {
  const header = raw.map((value, i) => (value === null || value === "" ? `Unnamed: ${i}` : value));
  const unnamed = raw.flatMap((value, i) => (value === null || value === "" ? [i] : []));
  const order = [...header.keys()].filter((i) => !unnamed.includes(i)).concat(unnamed);
  const counts = new Map<string, number>();
  for (const i of order) {
    const old = header[i] as string;
    let col = old;
    let count = counts.get(col) ?? 0;
    if (count > 0) {
      while (count > 0) {
        counts.set(old, count + 1);
        col = `${old}.${count}`;
        count = header.includes(col) ? count + 1 : (counts.get(col) ?? 0);
      }
      header[i] = col;
    }
    counts.set(col, count + 1);
  }
  return header;
}

function markMissing(values: (string | null)[], markers: Set<string>, numbers: Set<number>, f: NumberFormat): void {
  if (markers.size === 0 && numbers.size === 0) return;
  for (let i = 0; i < values.length; i += 1) {
    const v = values[i];
    if (v === null || v === undefined) continue;
    if (markers.has(v)) values[i] = null;
    else if (numbers.size > 0) {
      const t = v.trim();
      const n = f.thousands ? Number(t.split(f.thousands).join("")) : Number(f.decimalComma ? t.replace(",", ".") : t);
      if (t !== "" && numbers.has(n)) values[i] = null;
    }
  }
}

function pickColumns(names: string[], usecols: string[] | number[]): number[] {
  const wanted = usecols as (string | number)[];
  const missing = wanted.filter((ref) => (typeof ref === "number" ? ref >= names.length : !names.includes(ref)));
  if (missing.length > 0) {
    const list = missing.map((m) => (typeof m === "number" ? String(m) : `'${m}'`)).join(", ");
    throw invalid("usecols", `Usecols do not match columns, columns expected but not found: [${list}]`);
  }
  // pandas keeps the file's column order, whatever the order of usecols.
  return names.map((_name, i) => i).filter((i) => wanted.includes(names[i] as string) || wanted.includes(i));
}

/** Rows kept as JavaScript strings before they move into polars text columns. */
const BATCH_ROWS = 1 << 18;

const noColumns = () => new AppError("PARSE_FAILED", "No columns to parse from file", { details: { format: "csv" } });

/**
 * Takes the records one at a time (skiprows, the header, names, the implicit index, field counts, nrows), keeping
 * the fields column by column; `finish` types them (skipfooter, usecols, missing markers, parse_dates, dtype,
 * inference) into a frame, with the pandas dtype names that differ from the Arrow types' own.
 */
export function createTableBuilder(plan: TablePlan) {
  let before = 0;
  let headerSeen = plan.header === null;
  let headerFound = false;
  let names: string[] | undefined = plan.header === null ? plan.names : undefined;
  // Header names before repeats are told apart: pandas applies a dtype given for "a" to "a.1" too.
  let unmangled: string[] = [];
  let width = -1;
  let lead = 0;
  let most = 0;
  let columns: (string | null)[][] = [];
  // Fields already read, a batch of rows at a time, as polars text (more compact than JavaScript strings).
  let parts: pl.Series[][] = [];
  const lines: number[] = [];

  function flush(): void {
    columns.forEach((column, j) => {
      if (column.length > 0) parts[j]?.push(pl.Series("", column, pl.Utf8));
    });
    columns = columns.map(() => []);
  }

  /** One record; false when no more are wanted (nrows). */
  function push(fields: string[], line: number): boolean {
    if (line <= plan.skipRows) return true;
    if (!headerSeen) {
      if (before < (plan.header as number)) {
        before += 1;
        return true;
      }
      headerSeen = true;
      headerFound = true;
      // A blank header line names no column.
      const named = fields.length === 1 && fields[0] === "" ? [] : fields;
      names = plan.names ?? mangleNames(named);
      if (!plan.names) unmangled = named.map((f, i) => (f === "" ? `Unnamed: ${i}` : f));
      return true;
    }
    if (plan.nRows !== undefined && lines.length >= plan.nRows) return false;
    if (width < 0) {
      names ??= Array.from({ length: fields.length }, (_, i) => `${plan.prefix ?? ""}${i}`);
      // Data rows wider than the names: pandas makes the leading fields the index, which a table here does not keep.
      width = Math.max(names.length, fields.length);
      lead = width - names.length;
      columns = names.map(() => []);
      parts = names.map(() => []);
    }
    if (fields.length > width) {
      throw parseFailed(`Error tokenizing data. C error: Expected ${width} fields in line ${line}, saw ${fields.length}`, line);
    }
    if (fields.length > most) most = fields.length;
    // pandas' tokenizer pads a short row with empty fields (missing by default, "" without the default markers).
    for (let j = 0; j < columns.length; j += 1) (columns[j] as (string | null)[]).push(fields[j + lead] ?? "");
    lines.push(line);
    if ((columns[0]?.length ?? 0) >= BATCH_ROWS) flush();
    return true;
  }

  function finish(lineCount: number): { frame: pl.DataFrame; dtypes: Record<string, string> } {
    if (plan.header !== null && !headerFound && !plan.names) throw noColumns();
    if (plan.header === null && !plan.names && width < 0) throw noColumns();
    const all = names ?? plan.names ?? [];
    if (width < 0) {
      columns = all.map(() => []);
      parts = all.map(() => []);
    }
    if (plan.names && plan.header === null && lines.length > 0 && most < all.length) {
      throw parseFailed(`Too many columns specified: expected ${all.length} and found ${most}`);
    }
    let height = lines.length;
    // skipfooter counts the file's last lines, blank ones included (pandas' python engine reads it so).
    if (plan.skipFooter > 0) height = lines.filter((l) => l <= lineCount - plan.skipFooter).length;
    /** One column's text, batches and all, up to `height` rows; its batches are let go. */
    const text = (j: number): (string | null)[] => {
      const column = [...(parts[j] ?? []).flatMap((part) => part.toArray() as string[]), ...(columns[j] ?? [])];
      parts[j] = [];
      columns[j] = [];
      return column.length > height ? column.slice(0, height) : column;
    };
    return typeColumns(all, unmangled, text, height, plan);
  }

  return { push, finish };
}

function typeColumns(
  names: string[],
  unmangled: string[],
  text: (index: number) => (string | null)[],
  height: number,
  plan: TablePlan,
): { frame: pl.DataFrame; dtypes: Record<string, string> } {
  const kept = plan.usecols ? pickColumns(names, plan.usecols) : names.map((_, i) => i);
  const dateColumns = new Set(
    Array.isArray(plan.parseDates)
      ? (plan.parseDates as (string | number)[]).map((ref) => {
          const name = typeof ref === "number" ? names[kept[ref] ?? -1] : ref;
          if (name === undefined || !kept.some((k) => names[k] === name)) {
            throw invalid("parse_dates", `Missing column provided to 'parse_dates': '${ref}'`);
          }
          return name;
        })
      : [],
  );
  const hints = plan.hints;
  const series: pl.Series[] = [];
  const dtypes: Record<string, string> = {};
  for (const [position, index] of kept.entries()) {
    const name = names[index] as string;
    const raw = text(index);
    const values = plan.na.filter ? [...raw] : raw;
    if (plan.na.filter) markMissing(values, plan.na.perColumn[name] ?? plan.na.markers, plan.na.numbers, plan.format);
    // dtype keys that name no column are ignored, as pandas ignores them.
    const hint =
      hints &&
      ("all" in hints
        ? hints.all
        : "byColumn" in hints
          ? (hints.byColumn[name] ?? (height > 0 ? hints.byColumn[unmangled[index] ?? name] : undefined))
          : hints.byPosition[index]);
    // pandas leaves an empty column (a header-only file) as object.
    if (dateColumns.has(name) && values.length > 0) {
      const dates = parseDateColumn(name, values);
      // A column that does not parse stays text, as read: pandas does not type it further.
      series.push(dates ? dates.series : pl.Series(name, values, pl.Utf8));
      if (dates?.dtype.includes("FixedOffset")) dtypes[name] = dates.dtype;
      continue;
    }
    if (hint) {
      const typed = hintedColumn(name, position, values, hint, plan.format);
      series.push(typed.series);
      if (typed.dtype !== typed.dtype.toLowerCase() || typed.dtype === "boolean" || typed.dtype === "string") dtypes[name] = typed.dtype;
      continue;
    }
    series.push(inferColumn(name, values, plan.format, raw));
  }
  return { frame: pl.DataFrame(series), dtypes };
}
