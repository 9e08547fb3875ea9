// Histograms of one column, computed in the browser from its Arrow vector: bins for numbers and times, the most
// frequent values (with counts) for text.
import type { Vector } from "apache-arrow";
import { isNumericType, isTimeType, readNumbers } from "./column-values.ts";
import { formatValue } from "./node-text.ts";

export type NumericHistogram = {
  kind: "number" | "time";
  /** Per row, NaN where the row has no value. */
  values: Float64Array;
  min: number;
  max: number;
  /** counts[b] rows fall in [min + b*width, min + (b+1)*width) (the last bin includes max). */
  counts: Uint32Array;
  width: number;
};

export type TextHistogram = {
  kind: "text";
  /** Per row, null where the row has no value. */
  values: (string | null)[];
  /** The most frequent values first (ties by value), at most `limit`. */
  top: { value: string; count: number }[];
  /** How many distinct values there are in all. */
  distinct: number;
};

export type Histogram = NumericHistogram | TextHistogram;

export const BIN_COUNT = 20;
export const TOP_VALUES = 12;

/** Rows of a text column read between two yields to the page (about 5-10 ms of work in Chromium here). */
export const TEXT_SLICE_ROWS = 8192;

export function histogramOf(vector: Vector): Histogram {
  if (isNumericType(vector.type)) {
    const column = readNumbers(vector);
    return numericHistogram(column.values, column.min, column.max, isTimeType(vector.type) ? "time" : "number");
  }
  const values = new Array<string | null>(vector.length);
  readText(vector, values, 0, vector.length);
  return textHistogram(values, TOP_VALUES);
}

/**
 * The same histogram, a text column read a slice of rows at a time with `pause` awaited between slices, so a click
 * that comes while a large column is read is answered after the slice, not after the column (reading 100k strings
 * out of Arrow takes 20-90 ms in Node here, more on a busy page).
 */
export async function histogramInSlices(vector: Vector, pause: () => Promise<void>, slice = TEXT_SLICE_ROWS): Promise<Histogram> {
  if (isNumericType(vector.type)) return histogramOf(vector);
  const values = new Array<string | null>(vector.length);
  for (let from = 0; from < vector.length; from += slice) {
    if (from > 0) await pause();
    readText(vector, values, from, Math.min(vector.length, from + slice));
  }
  return textHistogram(values, TOP_VALUES);
}

function readText(vector: Vector, values: (string | null)[], from: number, to: number): void {
  for (let i = from; i < to; i++) {
    const value: unknown = vector.get(i);
    values[i] = value === null || value === undefined ? null : formatValue(value);
  }
}

export function numericHistogram(
  values: Float64Array,
  min: number,
  max: number,
  kind: "number" | "time",
  bins = BIN_COUNT,
): NumericHistogram {
  const counts = new Uint32Array(bins);
  const width = max > min ? (max - min) / bins : 1;
  for (const value of values) {
    if (Number.isNaN(value)) continue;
    const bin = binOf(value, min, width, bins);
    counts[bin] = (counts[bin] ?? 0) + 1;
  }
  return { kind, values, min, max, counts, width };
}

export function binOf(value: number, min: number, width: number, bins: number): number {
  return Math.min(bins - 1, Math.max(0, Math.floor((value - min) / width)));
}

export function textHistogram(values: (string | null)[], limit: number): TextHistogram {
  const counts = new Map<string, number>();
  for (const value of values) if (value !== null) counts.set(value, (counts.get(value) ?? 0) + 1);
  const top = [...counts]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, limit)
    .map(([value, count]) => ({ value, count }));
  return { kind: "text", values, top, distinct: counts.size };
}
