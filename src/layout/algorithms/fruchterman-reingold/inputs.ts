// The parameters of igraph's layout_fruchterman_reingold that arrive as JSON (python-igraph's keyword names): the
// `seed` start matrix and the per-vertex bounds minx/maxx/miny/maxy/minz/maxz, checked here so a bad value
// answers 400 naming its parameter; and the edge weights, which igraph requires positive.
import { ComputeInputError } from "../../../compute/types.ts";

/** The rows of `seed` as node-major positions, or null when no start matrix was given. */
export function seedMatrix(value: unknown, n: number, dims: 2 | 3): Float64Array | null {
  if (value === undefined || value === null) return null;
  const shape = dims === 3 ? "[x, y, z]" : "[x, y]";
  if (!Array.isArray(value)) throw new ComputeInputError(`seed must be a list of ${shape} rows, one per vertex`, "seed");
  if (value.length !== n) throw new ComputeInputError(`seed has ${value.length} rows; the graph has ${n} vertices`, "seed");
  const out = new Float64Array(n * dims);
  for (let i = 0; i < n; i++) {
    const row = value[i] as unknown;
    if (!Array.isArray(row) || row.length !== dims) throw new ComputeInputError(`seed[${i}] must be a list of ${dims} numbers`, "seed");
    for (let d = 0; d < dims; d++) {
      const v = row[d] as unknown;
      if (typeof v !== "number" || !Number.isFinite(v)) throw new ComputeInputError(`seed[${i}][${d}] must be a finite number`, "seed");
      out[i * dims + d] = v;
    }
  }
  return out;
}

/** One bound vector (a list of n numbers, null entries meaning unbounded), or null when not given. */
export function boundVector(value: unknown, n: number, field: string): Float64Array | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value)) throw new ComputeInputError(`${field} must be a list of numbers, one per vertex`, field);
  if (value.length !== n) throw new ComputeInputError(`${field} has ${value.length} values; the graph has ${n} vertices`, field);
  const lowerSide = field.startsWith("min");
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const v = value[i] as unknown;
    if (v === null) out[i] = lowerSide ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
    else if (typeof v !== "number" || Number.isNaN(v)) throw new ComputeInputError(`${field}[${i}] must be a number or null`, field);
    else if (lowerSide ? v === Number.POSITIVE_INFINITY : v === Number.NEGATIVE_INFINITY)
      throw new ComputeInputError(`${field}[${i}] is an infinite ${lowerSide ? "lower" : "upper"} bound`, field);
    else out[i] = v;
  }
  return out;
}

export const AXES = ["x", "y", "z"] as const;

/** Per-axis lower and upper bound vectors (null where that bound was not given), min <= max checked. */
export type Bounds = { lower: (Float64Array | null)[]; upper: (Float64Array | null)[] };

export function parseBounds(params: Record<string, unknown>, n: number, dims: 2 | 3): Bounds {
  const lower: (Float64Array | null)[] = [];
  const upper: (Float64Array | null)[] = [];
  for (let k = 0; k < dims; k++) {
    const axis = AXES[k] as string;
    const lo = boundVector(params[`min${axis}`], n, `min${axis}`);
    const hi = boundVector(params[`max${axis}`], n, `max${axis}`);
    if (lo && hi) {
      for (let i = 0; i < n; i++)
        if ((lo[i] as number) > (hi[i] as number))
          throw new ComputeInputError(`min${axis} must not be greater than max${axis} (vertex ${i})`, `min${axis}`);
    }
    lower.push(lo);
    upper.push(hi);
  }
  return { lower, upper };
}

/** Whether any bound was given. */
export const hasBounds = (b: Bounds): boolean => b.lower.some(Boolean) || b.upper.some(Boolean);

/** The bounds node-major (n * dims), ±Infinity where none, as the kernel takes them; null when none given. */
export function boundsNodeMajor(b: Bounds, n: number, dims: 2 | 3): { lower: Float64Array; upper: Float64Array } | null {
  if (!hasBounds(b)) return null;
  const lower = new Float64Array(n * dims).fill(Number.NEGATIVE_INFINITY);
  const upper = new Float64Array(n * dims).fill(Number.POSITIVE_INFINITY);
  for (let k = 0; k < dims; k++) {
    const lo = b.lower[k];
    const hi = b.upper[k];
    for (let i = 0; i < n; i++) {
      if (lo) lower[i * dims + k] = lo[i] as number;
      if (hi) upper[i * dims + k] = hi[i] as number;
    }
  }
  return { lower, upper };
}

/** Edge weights: igraph requires every weight positive (and finite here). */
export function checkWeights(weights: Float64Array | null | undefined): Float64Array | null {
  if (!weights) return null;
  for (let e = 0; e < weights.length; e++) {
    const w = weights[e] as number;
    if (!(w > 0) || !Number.isFinite(w))
      throw new ComputeInputError(`weights must be positive for Fruchterman-Reingold (edge ${e} has ${w})`, "weights");
  }
  return weights;
}
