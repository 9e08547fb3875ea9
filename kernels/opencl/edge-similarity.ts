// OpenCL version of kernel "edge-similarity" (same args and result as kernels/cpu/edge-similarity.ts).
import type { EdgeSimilarityArgs } from "../cpu/edge-similarity.ts";
import { Scope } from "./runtime.ts";

export function edgeSimilarityOpenCl(args: EdgeSimilarityArgs): Float64Array {
  const { start, nbr, wt, total, src, dst, metric } = args;
  const out = new Float64Array(src.length);
  if (src.length === 0) return out;
  const scope = new Scope();
  try {
    const dOut = scope.alloc(8 * src.length);
    scope.run(
      "edge-similarity",
      "edge_similarity",
      "immmimmmim",
      [
        src.length,
        scope.readOnly(start),
        scope.readOnly(nbr),
        scope.readOnly(wt),
        wt.length > 0 ? 1 : 0,
        scope.readOnly(total),
        scope.readOnly(src),
        scope.readOnly(dst),
        metric,
        dOut,
      ],
      src.length,
    );
    return scope.read(dOut, out);
  } finally {
    scope.done();
  }
}
