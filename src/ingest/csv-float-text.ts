// pandas' float reading (tokenizer.c's precise_xstrtod, read_csv's default float_precision) over a text column,
// as polars expressions: the same 17 digits kept, the same double operations in the same order and the same powers
// of ten, so each value is the double pandas holds (readFloat in csv-numbers.ts is the same steps one value at a
// time). This keeps default-option uploads on polars' reader where pandas would round a long decimal otherwise.
import pl from "nodejs-polars";

const MAX_DIGITS = 17;
/** The shapes precise_xstrtod reads whole: sign, digits, a decimal point and digits, an exponent of 1 to 17 digits. */
const SHAPE = "^([+-]?)([0-9]*)(?:\\.([0-9]*))?(?:[eE]([+-]?[0-9]{1,17}))?$";
/** e[] of precise_xstrtod: the doubles nearest 1e0 ... 1e308 (JavaScript's literals are correctly rounded, as C's are). */
const EXPONENTS = Array.from({ length: 309 }, (_, i) => i);
const POWERS = EXPONENTS.map((i) => Number(`1e${i}`));

const power = (index: pl.Expr) => index.clip(0, 308).replaceStrict(EXPONENTS, POWERS, 1, pl.Float64);
const col = pl.col;

/**
 * The steps over a frame with a `text` column, each stage a column of its own (an expression tree that repeats
 * its parts would evaluate them again and again): `value` is the double pandas reads (null where the text is not
 * of the digit shape), `read` whether pandas reads it without an error (false for overflow past 1e308).
 */
function withPandasFloats(input: pl.DataFrame): pl.DataFrame {
  const frame = input.withColumns(col("text").str.strip().alias("s"));
  // Exponents and signs are rare in most columns: the regular expressions that handle them run only where needed.
  const [seen] = frame
    .select(col("s").str.contains("[eE]").any().alias("exponent"), col("s").str.contains("^[+-]").any().alias("sign"))
    .toRecords();
  const mantissa = seen?.exponent === true ? col("s").str.replace("[eE].*$", "") : col("s");
  const unsigned = seen?.sign === true ? mantissa.str.replace("^[+-]", "") : mantissa;
  return (
    frame
      .withColumns(
        col("s").str.contains(SHAPE).alias("matched"),
        col("s").str.startsWith("-").alias("negative"),
        // The digits before the exponent (sign and point dropped), the whole part's, and the written exponent.
        unsigned.str.replace(".", "", true).alias("digits"),
        unsigned.str.extract("^([0-9]*)", 1).str.lengths().cast(pl.Int64).alias("wholeCount"),
        seen?.exponent === true
          ? col("s").str.extract("[eE]([+-]?[0-9]+)$", 1).fillNull(pl.lit("0")).cast(pl.Int64).alias("written")
          : pl.lit(0).cast(pl.Int64).alias("written"),
      )
      .drop("s")
      .withColumns(col("digits").str.lengths().cast(pl.Int64).alias("count"))
      .withColumns(
        // number = number * 10 + digit, digit by digit: exact up to 15 digits (below 2^53), rounded at the 16th and 17th.
        col("digits").str.slice(0, 15).cast(pl.Int64).cast(pl.Float64).alias("head"),
        col("digits").str.slice(15, 1).cast(pl.Float64).alias("d16"),
        col("digits").str.slice(16, 1).cast(pl.Float64).alias("d17"),
        // Digits past the 17th: in the whole part each raises the exponent, in the fraction they are dropped.
        col("written")
          .add(pl.when(col("wholeCount").gt(MAX_DIGITS)).then(col("wholeCount").sub(MAX_DIGITS)).otherwise(pl.lit(0)))
          .sub(
            pl
              .when(col("count").gt(MAX_DIGITS))
              .then(pl.lit(MAX_DIGITS))
              .otherwise(col("count"))
              .sub(col("wholeCount"))
              .clip(0, MAX_DIGITS),
          )
          .alias("exponent"),
      )
      // Intermediate text columns go as soon as they are read: at a million values each is tens of MiB.
      .drop("digits")
      .withColumns(
        pl
          .when(col("count").gt(15))
          .then(col("head").mul(pl.lit(10.0)).add(col("d16")))
          .otherwise(col("head"))
          .alias("n16"),
        power(col("exponent").abs()).alias("power"),
      )
      .withColumns(
        pl
          .when(col("count").gt(16))
          .then(col("n16").mul(pl.lit(10.0)).add(col("d17")))
          .otherwise(col("n16"))
          .alias("n17"),
      )
      .withColumns(
        pl
          .when(col("negative"))
          .then(col("n17").mul(pl.lit(-1.0)))
          .otherwise(col("n17"))
          .alias("signed"),
      )
      .withColumns(
        pl
          .when(col("exponent").gt(0))
          .then(col("signed").mul(col("power")))
          .otherwise(col("signed").div(col("power")))
          .alias("scaled"),
        col("matched").and(col("count").gt(0)).alias("shaped"),
      )
      .withColumns(
        pl.when(col("shaped")).then(col("scaled")).otherwise(pl.lit(null).cast(pl.Float64)).alias("value"),
        // Past 1e308 pandas reports an overflow; below 1e-308 it divides twice (number / 10^k / 1e308), which polars
        // would not do the same way (it turns a division by a constant into a multiplication): read those the slow way.
        col("shaped").and(col("exponent").ltEq(308)).and(col("exponent").gtEq(-308)).and(col("scaled").isFinite()).alias("read"),
      )
  );
}

/** The double pandas reads from each text (null where not of the digit shape), and whether it reads it at all. */
export function pandasFloatsOfText(text: pl.Series): { value: pl.Series; read: pl.Series } {
  const out = withPandasFloats(pl.DataFrame([text.alias("text")]));
  return { value: out.getColumn("value"), read: out.getColumn("read") };
}

/**
 * `polars`, a Float64 column polars read correctly rounded, made the doubles pandas reads from `text`, the same
 * rows as text. Undefined where pandas would not read every value as a float (an overflow, a shape it refuses):
 * the caller then reads the file the slow way. Texts not of the digit shape (inf, nan, missing) keep polars'
 * value, which pandas shares (its special cases after precise_xstrtod).
 */
export function pandasFloats(polars: pl.Series, text: pl.Series): pl.Series | undefined {
  const frame = withPandasFloats(pl.DataFrame([polars.alias("polars"), text.alias("text")]));
  // A finite polars value from text pandas does not read as digits, or text that overflows: pandas reads it otherwise.
  const [check] = frame
    .select(
      col("shaped")
        .and(col("read").not())
        .or(col("shaped").not().and(col("text").isNotNull()).and(col("polars").isFinite()))
        .any()
        .alias("unread"),
    )
    .toRecords();
  if (check?.unread === true) return undefined;
  return frame.select(pl.when(col("shaped")).then(col("value")).otherwise(col("polars")).alias(polars.name)).getColumn(polars.name);
}
