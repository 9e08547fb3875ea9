// OpenCL version of kernel "bfs" (same args and result as kernels/cpu/bfs.ts): one launch per level over the
// frontier; the host reads only the next frontier's size.
import type { BfsArgs, BfsResult } from "../cpu/bfs.ts";
import { Scope } from "./runtime.ts";

export function bfsOpenCl(args: BfsArgs): BfsResult {
  const { n, start, nbr, sources, depthLimit } = args;
  const dist = new Int32Array(n).fill(-1);
  const frontierHost = new Int32Array(Math.max(1, n));
  let size = 0;
  for (let i = 0; i < sources.length; i++) {
    const s = sources[i] as number;
    if (s < 0 || s >= n || dist[s] !== -1) continue;
    dist[s] = 0;
    frontierHost[size++] = s;
  }
  if (n === 0 || size === 0) return { dist, pred: new Int32Array(n).fill(-1) };
  const scope = new Scope();
  try {
    const dDist = scope.input(dist);
    const dPred = scope.filled(new Int32Array([0x7fffffff]), n);
    const dStart = scope.readOnly(start);
    const dNbr = scope.readOnly(nbr);
    let frontier = scope.input(frontierHost);
    let next = scope.alloc(4 * n);
    const counter = scope.alloc(4);
    const zero = new Int32Array(1);
    const got = new Int32Array(1);
    let level = 0;
    while (size > 0 && (depthLimit < 0 || level < depthLimit)) {
      const reach = level + 1;
      scope.write(counter, zero);
      scope.run("bfs", "bfs_level", "immmmmmmi", [size, frontier, dStart, dNbr, dDist, dPred, next, counter, reach], size);
      size = scope.read(counter, got)[0] as number;
      const swap = frontier;
      frontier = next;
      next = swap;
      level = reach;
    }
    scope.run("bfs", "bfs_finish", "im", [n, dPred], n);
    const pred = new Int32Array(n);
    scope.read(dPred, pred);
    scope.read(dDist, dist);
    return { dist, pred };
  } finally {
    scope.done();
  }
}
