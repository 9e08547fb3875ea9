// Polars expressions for the Duplicated, string-class (IsAlpha, ...) and date-part (IsMonthStart, ...) predicates.

import pl from "nodejs-polars";
import type { DatePartTest, StringClassTest } from "./ast.ts";

/** pandas Series.duplicated: keep "first"/"last" marks all but that occurrence; false marks every repeated value. */
export function duplicatedExpr(col: pl.Expr, keep: "first" | "last" | false): pl.Expr {
  if (keep === false) return col.isDuplicated();
  if (keep === "first") return col.isFirstDistinct().not();
  return col.reverse().isFirstDistinct().reverse().not();
}

const CASED = "\\p{Lu}\\p{Ll}\\p{Lt}";
const DIGITS = "\\p{Nd}\\x{00B2}\\x{00B3}\\x{00B9}\\x{2070}\\x{2074}-\\x{2079}\\x{2080}-\\x{2089}";

/** Python str.isX semantics as regexes (empty strings never match); null values do not match. */
export function stringClassExpr(col: pl.Expr, test: StringClassTest): pl.Expr {
  const s = col.cast(pl.Utf8);
  const has = (re: string) => s.str.contains(re);
  let e: pl.Expr;
  switch (test) {
    case "IsNumeric":
      e = has("^\\p{N}+$");
      break;
    case "IsDecimal":
      e = has("^\\p{Nd}+$");
      break;
    case "IsDigit":
      e = has(`^[${DIGITS}]+$`);
      break;
    case "IsAlpha":
      e = has("^\\p{L}+$");
      break;
    case "IsAlnum":
      e = has("^[\\p{L}\\p{N}]+$");
      break;
    case "IsSpace":
      e = has("^\\s+$");
      break;
    case "IsLower": // at least one cased character, none upper- or titlecase
      e = has("\\p{Ll}").and(has("[\\p{Lu}\\p{Lt}]").not());
      break;
    case "IsUpper":
      e = has("\\p{Lu}").and(has("[\\p{Ll}\\p{Lt}]").not());
      break;
    case "IsTitle": // uppercase only after uncased characters, lowercase only after cased ones
      e = has(`[${CASED}]`)
        .and(has(`[${CASED}][\\p{Lu}\\p{Lt}]`).not())
        .and(has(`(?:^|[^${CASED}])\\p{Ll}`).not());
      break;
  }
  return e.fillNull(false);
}

function isLeap(year: pl.Expr): pl.Expr {
  return year
    .modulo(4)
    .eq(0)
    .and(year.modulo(100).neq(0).or(year.modulo(400).eq(0)));
}

/** pandas .dt.is_month_start etc. (the time of day is ignored); null values do not match. */
export function datePartExpr(col: pl.Expr, test: DatePartTest): pl.Expr {
  const day = col.dt.day();
  const month = col.dt.month();
  const leap = isLeap(col.dt.year().cast(pl.Int64));
  const lastDay = pl
    .when(month.eq(2))
    .then(pl.when(leap).then(pl.lit(29)).otherwise(pl.lit(28)))
    .when(month.isIn([4, 6, 9, 11]))
    .then(pl.lit(30))
    .otherwise(pl.lit(31));
  const monthEnd = day.cast(pl.Int64).eq(lastDay);
  let e: pl.Expr;
  switch (test) {
    case "IsMonthStart":
      e = day.eq(1);
      break;
    case "IsMonthEnd":
      e = monthEnd;
      break;
    case "IsQuarterStart":
      e = day.eq(1).and(month.isIn([1, 4, 7, 10]));
      break;
    case "IsQuarterEnd":
      e = monthEnd.and(month.isIn([3, 6, 9, 12]));
      break;
    case "IsYearStart":
      e = day.eq(1).and(month.eq(1));
      break;
    case "IsYearEnd":
      e = day.eq(31).and(month.eq(12));
      break;
    case "IsLeapYear":
      e = leap;
      break;
  }
  return e.fillNull(false);
}
