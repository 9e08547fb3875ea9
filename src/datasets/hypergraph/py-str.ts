// Python's str() of column values, because hypergraph node ids must match the ones pygraphistry makes.
import pl from "nodejs-polars";

const INTEGERS = new Set(["Int8", "Int16", "Int32", "Int64", "UInt8", "UInt16", "UInt32", "UInt64", "Int128", "UInt128"]);
/** Types whose polars text already is Python's str() of the value. */
const AS_TEXT = new Set(["String", "Utf8", "Categorical", "Enum", "Date", "Time", "Decimal"]);

/** repr()/str() of a Python float: shortest round-trip digits, exponent form below 1e-4 and from 1e16. */
export function pyFloat(x: number): string {
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  // toExponential() without an argument gives the shortest digits that round-trip, as Python does.
  const [mantissa = "", exponentText = "0"] = x.toExponential().split("e");
  const exponent = Number(exponentText);
  const sign = x < 0 ? "-" : "";
  const digits = mantissa.replace("-", "").replace(".", "");
  if (exponent < -4 || exponent >= 16) {
    const head = digits.length > 1 ? `${digits.slice(0, 1)}.${digits.slice(1)}` : digits;
    const power = String(Math.abs(exponent)).padStart(2, "0");
    return `${sign}${head}e${exponent < 0 ? "-" : "+"}${power}`;
  }
  if (exponent < 0) return `${sign}0.${"0".repeat(-exponent - 1)}${digits}`;
  const whole = digits.slice(0, exponent + 1).padEnd(exponent + 1, "0");
  return `${sign}${whole}.${digits.slice(exponent + 1) || "0"}`;
}

/** numpy's str() of a float32: the shortest decimal that reads back as the same float32. */
export function pyFloat32(x: number): string {
  if (!Number.isFinite(x) || x === 0) return pyFloat(x);
  for (let precision = 1; precision < 9; precision++) {
    const candidate = Number(x.toPrecision(precision));
    if (Math.fround(candidate) === x) return pyFloat(candidate);
  }
  return pyFloat(Number(x.toPrecision(9)));
}

function pyQuote(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  const body = text.replaceAll("\\", "\\\\").replaceAll(quote, `\\${quote}`).replaceAll("\n", "\\n").replaceAll("\t", "\\t");
  return `${quote}${body}${quote}`;
}

/** repr() of a nested value as Python would print a list or dict of it (numbers lose int/float distinction). */
function pyRepr(value: unknown): string {
  if (value === null || value === undefined) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "string") return pyQuote(value);
  if (typeof value === "number" || typeof value === "bigint") return String(value);
  if (value instanceof Date) return pyQuote(value.toISOString());
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(", ")}]`;
  if (typeof value === "object") {
    return `{${Object.entries(value)
      .map(([k, v]) => `${pyQuote(k)}: ${pyRepr(v)}`)
      .join(", ")}}`;
  }
  return String(value);
}

function mapValues(series: pl.Series, format: (value: never) => string): pl.Series {
  const values = series.toArray() as unknown[];
  return pl.Series(
    series.name,
    values.map((v) => (v === null || v === undefined ? null : format(v as never))),
    pl.Utf8,
  );
}

/**
 * pandas' `Series.astype(str)` of datetimes: dates alone when every value is midnight, otherwise seconds
 * plus as many fraction digits (3, 6 or 9) as the finest non-zero fraction in the column needs.
 */
function datetimeText(series: pl.Series): pl.Series {
  const inner = (series.dtype as unknown as { inner?: unknown[] }).inner ?? [];
  const zoned = typeof inner[1] === "string" && inner[1] !== "";
  const nanos = (series.dt.nanosecond().toArray() as (number | null)[]).filter((n): n is number => n !== null);
  const fraction = nanos.some((n) => n % 1000 !== 0)
    ? "%.9f"
    : nanos.some((n) => n % 1_000_000 !== 0)
      ? "%.6f"
      : nanos.some((n) => n !== 0)
        ? "%.3f"
        : "";
  const timeOfDay = series.dt.hour().add(series.dt.minute()).add(series.dt.second());
  const midnight = nanos.every((n) => n === 0) && (timeOfDay.toArray() as (number | null)[]).every((v) => v === null || v === 0);
  const format = !zoned && midnight ? "%Y-%m-%d" : `%Y-%m-%d %H:%M:%S${fraction}${zoned ? "%:z" : ""}`;
  return series.dt.strftime(format).cast(pl.Utf8);
}

/**
 * The column as text the way pygraphistry's `astype(str)` writes each value, with null where the value
 * is missing (null, or NaN: pandas cannot tell them apart) so that callers choose drop or NULLVAL.
 */
export function pyStrSeries(series: pl.Series): pl.Series {
  const variant = series.dtype.variant as string;
  if (AS_TEXT.has(variant)) return series.cast(pl.Utf8).rename(series.name);
  if (INTEGERS.has(variant)) return series.cast(pl.Utf8).rename(series.name);
  if (variant === "Bool") return mapValues(series, (v: boolean) => (v ? "True" : "False"));
  if (variant === "Float64" || variant === "Float32") {
    const format = variant === "Float32" ? pyFloat32 : pyFloat;
    const values = (series.toArray() as (number | null)[]).map((v) => (v === null || Number.isNaN(v) ? null : format(v)));
    return pl.Series(series.name, values, pl.Utf8);
  }
  if (variant === "Null") return pl.Series(series.name, new Array<null>(series.length).fill(null), pl.Utf8);
  if (variant === "Datetime") return datetimeText(series).rename(series.name);
  if (variant === "List" || variant === "FixedSizeList" || variant === "Struct") return mapValues(series, pyRepr);
  try {
    return series.cast(pl.Utf8).rename(series.name);
  } catch {
    return mapValues(series, pyRepr);
  }
}
