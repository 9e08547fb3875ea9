// Reads pandas-style dtype hints ("int64", "str", "datetime64[ns, UTC]", ...) into polars types.
import pl, { type DataType } from "nodejs-polars";
import { AppError } from "../errors/app-error.ts";
import { parseDateText } from "./csv-dates.ts";
import { integerSeries } from "./csv-infer.ts";
import { variantOf } from "./normalize.ts";

const SIMPLE: Record<string, () => DataType> = {
  int8: () => pl.Int8,
  int16: () => pl.Int16,
  int32: () => pl.Int32,
  int64: () => pl.Int64,
  int: () => pl.Int64,
  uint8: () => pl.UInt8,
  uint16: () => pl.UInt16,
  uint32: () => pl.UInt32,
  uint64: () => pl.UInt64,
  float32: () => pl.Float32,
  float64: () => pl.Float64,
  float: () => pl.Float64,
  str: () => pl.Utf8,
  string: () => pl.Utf8,
  object: () => pl.Utf8,
  bool: () => pl.Bool,
  boolean: () => pl.Bool,
  category: () => pl.Categorical,
  date: () => pl.Date,
};

/** A polars type for one pandas dtype name; pandas' nullable names (Int64, Float64...) are accepted too. */
export function dtypeFromName(name: string, field: string): DataType {
  const lower = name.trim().toLowerCase();
  const simple = SIMPLE[lower];
  if (simple) return simple();
  const datetime = /^datetime64(?:\[(s|ms|us|ns)(?:,\s*([^\]]+))?\])?$/.exec(lower);
  if (datetime) {
    const unit = (datetime[1] ?? "ns") as "ms" | "us" | "ns";
    // polars has no second unit: seconds are stored as milliseconds.
    const polarsUnit = (unit as string) === "s" ? "ms" : unit;
    const zone = datetime[2]
      ? name
          .trim()
          .slice(name.indexOf(",") + 1, -1)
          .trim()
      : undefined;
    return pl.Datetime(polarsUnit, zone);
  }
  throw new AppError("INVALID_INPUT", `unknown dtype "${name}" for ${field}`, { details: { field } });
}

export type DtypeHints = { all: DataType } | { byColumn: Record<string, DataType> };

/** `dtype` as pandas takes it: one name for every column, or an object from column to name. */
export function readDtypeHints(value: unknown, field = "parser_options.dtype"): DtypeHints | undefined {
  if (value === undefined || value === null || value === false) return undefined;
  if (value === true) return undefined; // pandas' dtype=True for JSON: infer, which is the default
  if (typeof value === "string") return { all: dtypeFromName(value, field) };
  if (typeof value === "object" && !Array.isArray(value)) {
    const byColumn: Record<string, DataType> = {};
    for (const [column, name] of Object.entries(value as Record<string, unknown>)) {
      if (typeof name !== "string")
        throw new AppError("INVALID_INPUT", `${field}.${column} must be a dtype name`, { details: { field: `${field}.${column}` } });
      byColumn[column] = dtypeFromName(name, `${field}.${column}`);
    }
    return { byColumn };
  }
  throw new AppError("INVALID_INPUT", `${field} must be a dtype name or an object of column to dtype name`, { details: { field } });
}

/** Casts columns as the hints say; a value that does not convert is a parse failure naming the column. */
export function applyDtypeHints(frame: pl.DataFrame, hints: DtypeHints | undefined): pl.DataFrame {
  if (!hints) return frame;
  const targets = "all" in hints ? Object.fromEntries(frame.columns.map((c) => [c, hints.all])) : hints.byColumn;
  let out = frame;
  for (const [column, type] of Object.entries(targets)) {
    if (!frame.columns.includes(column)) {
      throw new AppError("INVALID_INPUT", `dtype hint names column "${column}", which the data does not have`, {
        details: { field: `parser_options.dtype.${column}`, column },
      });
    }
    try {
      out = out.withColumns(castColumn(out, column, type));
    } catch (error) {
      throw new AppError(
        "PARSE_FAILED",
        `column "${column}" cannot be read as ${String(type)}: ${(error as Error).message.split("\n")[0]}`,
        {
          details: { column },
        },
      );
    }
  }
  return out;
}

/** Text into a datetime dtype, value by value (formats may differ from row to row): pandas' astype does so. */
function parseDatetimes(series: pl.Series, type: DataType): pl.Series {
  const { timeUnit, timeZone } = type as unknown as { timeUnit: "ms" | "us" | "ns"; timeZone?: string | null };
  const ns = (series.toArray() as (string | null)[]).map((value) => {
    if (value === null) return null;
    const parsed = parseDateText(value);
    if (!parsed) throw new Error(`"${value}" is not a date or time pandas would read`);
    return parsed.ns;
  });
  const utc = integerSeries(series.name, ns, pl.Int64).cast(pl.Datetime("ns")).cast(pl.Datetime(timeUnit));
  // Naive times in a zoned dtype are taken as UTC, as pandas' astype takes them.
  return timeZone ? utc.dt.replaceTimeZone("UTC").dt.convertTimeZone(timeZone) : utc;
}

function castColumn(frame: pl.DataFrame, column: string, type: DataType): pl.Expr | pl.Series {
  const variant = (type as unknown as { variant: string }).variant;
  if (variant === "Date") return pl.col(column).cast(pl.Utf8).str.strptime(pl.Date).alias(column);
  if (variant === "Datetime" && variantOf(frame, column) === "String") return parseDatetimes(frame.getColumn(column), type);
  return pl.col(column).cast(type, true).alias(column);
}
