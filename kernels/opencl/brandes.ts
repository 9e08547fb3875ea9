// OpenCL version of kernel "brandes" (same args and result as kernels/cpu/brandes.ts): lanes each run whole
// single-source passes (the sources spread over them); sums added atomically, so only their order differs.
import type { BrandesArgs, BrandesResult } from "../cpu/brandes.ts";
import { lanes, Scope } from "./runtime.ts";

const EMPTY = new Int32Array(0);

export function brandesOpenCl(args: BrandesArgs): BrandesResult {
  const { n, start, nbr, link, links, sources, cutoff, endpoints } = args;
  const node = new Float64Array(n);
  const edge = link ? new Float64Array(links) : null;
  if (n === 0 || sources.length === 0) return { node, edge };
  const { lanes: count, local } = lanes(sources.length, 24 * n);
  const scope = new Scope();
  try {
    const dNode = scope.input(node);
    const dEdge = scope.input(edge ?? new Float64Array(0));
    scope.runGroups(
      "brandes",
      "brandes_lanes",
      "immmimiiiimmmmmm",
      [
        n,
        scope.readOnly(start),
        scope.readOnly(nbr),
        scope.readOnly(link ?? EMPTY),
        link ? 1 : 0,
        scope.readOnly(sources),
        sources.length,
        cutoff,
        endpoints ? 1 : 0,
        count,
        scope.filled(new Int32Array([-1]), count * n),
        scope.filled(new Float64Array([0]), count * n),
        scope.filled(new Float64Array([0]), count * n),
        scope.alloc(4 * count * n),
        dNode,
        dEdge,
      ],
      count,
      local,
    );
    scope.read(dNode, node);
    if (edge) scope.read(dEdge, edge);
    return { node, edge };
  } finally {
    scope.done();
  }
}
