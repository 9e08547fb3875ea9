// Scales a numeric binding (size, width, opacity, weight) into a per-row Float32Array for the renderer.
import type { Vector } from "apache-arrow";
import { isNumericType, readNumbers } from "./column-values.ts";

export type Range = { low: number; high: number; fallback: number };

export const EDGE_WIDTH: Range = { low: 0.5, high: 4, fallback: 1 };
export const OPACITY: Range = { low: 0.15, high: 1, fallback: 1 };
export const LINK_STRENGTH: Range = { low: 0.05, high: 1, fallback: 0.5 };

/** One value per row in [range.low, range.high]; rows without a number get the fallback. Undefined for non-numbers. */
export function scaleColumn(vector: Vector, range: Range, curve: "linear" | "sqrt" = "linear"): Float32Array | undefined {
  if (!isNumericType(vector.type)) return undefined;
  const numbers = readNumbers(vector);
  const out = new Float32Array(vector.length);
  const span = numbers.max - numbers.min;
  for (let i = 0; i < out.length; i++) {
    const value = numbers.values[i] ?? Number.NaN;
    if (Number.isNaN(value)) {
      out[i] = range.fallback;
      continue;
    }
    let t = span > 0 ? (value - numbers.min) / span : 1;
    if (curve === "sqrt") t = Math.sqrt(t);
    out[i] = range.low + (range.high - range.low) * t;
  }
  return out;
}

/** Opacity values already in [0, 1] are used as given; anything else is scaled into the opacity range. */
export function opacityColumn(vector: Vector): Float32Array | undefined {
  if (!isNumericType(vector.type)) return undefined;
  const numbers = readNumbers(vector);
  if (numbers.min < 0 || numbers.max > 1) return scaleColumn(vector, OPACITY);
  const out = new Float32Array(vector.length);
  for (let i = 0; i < out.length; i++) {
    const value = numbers.values[i] ?? Number.NaN;
    out[i] = Number.isNaN(value) ? OPACITY.fallback : value;
  }
  return out;
}

/** Multiplies each row's alpha (every fourth value of an RGBA array) by its opacity. */
export function applyOpacity(rgba: Float32Array, opacity: Float32Array | undefined): void {
  if (!opacity) return;
  for (let i = 0; i < opacity.length; i++) rgba[i * 4 + 3] = (rgba[i * 4 + 3] ?? 1) * (opacity[i] ?? 1);
}

/** Picks the rows of a per-edge-row array that belong to drawn links (links whose endpoints exist). */
export function pickRows(values: Float32Array, rows: Int32Array | undefined, stride: number): Float32Array {
  if (!rows) return values;
  const out = new Float32Array(rows.length * stride);
  for (let i = 0; i < rows.length; i++) {
    const from = (rows[i] ?? 0) * stride;
    for (let k = 0; k < stride; k++) out[i * stride + k] = values[from + k] ?? 0;
  }
  return out;
}
