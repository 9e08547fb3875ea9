// pandas' read_csv typing of text fields: its default inference, and its `dtype` hints applied to the raw text.
import pl from "nodejs-polars";
import { AppError } from "../errors/app-error.ts";

export type NumberFormat = { thousands: string | undefined; decimalComma: boolean; trueValues: string[]; falseValues: string[] };

const INT = /^[+-]?\d+$/;
const FLOAT = /^[+-]?(?:\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)$/;
const INFINITY = /^([+-]?)inf(?:inity)?$/i;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;

/** The number text pandas' parser sees: spaces around it dropped, thousands separators out, "," as ".". */
function numberText(value: string, f: NumberFormat): string {
  let t = value.trim();
  if (f.thousands) t = t.split(f.thousands).join("");
  if (f.decimalComma) {
    if (t.includes(".")) return "";
    t = t.replace(",", ".");
  }
  return t;
}

function toFloat(text: string): number | undefined {
  if (FLOAT.test(text)) return Number(text);
  const inf = INFINITY.exec(text);
  if (inf) return inf[1] === "-" ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  return undefined;
}

function boolOf(value: string, f: NumberFormat): boolean | undefined {
  if (f.trueValues.includes(value)) return true;
  if (f.falseValues.includes(value)) return false;
  const lower = value.toLowerCase();
  return lower === "true" ? true : lower === "false" ? false : undefined;
}

/** Exact integers into a polars column (nodejs-polars reads bigints into 64-bit columns as nulls): through text. */
export function integerSeries(name: string, values: readonly (bigint | null)[], type: pl.DataType): pl.Series {
  return pl
    .Series(
      name,
      values.map((v) => (v === null ? null : v.toString())),
      pl.Utf8,
    )
    .cast(type, true);
}

/** Integers as pandas keeps them: int64, uint64 when they need it, or undefined (text) for mixed-sign overflow. */
function integers(name: string, texts: (string | null)[]): pl.Series | undefined {
  const big = texts.map((t) => (t === null ? null : BigInt(t)));
  const present = big.filter((v): v is bigint => v !== null);
  const hasNull = present.length < big.length;
  if (present.every((v) => v >= INT64_MIN && v <= INT64_MAX)) {
    // An integer column with a missing value is float64 in pandas.
    return hasNull
      ? pl.Series(
          name,
          big.map((v) => (v === null ? null : Number(v))),
          pl.Float64,
        )
      : integerSeries(name, big, pl.Int64);
  }
  if (present.every((v) => v >= 0n && v <= UINT64_MAX) && !hasNull) return integerSeries(name, big, pl.UInt64);
  return undefined;
}

/** A column of text fields (null: missing) typed as pandas' default inference types it. */
export function inferColumn(name: string, values: readonly (string | null)[], f: NumberFormat): pl.Series {
  const present = values.filter((v): v is string => v !== null);
  if (values.length === 0) return pl.Series(name, [], pl.Utf8);
  // A column with no value at all is all-NaN float64.
  if (present.length === 0) return pl.Series(name, values as null[], pl.Float64);
  const texts = values.map((v) => (v === null ? null : numberText(v, f)));
  if (texts.every((t) => t === null || INT.test(t))) {
    const ints = integers(name, texts);
    if (ints) return ints;
    return pl.Series(name, values as (string | null)[], pl.Utf8);
  }
  const floats = texts.map((t) => (t === null ? null : toFloat(t)));
  if (floats.every((v) => v !== undefined)) return pl.Series(name, floats as (number | null)[], pl.Float64);
  const bools = values.map((v) => (v === null ? null : boolOf(v, f)));
  // With a missing value pandas keeps True/False as objects; the stored column is boolean with nulls (see dtype-names.ts).
  if (bools.every((v) => v !== undefined)) return pl.Series(name, bools as (boolean | null)[], pl.Bool);
  return pl.Series(name, values as (string | null)[], pl.Utf8);
}

const parseFailed = (column: string, message: string) =>
  new AppError("PARSE_FAILED", `column "${column}": ${message}`, { details: { format: "csv", column } });

