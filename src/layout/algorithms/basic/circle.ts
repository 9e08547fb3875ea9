// igraph's layout_circle (2D): vertex i at angle 2*pi*i/n on the unit circle; with `order`, the listed vertices
// in that order around the circle and every other vertex at the origin.
import type { ComputeGraph } from "../../../../kernels/cpu/csr.ts";
import { ComputeInputError } from "../../../compute/types.ts";

export function circlePositions(graph: ComputeGraph, order: Int32Array | null | undefined): Float64Array {
  const n = graph.n;
  const out = new Float64Array(n * 2);
  if (!order) {
    for (let i = 0; i < n; i++) {
      const a = (2 * Math.PI * i) / n;
      out[i * 2] = Math.cos(a);
      out[i * 2 + 1] = Math.sin(a);
    }
    return out;
  }
  const seen = new Uint8Array(n);
  for (let k = 0; k < order.length; k++) {
    const v = order[k] as number;
    if (seen[v]) throw new ComputeInputError("order lists a vertex twice", "order");
    seen[v] = 1;
    const a = (2 * Math.PI * k) / order.length;
    out[v * 2] = Math.cos(a);
    out[v * 2 + 1] = Math.sin(a);
  }
  return out;
}
