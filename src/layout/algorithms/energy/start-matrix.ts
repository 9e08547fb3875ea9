// igraph's `seed` start matrix (python-igraph's `seed=[[x, y], ...]`): one row of `dims` finite numbers per vertex,
// checked here so a bad matrix answers 400 naming the parameter.
import { ComputeInputError } from "../../../compute/types.ts";

/** The rows of `value` as node-major positions, or null when no start matrix was given. */
export function startMatrix(value: unknown, n: number, dims: 2 | 3, field = "seed"): Float64Array | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value))
    throw new ComputeInputError(`${field} must be a list of [x, y${dims === 3 ? ", z" : ""}] rows, one per vertex`, field);
  if (value.length !== n) throw new ComputeInputError(`${field} has ${value.length} rows; the graph has ${n} vertices`, field);
  const out = new Float64Array(n * dims);
  for (let i = 0; i < n; i++) {
    const row = value[i] as unknown;
    if (!Array.isArray(row) || row.length !== dims) throw new ComputeInputError(`${field}[${i}] must be a list of ${dims} numbers`, field);
    for (let d = 0; d < dims; d++) {
      const v = row[d] as unknown;
      if (typeof v !== "number" || !Number.isFinite(v)) throw new ComputeInputError(`${field}[${i}][${d}] must be a finite number`, field);
      out[i * dims + d] = v;
    }
  }
  return out;
}
