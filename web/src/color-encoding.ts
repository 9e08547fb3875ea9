// Colors one axis from its color binding: literal #rrggbb values, a palette for text, a ramp for numbers.
import { DataType, type Vector } from "apache-arrow";
import { isNumericType, readNumbers, readStrings } from "./column-values.ts";
import { CATEGORICAL, categoricalRgb, isHexColor, MISSING, parseHex, rampCss, rampInto } from "./palette.ts";

export type LegendEntry = { label: string; color: string; count: number };

export type ColorLegend =
  | { kind: "categories"; column: string; entries: LegendEntry[]; more: number }
  | { kind: "gradient"; column: string; css: string; min: string; max: string }
  | { kind: "literal"; column: string; entries: LegendEntry[]; more: number };

export type ColorEncoding = { rgba: Float32Array; legend: ColorLegend };

const LEGEND_ROWS = 10;
/** Ties in frequency are listed as people count: c2 before c10. */
const naturalOrder = new Intl.Collator("en", { numeric: true });
const missingRgb = parseHex(MISSING) ?? [0.4, 0.4, 0.4];

export function encodeColors(vector: Vector, column: string): ColorEncoding {
  const rgba = new Float32Array(vector.length * 4);
  if (isNumericType(vector.type) && !DataType.isDictionary(vector.type)) return encodeRamp(vector, column, rgba);
  const words = readStrings(vector);
  const counts = new Map<string, number>();
  let literal = true;
  for (const word of words) {
    if (word === null) continue;
    counts.set(word, (counts.get(word) ?? 0) + 1);
    if (literal && !isHexColor(word)) literal = false;
  }
  literal &&= counts.size > 0;
  // Most frequent first, so the palette's first colors go to the categories that cover the most rows.
  const ranked = [...counts.entries()].sort((a, b) => b[1] - a[1] || naturalOrder.compare(a[0], b[0]));
  const colorOf = new Map<string, readonly [number, number, number]>();
  ranked.forEach(([word], i) => {
    colorOf.set(word, literal ? (parseHex(word) ?? missingRgb) : categoricalRgb(i));
  });
  for (let i = 0; i < words.length; i++) {
    const word = words[i];
    const rgb = word === null || word === undefined ? missingRgb : (colorOf.get(word) ?? missingRgb);
    rgba.set(rgb, i * 4);
    rgba[i * 4 + 3] = 1;
  }
  const entries = ranked.slice(0, LEGEND_ROWS).map(([label, count], i) => ({
    label,
    count,
    color: literal ? label : (CATEGORICAL[i % CATEGORICAL.length] ?? MISSING),
  }));
  return { rgba, legend: { kind: literal ? "literal" : "categories", column, entries, more: Math.max(0, ranked.length - LEGEND_ROWS) } };
}

function encodeRamp(vector: Vector, column: string, rgba: Float32Array): ColorEncoding {
  const numbers = readNumbers(vector);
  const span = numbers.max - numbers.min;
  for (let i = 0; i < vector.length; i++) {
    const value = numbers.values[i] ?? Number.NaN;
    if (Number.isNaN(value)) rgba.set(missingRgb, i * 4);
    else rampInto(span > 0 ? (value - numbers.min) / span : 0.5, rgba, i * 4);
    rgba[i * 4 + 3] = 1;
  }
  const format = numbers.kind === "time" ? formatTime : formatNumber;
  return { rgba, legend: { kind: "gradient", column, css: rampCss(), min: format(numbers.min), max: format(numbers.max) } };
}

export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (Number.isInteger(value)) return value.toLocaleString("en-US");
  return value.toLocaleString("en-US", { maximumSignificantDigits: 4 });
}

function formatTime(ms: number): string {
  const date = new Date(ms);
  return Number.isNaN(date.getTime())
    ? String(ms)
    : date
        .toISOString()
        .replace("T", " ")
        .replace(/(:00)?\.000Z$/, "Z");
}
