// Brings polars' default CSV read in line with pandas' read_csv defaults: header names, missing markers,
// integer columns with a missing value, text columns pandas would type (numbers with spaces around them).
import pl from "nodejs-polars";
import { pandasFloats } from "./csv-float-text.ts";
import { PANDAS_NA_VALUES } from "./csv-options.ts";
import { mangleNames } from "./csv-table.ts";
import { variantOf } from "./normalize.ts";

const INTEGER = new Set(["Int8", "Int16", "Int32", "Int64", "UInt8", "UInt16", "UInt32", "UInt64"]);
const MARKERS = PANDAS_NA_VALUES.filter((m) => m !== "");

/** The raw text of one column of the file, as polars' read named it (the same rows, in order). */
export type ColumnText = (column: string) => pl.Series;

/** Thrown where polars' read lost what pandas' typing needs (the raw text of an overflowing integer column). */
export class NeedsTokenizer extends Error {}

const INTEGER_TEXT = /^\s*[+-]?\d+\s*$/;
/** Rows whose values settle quickly whether a text column could be numbers or booleans (typeText). */
const HEAD_ROWS = 10_000;

/** A text column typed as pandas would: integers (float64 with a missing value), floats, booleans; else text. */
function typeText(frame: pl.DataFrame, column: string, exact: boolean): pl.DataFrame {
  const series = frame.getColumn(column);
  // No rows: object, as pandas reads a header-only file. Rows that are all missing: float64.
  if (series.length === 0) return frame;
  if (series.nullCount() === series.length) return frame.withColumns(pl.col(column).cast(pl.Float64));
  const stripped = pl.col(column).str.strip();
  // A text column of the first values is text: the casts over the whole column need not be tried. The values are
  // taken from the column's first rows (dropping the nulls of the whole column would copy all of it); first rows that
  // are all missing leave no values, and then every check below runs on the whole column.
  const head = series.head(HEAD_ROWS).dropNulls().head(1000);
  const probe = (type: pl.DataType) =>
    pl.DataFrame([head]).select(pl.col(column).str.strip().cast(type).isNull().any().alias("x")).toRecords()[0]?.x !== true;
  if (probe(pl.Float64)) {
    try {
      return frame.withColumns(stripped.cast(pl.Int64, true).alias(column));
    } catch {
      // not every value is an int64
    }
    let typed: pl.DataFrame | undefined;
    try {
      typed = frame.withColumns(stripped.cast(pl.Float64, true).alias(column));
    } catch {
      // not every value is a number
    }
    if (typed) {
      // Integers past int64 have pandas rules of their own (csv-infer.ts), which need the raw text.
      if (exact && series.dropNulls().str.contains(INTEGER_TEXT).all()) throw new NeedsTokenizer(column);
      if (exact && pandasMightRoundOtherwise(typed, column)) return withPandasFloats(typed, column, series);
      return typed;
    }
  }
  // Booleans are at most five letters ("false"): the first value, or else a longer value, settles it without
  // lower-casing the column (the lengths alone take 40 ms at 5M values).
  if (!head.head(1).str.toLowerCase().isIn(["true", "false"]).all()) return frame;
  if ((series.str.lengths().max() ?? 0) > 5) return frame;
  const lower = series.dropNulls().str.toLowerCase();
  if (lower.isIn(["true", "false"]).all()) return frame.withColumns(pl.col(column).str.toLowerCase().eq(pl.lit("true")).alias(column));
  return frame;
}

/** The column's doubles made pandas' own from its text (csv-float-text.ts); the tokenizer where that cannot be. */
function withPandasFloats(frame: pl.DataFrame, column: string, text: pl.Series): pl.DataFrame {
  const floats = pandasFloats(frame.getColumn(column), text);
  if (!floats) throw new NeedsTokenizer(column);
  return frame.withColumns(floats.alias(column));
}

/**
 * Whether pandas' float reading (precise_xstrtod: 17 digits, leading zeros included, powers of ten) could give
 * another double than polars' correctly rounded one: a value needing more than 15 digits (counting the zeros
 * after the point of a value below 1, in case it was written out in full), a decimal exponent past +-22, or an
 * infinity (pandas refuses "1e400"). Such columns are read again from their text.
 */
function pandasMightRoundOtherwise(frame: pl.DataFrame, column: string): boolean {
  const c = pl.col(column);
  // The length of each value's shortest form bounds its digits (a sign, a point, an exponent only add to it):
  // at most 16 characters hold at most 15 digits. Cheaper than counting the digits, and never too low.
  const length = c.cast(pl.Utf8).str.lengths().cast(pl.Float64);
  const small = c.abs().lt(1).and(c.neq(0));
  const [flags] = frame
    .select(
      length
        .gt(16)
        .or(small.and(length.sub(c.abs().log(10).floor()).gt(15)))
        .or(c.abs().gt(1e22))
        .or(c.abs().lt(1e-22).and(c.neq(0)))
        .or(c.isInfinite())
        .any()
        .alias("flag"),
    )
    .toRecords();
  return flags?.flag === true;
}

/** Integers beyond int64 (polars' Int128): uint64 when all fit, else text, as pandas keeps them. */
function wideIntegers(frame: pl.DataFrame, column: string, exact: boolean): pl.DataFrame {
  if (exact && frame.getColumn(column).nullCount() > 0) throw new NeedsTokenizer(column);
  try {
    return frame.withColumns(pl.col(column).cast(pl.UInt64, true).alias(column));
  } catch {
    return frame.withColumns(pl.col(column).cast(pl.Utf8).alias(column));
  }
}

/**
 * polars' default read made pandas': `header` is the header record as pandas reads it (raw names). Throws
 * NeedsTokenizer where only the raw text can say what pandas would hold (unless `exact` is false: files too large
 * for the tokenizer keep polars' reading there: its correctly rounded floats, uint64 for wide integers).
 */
export function pandasFixups(input: pl.DataFrame, header: string[], exact = true, textOf?: ColumnText): pl.DataFrame {
  let frame = input;
  const polarsNames = input.columns;
  const names = mangleNames(header.length === frame.width ? header : frame.columns);
  if (names.some((n, i) => n !== frame.columns[i]))
    frame = frame.rename(Object.fromEntries(frame.columns.map((c, i) => [c, names[i] ?? c])));
  for (const column of frame.columns) {
    const variant = variantOf(frame, column);
    if (exact && variant === "Float64" && pandasMightRoundOtherwise(frame, column)) {
      if (!textOf) throw new NeedsTokenizer(column);
      frame = withPandasFloats(frame, column, textOf(polarsNames[frame.columns.indexOf(column)] as string));
    }
    if (variant === "String") {
      const marked = frame.getColumn(column).isIn(MARKERS);
      if (marked.any()) {
        frame = frame.withColumns(pl.when(pl.col(column).isIn(MARKERS)).then(pl.lit(null)).otherwise(pl.col(column)).alias(column));
      }
      frame = typeText(frame, column, exact);
    } else if (variant === "Int128" || variant === "UInt128") {
      frame = wideIntegers(frame, column, exact);
    }
    // pandas holds an integer column with a missing value as float64.
    if (INTEGER.has(variantOf(frame, column)) && frame.getColumn(column).nullCount() > 0) {
      frame = frame.withColumns(pl.col(column).cast(pl.Float64));
    }
  }
  return frame;
}