const INT_RANGES: Record<string, [bigint, bigint]> = {
  int8: [-128n, 127n],
  int16: [-32768n, 32767n],
  int32: [-(2n ** 31n), 2n ** 31n - 1n],
  int64: [INT64_MIN, INT64_MAX],
  uint8: [0n, 255n],
  uint16: [0n, 65535n],
  uint32: [0n, 2n ** 32n - 1n],
  uint64: [0n, UINT64_MAX],
};
const POLARS_INT: Record<string, () => pl.DataType> = {
  int8: () => pl.Int8,
  int16: () => pl.Int16,
  int32: () => pl.Int32,
  int64: () => pl.Int64,
  uint8: () => pl.UInt8,
  uint16: () => pl.UInt16,
  uint32: () => pl.UInt32,
  uint64: () => pl.UInt64,
};

/** The pandas dtype names read_csv takes as text-to-type hints, each with the name it reports. */
export function csvHintName(raw: string): string | undefined {
  const name = raw.trim();
  if (name === "int" || name === "int64") return "int64";
  if (/^u?int(8|16|32|64)$/.test(name)) return name;
  if (/^U?Int(8|16|32|64)$/.test(name)) return name;
  if (name === "float" || name === "float64" || name === "double") return "float64";
  if (name === "float32" || name === "Float64" || name === "Float32") return name;
  if (name === "bool" || name === "boolean") return name;
  if (name === "str" || name === "object" || name === "O") return "object";
  if (name === "string" || name === "category") return name;
  return undefined;
}

/**
 * One column typed as its `dtype` hint says, from the raw text (so "007" read as str stays "007"), as pandas
 * does: numpy integers and bool refuse a missing value; the nullable names (Int64, boolean, string...) hold one.
 * Answers the series and the pandas dtype name to report for it.
 */
export function hintedColumn(
  name: string,
  position: number,
  values: readonly (string | null)[],
  hint: string,
  f: NumberFormat,
): { series: pl.Series; dtype: string } {
  const lower = hint.toLowerCase();
  const nullable = hint !== lower || hint === "boolean" || hint === "string";
  const hasNull = values.some((v) => v === null);
  if (hint === "object") return { series: pl.Series(name, values as (string | null)[], pl.Utf8), dtype: "object" };
  if (hint === "string") return { series: pl.Series(name, values as (string | null)[], pl.Utf8), dtype: "string" };
  if (hint === "category") return { series: pl.Series(name, values as (string | null)[], pl.Utf8).cast(pl.Categorical), dtype: "category" };
  if (lower === "bool" || lower === "boolean") {
    if (hasNull && !nullable) throw parseFailed(name, `Bool column has NA values in column ${position}`);
    const bools = values.map((v) => (v === null ? null : boolOf(v, f)));
    const bad = values.find((v, i) => v !== null && bools[i] === undefined);
    if (bad !== undefined) throw parseFailed(name, `cannot read ${JSON.stringify(bad)} as ${hint}`);
    return { series: pl.Series(name, bools as (boolean | null)[], pl.Bool), dtype: hint };
  }
  const texts = values.map((v) => (v === null ? null : numberText(v, f)));
  if (lower.startsWith("float")) {
    const floats = texts.map((t) => (t === null ? null : toFloat(t)));
    const bad = values.find((v, i) => v !== null && floats[i] === undefined);
    if (bad !== undefined) throw parseFailed(name, `could not convert string to float: ${JSON.stringify(bad)}`);
    return { series: pl.Series(name, floats as (number | null)[], lower === "float32" ? pl.Float32 : pl.Float64), dtype: hint };
  }
  const range = INT_RANGES[lower];
  const type = POLARS_INT[lower];
  if (!range || !type) throw parseFailed(name, `unknown dtype ${hint}`);
  if (hasNull && !nullable) throw parseFailed(name, `Integer column has NA values in column ${position}`);
  const ints = texts.map((t, i) => {
    if (t === null) return null;
    if (!INT.test(t)) throw parseFailed(name, `cannot safely convert ${JSON.stringify(values[i])} to ${hint}`);
    const v = BigInt(t);
    if (v < range[0] || v > range[1]) throw parseFailed(name, `${values[i]} is out of bounds for ${hint}`);
    return v;
  });
  return { series: integerSeries(name, ints, type()), dtype: hint };
}
