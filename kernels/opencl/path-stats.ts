// OpenCL version of kernel "path-stats" (same args and result as kernels/cpu/path-stats.ts): lanes each run whole
// searches in the twin's queue order, so the sums are the same.
import type { PathStatsArgs, PathStatsResult } from "../cpu/path-stats.ts";
import { lanes, Scope } from "./runtime.ts";

export function pathStatsOpenCl(args: PathStatsArgs): PathStatsResult {
  const { n, start, nbr, sources, cutoff } = args;
  const count = sources.length;
  const result = {
    sum: new Float64Array(count),
    reached: new Int32Array(count),
    harmonic: new Float64Array(count),
    farthest: new Float64Array(count),
  };
  if (n === 0 || count === 0) return result;
  const { lanes: laneCount, local } = lanes(count, 8 * n);
  const scope = new Scope();
  try {
    const dSum = scope.alloc(8 * count);
    const dReached = scope.alloc(4 * count);
    const dHarmonic = scope.alloc(8 * count);
    const dFarthest = scope.alloc(8 * count);
    scope.runGroups(
      "path-stats",
      "path_stats_lanes",
      "immmiiimmmmmm",
      [
        n,
        scope.readOnly(start),
        scope.readOnly(nbr),
        scope.readOnly(sources),
        count,
        cutoff,
        laneCount,
        scope.filled(new Int32Array([-1]), laneCount * n),
        scope.alloc(4 * laneCount * n),
        dSum,
        dReached,
        dHarmonic,
        dFarthest,
      ],
      laneCount,
      local,
    );
    scope.read(dSum, result.sum);
    scope.read(dReached, result.reached);
    scope.read(dHarmonic, result.harmonic);
    scope.read(dFarthest, result.farthest);
    return result;
  } finally {
    scope.done();
  }
}
