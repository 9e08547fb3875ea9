// igraph's layout_star: the center vertex at the origin, every other vertex on the unit circle, in vertex order
// (or `order`, which lists every vertex, the center included), starting at angle 0 with steps of 2*pi/(n-1).
import type { ComputeGraph } from "../../../../kernels/cpu/csr.ts";
import { ComputeInputError } from "../../../compute/types.ts";

export function starPositions(graph: ComputeGraph, center: number, order: Int32Array | null | undefined): Float64Array {
  const n = graph.n;
  const out = new Float64Array(n * 2);
  if (n > 0 && (center < 0 || center >= n)) throw new ComputeInputError("center is not a vertex of the graph", "center");
  if (order && order.length !== n)
    throw new ComputeInputError(`order must list every vertex once (${n} vertices, got ${order.length})`, "order");
  if (order) {
    const seen = new Uint8Array(n);
    for (const v of order) {
      if (seen[v]) throw new ComputeInputError("order lists a vertex twice", "order");
      seen[v] = 1;
    }
  }
  if (n <= 1) return out;
  const step = (2 * Math.PI) / (n - 1);
  let phi = 0;
  for (let i = 0; i < n; i++) {
    const node = order ? (order[i] as number) : i;
    if (node === center) continue;
    out[node * 2] = Math.cos(phi);
    out[node * 2 + 1] = Math.sin(phi);
    phi += step;
  }
  return out;
}
