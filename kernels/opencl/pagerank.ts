// OpenCL version of kernel "pagerank" (same args and result as kernels/cpu/pagerank.ts): the power loop runs on
// the device; each iteration reads back only the per-group sums (dangling rank, change) to steer the loop.
import type { PagerankArgs, PagerankResult } from "../cpu/pagerank.ts";
import { groups, Scope } from "./runtime.ts";

const EMPTY = new Float64Array(0);

export function pagerankOpenCl(args: PagerankArgs): PagerankResult {
  const { n, start, nbr, weight, outWeight, damping, personalization, maxIter, tol } = args;
  if (n === 0) return { rank: new Float64Array(0), iterations: 0, converged: false };
  const scope = new Scope();
  try {
    const parts = groups(n);
    const partsHost = new Float64Array(parts);
    let x = args.initial ? scope.input(args.initial) : scope.filled(new Float64Array([1 / n]), n);
    let next = scope.alloc(8 * n);
    const share = scope.alloc(8 * n);
    const dStart = scope.input(start);
    const dNbr = scope.input(nbr);
    const dWeight = scope.input(weight ?? EMPTY);
    const dOut = scope.input(outWeight);
    const dPers = scope.input(personalization ?? EMPTY);
    const dParts = scope.alloc(8 * parts);
    let iterations = 0;
    let converged = false;
    while (iterations < maxIter) {
      iterations++;
      scope.run("pagerank", "pagerank_share", "immmm", [n, x, dOut, share, dParts], n);
      let dangling = 0;
      for (const v of scope.read(dParts, partsHost)) dangling += v;
      scope.run(
        "pagerank",
        "pagerank_pull",
        "immmimmiddmmm",
        [n, dStart, dNbr, dWeight, weight ? 1 : 0, share, dPers, personalization ? 1 : 0, damping, dangling, x, next, dParts],
        n,
      );
      let err = 0;
      for (const v of scope.read(dParts, partsHost)) err += v;
      const swap = x;
      x = next;
      next = swap;
      if (err < tol) {
        converged = true;
        break;
      }
    }
    return { rank: scope.read(x, new Float64Array(n)), iterations, converged };
  } finally {
    scope.done();
  }
}
