// pandas' float reading in polars (csv-float-text.ts) against the same steps one value at a time (csv-numbers.ts'
// readFloat, pandas 1.5's precise_xstrtod), on seeded texts of every shape: long decimals, leading zeros, exponents.
import pl from "nodejs-polars";
import { describe, expect, it } from "vitest";
import { pandasFloats, pandasFloatsOfText } from "../../src/ingest/csv-float-text.ts";
import { readFloat } from "../../src/ingest/csv-numbers.ts";

function texts(seed: number, count: number): string[] {
  let state = seed;
  const rnd = () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 4294967296;
  };
  const digits = (n: number) => Array.from({ length: n }, () => String(Math.floor(rnd() * 10))).join("");
  const sign = () => (rnd() < 0.3 ? "-" : rnd() < 0.1 ? "+" : "");
  const odd = [" 1.5", "1.5 ", "inf", "-inf", "nan", "1e", ".", "-", "1.2.3", "e5", "12345678901234567890123", "-0.0", "5.", ".5"];
  return Array.from({ length: count }, () => {
    const k = rnd();
    if (k < 0.3) return String((rnd() < 0.2 ? -1 : 1) * rnd() * 10 ** Math.floor(rnd() * 40 - 20));
    if (k < 0.6) return `${sign()}${digits(Math.floor(rnd() * 5))}.${digits(Math.floor(rnd() * 25))}`;
    if (k < 0.8) {
      const mantissa = `${digits(1 + Math.floor(rnd() * 22))}${rnd() < 0.5 ? `.${digits(Math.floor(rnd() * 10))}` : ""}`;
      return `${sign()}${mantissa}${rnd() < 0.5 ? "e" : "E"}${sign()}${Math.floor(rnd() * 330)}`;
    }
    if (k < 0.95) return `0.${"0".repeat(Math.floor(rnd() * 8))}${digits(Math.floor(rnd() * 20) + 1)}`;
    return odd[Math.floor(rnd() * odd.length)] as string;
  });
}

describe("pandas' float reading over a text column", () => {
  for (const seed of [7, 99, 2024]) {
    it(`gives precise_xstrtod's double for every text it reads (seed ${seed})`, () => {
      const input = texts(seed, 20_000);
      const { value, read } = pandasFloatsOfText(pl.Series("t", input));
      const values = value.toArray();
      const reads = read.toArray();
      let compared = 0;
      input.forEach((text, i) => {
        const expected = readFloat(text, ".", undefined);
        if (reads[i]) {
          compared += 1;
          expect(Object.is(values[i], expected), `${text}: ${values[i]} vs ${expected}`).toBe(true);
        } else if (expected !== undefined && Number.isFinite(expected)) {
          // Only exponents below -308 (pandas divides twice there) are left to the slow read.
          expect(text, text).toMatch(/e-3\d\d$/i);
        }
      });
      expect(compared).toBeGreaterThan(17_000);
    });
  }

  it("replaces polars' correctly rounded values where pandas rounds otherwise, keeping inf, nan and nulls", () => {
    const text = pl.Series("w", ["0.12345678901234567", "0.00000000000000000001234", "inf", "nan", null, "1.5"], pl.Utf8);
    const out = pandasFloats(text.cast(pl.Float64), text);
    expect(out?.toArray()).toEqual([0.1234567890123456, 0, Number.POSITIVE_INFINITY, Number.NaN, null, 1.5]);
    expect(out?.name).toBe("w");
  });

  it("gives up on text pandas would not read as floats (an overflow)", () => {
    const text = pl.Series("w", ["1.5", "1e400"], pl.Utf8);
    expect(pandasFloats(text.cast(pl.Float64), text)).toBeUndefined();
  });
});
