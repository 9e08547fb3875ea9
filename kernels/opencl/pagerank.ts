// OpenCL version of kernel "pagerank" (same args and result as kernels/cpu/pagerank.ts): the power loop runs on the
// device, Jacobi steps or (inPlace) sweeps updating the values in place; each step reads back only the per-group
// sums (change, largest relative change, dangling rank) to steer the loop.
import type { PagerankArgs, PagerankResult } from "../cpu/pagerank.ts";
import { groups, Scope } from "./runtime.ts";

const EMPTY = new Float64Array(0);

function sum(values: Float64Array): number {
  let s = 0;
  for (const v of values) s += v;
  return s;
}

function max(values: Float64Array): number {
  let m = 0;
  for (const v of values) if (v > m) m = v;
  return m;
}

export function pagerankOpenCl(args: PagerankArgs): PagerankResult {
  const { n, start, nbr, weight, outWeight, damping, personalization, maxIter, tol } = args;
  const relTol = args.relTol ?? 0;
  if (n === 0) return { rank: new Float64Array(0), iterations: 0, converged: false };
  const scope = new Scope();
  try {
    const parts = groups(n);
    const host = new Float64Array(parts);
    let x = args.initial ? scope.input(args.initial) : scope.filled(new Float64Array([1 / n]), n);
    let next = args.inPlace ? x : scope.alloc(8 * n);
    let share = scope.alloc(8 * n);
    let nextShare = args.inPlace ? share : scope.alloc(8 * n);
    const dStart = scope.readOnly(start);
    const dNbr = scope.readOnly(nbr);
    const dWeight = scope.readOnly(weight ?? EMPTY);
    const dOut = scope.readOnly(outWeight);
    const dPers = scope.readOnly(personalization ?? EMPTY);
    const errParts = scope.alloc(8 * parts);
    const worstParts = scope.alloc(8 * parts);
    const danglingParts = scope.alloc(8 * parts);
    scope.run("pagerank", "pagerank_share", "immmm", [n, x, dOut, share, danglingParts], n);
    let dangling = sum(scope.read(danglingParts, host));
    let iterations = 0;
    let converged = false;
    while (iterations < maxIter) {
      iterations++;
      scope.run(
        "pagerank",
        "pagerank_step",
        "immmimmiddmmmmmmm",
        [
          n,
          dStart,
          dNbr,
          dWeight,
          weight ? 1 : 0,
          share,
          dPers,
          personalization ? 1 : 0,
          damping,
          dangling,
          dOut,
          x,
          next,
          nextShare,
          errParts,
          worstParts,
          danglingParts,
        ],
        n,
      );
      const err = sum(scope.read(errParts, host));
      const worst = relTol > 0 ? max(scope.read(worstParts, host)) : Number.POSITIVE_INFINITY;
      dangling = sum(scope.read(danglingParts, host));
      [x, next] = [next, x];
      [share, nextShare] = [nextShare, share];
      if (err < tol || (relTol > 0 && worst <= relTol)) {
        converged = true;
        break;
      }
    }
    return { rank: scope.read(x, new Float64Array(n)), iterations, converged };
  } finally {
    scope.done();
  }
}
