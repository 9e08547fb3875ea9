// Where igraph's Kamada-Kawai starts and what bounds it keeps: the given start matrix (`seed`), a random layout
// inside the coordinate bounds when any are given, else the circle (2D) or sphere (3D) of radius 0.36·√n.
import { ComputeInputError } from "../../../compute/types.ts";
import { seededRandom } from "../../seeded.ts";
import type { Dims } from "../../types.ts";
import { exactAcos, exactCos, exactSin } from "./exact-trig.ts";

/** Per-vertex lower and upper bounds of each axis (null = none; an unbounded vertex holds ∓Infinity). */
export type Bounds = { min: (Float64Array | null)[]; max: (Float64Array | null)[] };

const AXES = ["x", "y", "z"] as const;

/** A `json` parameter holding n numbers per vertex (null entries = no bound there), or null. */
function boundVector(value: unknown, n: number, field: string, missing: number): Float64Array | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value) || value.length !== n)
    throw new ComputeInputError(`${field} must be a list of ${n} numbers (one per vertex) or null`, field);
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const v = value[i];
    if (v === null) out[i] = missing;
    else if (typeof v === "number" && !Number.isNaN(v)) out[i] = v;
    else throw new ComputeInputError(`${field}[${i}] must be a number or null`, field);
  }
  return out;
}

/** minx/maxx, miny/maxy (and minz/maxz) from the request, checked as igraph checks them. */
export function parseBounds(params: Record<string, unknown>, n: number, dims: Dims): Bounds {
  const bounds: Bounds = { min: [], max: [] };
  for (let d = 0; d < dims; d++) {
    const axis = AXES[d] as string;
    const lo = boundVector(params[`min${axis}`], n, `min${axis}`, Number.NEGATIVE_INFINITY);
    const hi = boundVector(params[`max${axis}`], n, `max${axis}`, Number.POSITIVE_INFINITY);
    if (lo && hi)
      for (let i = 0; i < n; i++)
        if ((lo[i] as number) > (hi[i] as number))
          throw new ComputeInputError(`min${axis} must not be greater than max${axis} (vertex ${i})`, `min${axis}`);
    bounds.min.push(lo);
    bounds.max.push(hi);
  }
  return bounds;
}

export const hasBounds = (b: Bounds): boolean => b.min.some((v) => v !== null) || b.max.some((v) => v !== null);

/** igraph's `seed`: a start matrix of n rows of `dims` finite numbers, node-major; null when not given. */
export function parseStartMatrix(value: unknown, n: number, dims: Dims, field = "seed"): Float64Array | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value) || value.length !== n)
    throw new ComputeInputError(`${field} must be a list of ${n} rows [x, y${dims === 3 ? ", z" : ""}], one per vertex`, field);
  const out = new Float64Array(n * dims);
  for (let i = 0; i < n; i++) {
    const row = value[i];
    if (!Array.isArray(row) || row.length !== dims) throw new ComputeInputError(`${field}[${i}] must be a row of ${dims} numbers`, field);
    for (let d = 0; d < dims; d++) {
      const v = row[d];
      if (typeof v !== "number" || !Number.isFinite(v)) throw new ComputeInputError(`${field}[${i}] must hold finite numbers`, field);
      out[i * dims + d] = v;
    }
  }
  return out;
}

/** igraph_layout_circle scaled by 0.36·√n (the Kamada-Kawai start without bounds). */
export function kkCircle(n: number): Float64Array {
  const out = new Float64Array(n * 2);
  const scale = 0.36 * Math.sqrt(n);
  for (let i = 0; i < n; i++) {
    const phi = ((2 * Math.PI) / n) * i;
    out[i * 2] = exactCos(phi) * scale;
    out[i * 2 + 1] = exactSin(phi) * scale;
  }
  return out;
}

/** igraph_layout_sphere (points spiralling from pole to pole) scaled by 0.36·√n: the 3D start. */
export function kkSphere(n: number): Float64Array {
  const theta = new Float64Array(n);
  const phi = new Float64Array(n);
  if (n !== 0) theta[0] = Math.PI;
  for (let i = 1; i < n - 1; i++) {
    const h = -1 + (2 * i) / (n - 1);
    theta[i] = exactAcos(h);
    phi[i] = ((phi[i - 1] as number) + 3.6 / Math.sqrt(n * (1 - h * h))) % (2 * Math.PI);
  }
  if (n >= 2) theta[n - 1] = 0;
  const scale = 0.36 * Math.sqrt(n);
  const out = new Float64Array(n * 3);
  for (let i = 0; i < n; i++) {
    const t = theta[i] as number;
    const p = phi[i] as number;
    out[i * 3] = exactCos(p) * exactSin(t) * scale;
    out[i * 3 + 1] = exactSin(p) * exactSin(t) * scale;
    out[i * 3 + 2] = exactCos(t) * scale;
  }
  return out;
}

/**
 * igraph_i_layout_random_bounded(_3d): each vertex uniform in its box; an axis without bounds spans ±√n/2, widened
 * to reach the bounds given for other vertices. Seeded, so the same request starts the same way.
 */
export function randomBounded(n: number, dims: Dims, bounds: Bounds, seed: number): Float64Array {
  const half = Math.sqrt(n) / 2;
  const random = seededRandom(seed);
  const lo: number[] = [];
  const hi: number[] = [];
  for (let d = 0; d < dims; d++) {
    let dmin = -half;
    let dmax = half;
    const mins = bounds.min[d];
    const maxs = bounds.max[d];
    if (mins && n > 0) {
      const m = mins.reduce((a, b) => Math.max(a, b), Number.NEGATIVE_INFINITY);
      if (m === Number.POSITIVE_INFINITY) throw new ComputeInputError("infinite lower coordinate bound", `min${AXES[d]}`);
      if (m > dmax) dmax += m;
    }
    if (maxs && n > 0) {
      const m = maxs.reduce((a, b) => Math.min(a, b), Number.POSITIVE_INFINITY);
      if (m === Number.NEGATIVE_INFINITY) throw new ComputeInputError("infinite upper coordinate bound", `max${AXES[d]}`);
      if (m < dmin) dmin -= m;
    }
    lo.push(dmin);
    hi.push(dmax);
  }
  const out = new Float64Array(n * dims);
  for (let i = 0; i < n; i++)
    for (let d = 0; d < dims; d++) {
      let a = bounds.min[d] ? (bounds.min[d]?.[i] as number) : (lo[d] as number);
      let b = bounds.max[d] ? (bounds.max[d]?.[i] as number) : (hi[d] as number);
      if (!Number.isFinite(a)) a = -half;
      if (!Number.isFinite(b)) b = half;
      out[i * dims + d] = a + random() * (b - a);
    }
  return out;
}
