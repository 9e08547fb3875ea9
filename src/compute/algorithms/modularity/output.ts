// Helpers every modularity entry shares: the membership column it answers and the parameters it reads.
import type { ComputeOutput } from "../../types.ts";
import { ComputeInputError } from "../../types.ts";

/** A clustering as igraph's membership / cuGraph's partition: one int64 column named by the label. */
export function membershipOutput(label: string, membership: Int32Array): ComputeOutput {
  return { kind: "nodes", columns: [{ name: label, values: membership, type: "int64" }] };
}

/** An optional per-edge column parameter (igraph's `weights`). */
export function edgeValues(params: Record<string, unknown>, name: string): Float64Array | null {
  const v = params[name];
  return v instanceof Float64Array ? v : null;
}

/** A per-node integer column (memberships, labels): finite integers, one per node. */
export function nodeLabels(params: Record<string, unknown>, name: string, n: number): Int32Array | null {
  const v = params[name];
  if (!(v instanceof Float64Array)) return null;
  if (v.length !== n) throw new ComputeInputError(`${name} must give one value per node`, name);
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const x = v[i] as number;
    if (!Number.isInteger(x) || Math.abs(x) > 2 ** 31 - 1)
      throw new ComputeInputError(`${name} must hold integers (node row ${i}: ${x})`, name);
    out[i] = x;
  }
  return out;
}

/** A number parameter, or its fallback when absent or null. */
export function num(params: Record<string, unknown>, name: string, fallback: number): number {
  const v = params[name];
  return typeof v === "number" ? v : fallback;
}
