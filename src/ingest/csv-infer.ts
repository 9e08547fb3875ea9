// pandas' read_csv typing of text fields: its default inference, and its `dtype` hints applied to the raw text.
import pl from "nodejs-polars";
import { AppError } from "../errors/app-error.ts";
import { pastInt64 as pastInt64Text, readFloat, readInt64, readUint64 } from "./csv-numbers.ts";

export type NumberFormat = {
  thousands: string | undefined;
  decimalComma: boolean;
  trueValues: string[];
  falseValues: string[];
  /** quoting=2 (QUOTE_NONNUMERIC): integer columns are float64. */
  floatsOnly?: boolean;
};

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;

const decimalOf = (f: NumberFormat) => (f.decimalComma ? "," : ".");

function boolOf(value: string, f: NumberFormat): boolean | undefined {
  if (f.trueValues.includes(value)) return true;
  if (f.falseValues.includes(value)) return false;
  const lower = value.toLowerCase();
  return lower === "true" ? true : lower === "false" ? false : undefined;
}

/** Exact integers into a polars column (nodejs-polars reads bigints into 64-bit columns as nulls): through text. */
export function integerSeries(name: string, values: readonly (bigint | string | null)[], type: pl.DataType): pl.Series {
  return pl
    .Series(
      name,
      values.map((v) => (v === null ? null : v.toString())),
      pl.Utf8,
    )
    .cast(type, true);
}

const text = (name: string, values: readonly (string | null)[]) => pl.Series(name, values as (string | null)[], pl.Utf8);

/**
 * After an int64 overflow, pandas' uint64 attempt (parsers.pyx _try_uint64): uint64 when every value fits;
 * a value past uint64, or a negative one with none past int64, makes the column text (missing values NaN);
 * a value past int64 beside a negative or a missing one makes it the raw text, missing markers included.
 * Undefined when a value is no integer: pandas then tries floats.
 */
function uint64Column(name: string, values: readonly (string | null)[], raw: readonly (string | null)[], f: NumberFormat) {
  const out: (string | null)[] = [];
  let signed = false;
  let pastInt64 = false;
  let missing = false;
  for (const value of values) {
    if (value === null) {
      missing = true;
      out.push(null);
      continue;
    }
    const read = readUint64(value, f.thousands);
    if (read.error === "none") {
      if (pastInt64Text(read.text)) pastInt64 = true;
      out.push(read.text);
    } else if (read.error === "signed") signed = true;
    else if (read.error === "overflow") return text(name, values);
    else return undefined;
  }
  if (pastInt64 && (signed || missing)) return text(name, raw);
  if (signed) return text(name, values);
  return integerSeries(name, out, pl.UInt64);
}

/**
 * A column of text fields (null: missing) typed as pandas' C parser types it: int64 (float64 with a missing
 * value), uint64, float64 (pandas' own rounding), bool (object with a missing value); else text.
 * `raw`: the fields before missing markers were applied (one of pandas' overflow paths keeps them).
 */
export function inferColumn(
  name: string,
  values: readonly (string | null)[],
  f: NumberFormat,
  raw: readonly (string | null)[] = values,
): pl.Series {
  if (values.length === 0) return pl.Series(name, [], pl.Utf8);
  const ints: (string | null)[] = [];
  let failure: "overflow" | "invalid" | undefined;
  for (const value of values) {
    if (value === null) {
      ints.push(null);
      continue;
    }
    const read = readInt64(value, f.thousands);
    if (read.error !== "none") {
      failure = read.error;
      break;
    }
    ints.push(read.text);
  }
  if (!failure) {
    // An integer column with a missing value (an all-missing one too) is float64 in pandas.
    return ints.includes(null) || f.floatsOnly
      ? pl.Series(
          name,
          ints.map((v) => (v === null ? null : Number(v))),
          pl.Float64,
        )
      : integerSeries(name, ints, pl.Int64);
  }
  if (failure === "overflow") {
    const wide = uint64Column(name, values, raw, f);
    if (wide) return wide;
  }
  const decimal = decimalOf(f);
  const floats = values.map((v) => (v === null ? null : readFloat(v, decimal, f.thousands)));
  if (!floats.includes(undefined)) return pl.Series(name, floats as (number | null)[], pl.Float64);
  const bools = values.map((v) => (v === null ? null : boolOf(v, f)));
  // With a missing value pandas keeps True/False as objects; the stored column is boolean with nulls (see dtype-names.ts).
  if (!bools.includes(undefined)) return pl.Series(name, bools as (boolean | null)[], pl.Bool);
  return text(name, values);
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
    // Numbers 0 and 1 are False and True to pandas' bool dtypes.
    const bools = values.map((v) => {
      if (v === null) return null;
      const b = boolOf(v, f) ?? { 0: false, 1: true }[String(readFloat(v, decimalOf(f), f.thousands))];
      if (b === undefined) throw parseFailed(name, `${v} cannot be cast to bool`);
      return b;
    });
    return { series: pl.Series(name, bools, pl.Bool), dtype: hint };
  }
  // numpy's numeric dtypes take a column of booleans as 1 and 0, as pandas does (its nullable ones refuse them).
  const bools = values.map((v) => (v === null ? null : boolOf(v, f)));
  const boolean = !nullable && values.some((v) => v !== null) && !bools.includes(undefined);
  if (boolean && !lower.startsWith("float")) {
    if (hasNull && !nullable) throw parseFailed(name, `Integer column has NA values in column ${position}`);
    return {
      series: pl
        .Series(
          name,
          bools.map((b) => (b === null ? null : b ? 1 : 0)),
          pl.Float64,
        )
        .cast(POLARS_INT[lower]?.() ?? pl.Int64),
      dtype: hint,
    };
  }
  if (lower.startsWith("float")) {
    if (boolean) {
      return {
        series: pl.Series(
          name,
          bools.map((b) => (b === null ? null : b ? 1 : 0)),
          lower === "float32" ? pl.Float32 : pl.Float64,
        ),
        dtype: hint,
      };
    }
    const floats = values.map((v) => (v === null ? null : readFloat(v, decimalOf(f), f.thousands)));
    const bad = values.find((v, i) => v !== null && floats[i] === undefined);
    if (bad !== undefined) throw parseFailed(name, `could not convert string to float: ${JSON.stringify(bad)}`);
    return { series: pl.Series(name, floats as (number | null)[], lower === "float32" ? pl.Float32 : pl.Float64), dtype: hint };
  }
  const range = INT_RANGES[lower];
  const type = POLARS_INT[lower];
  if (!range || !type) throw parseFailed(name, `unknown dtype ${hint}`);
  if (hasNull && !nullable) throw parseFailed(name, `Integer column has NA values in column ${position}`);
  const ints = values.map((v) => {
    if (v === null) return null;
    const read = lower.startsWith("u") ? readUint64(v, f.thousands) : readInt64(v, f.thousands);
    if (read.error !== "none") throw parseFailed(name, `cannot safely convert ${JSON.stringify(v)} to ${hint}`);
    const n = BigInt(read.text);
    if (n < range[0] || n > range[1]) throw parseFailed(name, `${v} is out of bounds for ${hint}`);
    // pandas reads a nullable integer column with a missing value through float64: past 2^53 it refuses.
    if (hasNull && BigInt(Number(n)) !== n) throw parseFailed(name, "cannot safely cast non-equivalent float64 to int64");
    return read.text;
  });
  return { series: integerSeries(name, ints, type()), dtype: hint };
}
