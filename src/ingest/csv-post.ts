// The read_csv options polars has no switch for, applied to the frame after reading.
import pl from "nodejs-polars";
import { AppError } from "../errors/app-error.ts";
import { type CsvPlan, PANDAS_NA_VALUES } from "./csv-options.ts";
import { variantOf } from "./normalize.ts";

const TRUE_DEFAULTS = ["True", "TRUE", "true"];
const FALSE_DEFAULTS = ["False", "FALSE", "false"];

function isString(frame: pl.DataFrame, column: string): boolean {
  try {
    return variantOf(frame, column) === "String";
  } catch {
    return false;
  }
}

function columnNamesOf(frame: pl.DataFrame, plan: CsvPlan): string[] {
  if (plan.names) {
    if (plan.names.length !== frame.width) {
      throw new AppError("INVALID_INPUT", `parser_options.names has ${plan.names.length} names but the data has ${frame.width} columns`, {
        details: { field: "parser_options.names" },
      });
    }
    return plan.names;
  }
  // Without a header pandas numbers the columns from 0 (with an optional prefix).
  if (plan.header === null) return frame.columns.map((_, i) => `${plan.prefix ?? ""}${i}`);
  return frame.columns;
}

function pick(frame: pl.DataFrame, usecols: string[] | number[]): pl.DataFrame {
  const names = usecols.map((ref) => {
    const name = typeof ref === "number" ? frame.columns[ref] : ref;
    if (name === undefined || !frame.columns.includes(name)) {
      throw new AppError("INVALID_INPUT", `parser_options.usecols names column ${JSON.stringify(ref)}, which the data does not have`, {
        details: { field: "parser_options.usecols" },
      });
    }
    return name;
  });
  return frame.select(...names);
}

function thousands(frame: pl.DataFrame, separator: string, decimalComma: boolean): pl.DataFrame {
  const sep = separator.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const decimal = decimalComma ? "," : "\\.";
  const pattern = new RegExp(`^-?\\d{1,3}(${sep}\\d{3})*(${decimal}\\d+)?$`);
  let out = frame;
  for (const column of frame.columns.filter((c) => isString(frame, c))) {
    const values = frame.getColumn(column).dropNulls().toArray() as string[];
    if (values.length === 0 || !values.every((v) => pattern.test(v))) continue;
    const plain = values.map((v) => v.split(separator).join("").replace(",", "."));
    const integral = plain.every((v) => !v.includes("."));
    const cleaned = pl.col(column).str.replaceAll(sep, "").str.replaceAll(",", ".");
    out = out.withColumns(cleaned.cast(integral ? pl.Int64 : pl.Float64).alias(column));
  }
  return out;
}

/** Types text columns as polars would have: integers, then floats, then booleans; anything else stays text. */
function inferText(frame: pl.DataFrame, columns: string[] = frame.columns.filter((c) => isString(frame, c))): pl.DataFrame {
  let out = frame;
  for (const column of columns) {
    for (const type of [pl.Int64, pl.Float64]) {
      try {
        out = out.withColumns(pl.col(column).cast(type, true).alias(column));
        break;
      } catch {
        // not all values are of this type
      }
    }
    if (isString(out, column)) {
      const values = new Set(
        out
          .getColumn(column)
          .dropNulls()
          .unique()
          .toArray()
          .map((v) => String(v).toLowerCase()),
      );
      if (values.size > 0 && [...values].every((v) => v === "true" || v === "false")) {
        out = out.withColumns(pl.col(column).str.toLowerCase().eq(pl.lit("true")).alias(column));
      }
    }
  }
  return out;
}

/** pandas' default missing markers in text columns become nulls, and the column is typed again (NA in numbers). */
function pandasMissing(frame: pl.DataFrame): pl.DataFrame {
  const markers = PANDAS_NA_VALUES.filter((m) => m !== "");
  let out = frame;
  const touched: string[] = [];
  for (const column of frame.columns.filter((c) => isString(frame, c))) {
    const marked = frame.getColumn(column).isIn(markers);
    if (!marked.any()) continue;
    out = out.withColumns(pl.when(pl.col(column).isIn(markers)).then(pl.lit(null)).otherwise(pl.col(column)).alias(column));
    touched.push(column);
  }
  return touched.length > 0 ? inferText(out, touched) : out;
}

function booleans(frame: pl.DataFrame, trueValues: string[], falseValues: string[]): pl.DataFrame {
  const truthy = new Set([...TRUE_DEFAULTS, ...trueValues]);
  const falsy = new Set([...FALSE_DEFAULTS, ...falseValues]);
  let out = frame;
  for (const column of frame.columns.filter((c) => isString(frame, c))) {
    const values = frame.getColumn(column).dropNulls().unique().toArray() as string[];
    if (values.length === 0 || !values.every((v) => truthy.has(v) || falsy.has(v))) continue;
    const parsed = pl
      .when(pl.col(column).isNull())
      .then(pl.lit(null))
      .otherwise(pl.col(column).isIn([...truthy]));
    out = out.withColumns(parsed.cast(pl.Bool).alias(column));
  }
  return out;
}

function parseDates(frame: pl.DataFrame, refs: string[] | number[]): pl.DataFrame {
  let out = frame;
  for (const ref of refs) {
    const column = typeof ref === "number" ? frame.columns[ref] : ref;
    if (column === undefined || !frame.columns.includes(column)) {
      throw new AppError("INVALID_INPUT", `parser_options.parse_dates names column ${JSON.stringify(ref)}, which the data does not have`, {
        details: { field: "parser_options.parse_dates" },
      });
    }
    if (!isString(frame, column)) continue;
    try {
      out = out.withColumns(pl.col(column).str.strptime(pl.Datetime("us")).alias(column));
    } catch (error) {
      throw new AppError("PARSE_FAILED", `column "${column}" holds values that are not dates: ${(error as Error).message.split("\n")[0]}`, {
        details: { column },
      });
    }
  }
  return out;
}

export function applyCsvPostSteps(input: pl.DataFrame, plan: CsvPlan): pl.DataFrame {
  let frame = input;
  const names = columnNamesOf(frame, plan);
  if (names.some((n, i) => n !== frame.columns[i]))
    frame = frame.rename(Object.fromEntries(frame.columns.map((c, i) => [c, names[i] ?? c])));
  if (plan.usecols) frame = pick(frame, plan.usecols);
  if (plan.skipFooter > 0) frame = frame.head(Math.max(0, frame.height - plan.skipFooter));
  if (plan.perColumnNull) {
    for (const [column, values] of Object.entries(plan.perColumnNull)) {
      if (!frame.columns.includes(column)) continue;
      frame = frame.withColumns(
        pl.when(pl.col(column).cast(pl.Utf8).isIn(values)).then(pl.lit(null)).otherwise(pl.col(column)).alias(column),
      );
    }
  }
  if (plan.pandasMissing) frame = pandasMissing(frame);
  if (plan.thousands) frame = inferText(thousands(frame, plan.thousands, plan.decimalComma));
  // polars already reads true/false; only extra markers need a pass over the strings.
  if (plan.trueValues.length > 0 || plan.falseValues.length > 0) frame = booleans(frame, plan.trueValues, plan.falseValues);
  if (Array.isArray(plan.parseDates)) frame = parseDates(frame, plan.parseDates);
  return frame;
}
