// OpenCL version of kernel "sssp" (same args and result as kernels/cpu/sssp.ts): frontier Bellman-Ford on the
// device (the same exact distances as the twin's Dijkstra), then parents in one pass over the edges. Parents match
// the twin's whenever weights are positive; with zero-weight ties either may name another tight neighbour.
import type { SsspArgs, SsspResult } from "../cpu/sssp.ts";
import { Scope } from "./runtime.ts";

const MAX = new Int32Array([0x7fffffff]);

export function ssspOpenCl(args: SsspArgs): SsspResult {
  const { n, start, nbr, edge, weight, source, cutoff } = args;
  const dist = new Float64Array(n).fill(Number.POSITIVE_INFINITY);
  const pred = new Int32Array(n).fill(-1);
  if (source < 0 || source >= n) return { dist, pred };
  dist[source] = 0;
  const unit = weight.length === 0 ? 1 : 0;
  const scope = new Scope();
  try {
    const dDist = scope.input(dist);
    const dStart = scope.readOnly(start);
    const dNbr = scope.readOnly(nbr);
    const dEdge = scope.readOnly(edge);
    const dWeight = scope.readOnly(weight);
    const queued = scope.filled(new Int32Array([0]), n);
    // Both frontiers hold up to n nodes (they swap each round).
    const first = new Int32Array(n);
    first[0] = source;
    let frontier = scope.input(first);
    let next = scope.alloc(4 * n);
    const counter = scope.alloc(4);
    const zero = new Int32Array(1);
    const got = new Int32Array(1);
    let size = 1;
    while (size > 0) {
      scope.write(counter, zero);
      scope.run(
        "sssp",
        "sssp_relax",
        "immmmmidmmmm",
        [size, frontier, dStart, dNbr, dEdge, dWeight, unit, cutoff, dDist, queued, next, counter],
        size,
      );
      size = scope.read(counter, got)[0] as number;
      if (size > 0) scope.run("sssp", "sssp_unqueue", "imm", [size, next, queued], size);
      const swap = frontier;
      frontier = next;
      next = swap;
    }
    const dPred = scope.filled(MAX, n);
    const dTie = scope.filled(MAX, n);
    const parents = [n, dStart, dNbr, dEdge, dWeight, unit, source, dDist, dPred, dTie];
    scope.run("sssp", "sssp_parents", "immmmiimmmi", [...parents, 0], n);
    scope.run("sssp", "sssp_parents", "immmmiimmmi", [...parents, 1], n);
    scope.run("sssp", "sssp_finish", "imm", [n, dPred, dTie], n);
    scope.read(dPred, pred);
    scope.read(dDist, dist);
    return { dist, pred };
  } finally {
    scope.done();
  }
}
