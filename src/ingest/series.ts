// Builds polars columns from JavaScript values without losing any: uniform types stay typed, mixes become text.
import pl from "nodejs-polars";

type Kind = "number" | "bigint" | "string" | "boolean" | "date" | "object";

function kindOf(value: unknown): Kind {
  if (value instanceof Date) return "date";
  if (Array.isArray(value)) return "object";
  return typeof value as Kind;
}

function text(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "object") return JSON.stringify(value, (_key, v) => (typeof v === "bigint" ? v.toString() : v));
  return String(value);
}

/**
 * One column from values (null or undefined for missing). polars would turn values of an
 * unexpected type into nulls, so a column of mixed types is kept as text (nested values as JSON).
 */
export function seriesOf(name: string, values: readonly unknown[]): pl.Series {
  const present = values.filter((v) => v !== null && v !== undefined);
  const kinds = new Set(present.map(kindOf));
  const filled = values.map((v) => v ?? null);
  if (kinds.size === 0) return pl.Series(name, filled, pl.Utf8);
  if (kinds.size === 1) {
    const [kind] = kinds;
    if (kind === "number") {
      // Whole numbers are integers to pandas (int64), not floats.
      const integral = present.every((v) => Number.isSafeInteger(v));
      return integral ? pl.Series(name, filled, pl.Int64) : pl.Series(name, filled, pl.Float64);
    }
    if (kind === "string" || kind === "boolean") return pl.Series(name, filled);
    if (kind === "date") return pl.Series(name, filled, pl.Datetime("ms"));
    if (kind === "bigint") {
      const fits = present.every((v) => (v as bigint) >= -(2n ** 63n) && (v as bigint) < 2n ** 63n);
      if (fits) return pl.Series(name, filled, pl.Int64);
    }
  }
  if (kinds.size === 2 && kinds.has("number") && kinds.has("bigint")) {
    return pl.Series(
      name,
      filled.map((v) => (v === null ? null : Number(v))),
      pl.Float64,
    );
  }
  return pl.Series(
    name,
    filled.map((v) => (v === null ? null : text(v))),
    pl.Utf8,
  );
}

/** Column names as pandas makes them: blanks become "Unnamed: i", repeats get ".1", ".2"... */
export function uniqueNames(raw: readonly unknown[]): string[] {
  const seen = new Map<string, number>();
  return raw.map((value, i) => {
    let name = value === null || value === undefined || String(value).trim() === "" ? `Unnamed: ${i}` : text(value);
    const count = seen.get(name) ?? 0;
    seen.set(name, count + 1);
    if (count > 0) name = `${name}.${count}`;
    return name;
  });
}
