// Kernel "edge-similarity" on each backend: Jaccard, overlap and Sorensen per pair against set arithmetic, weighted
// and not, with the binary-search path (one list 16x longer) exercised.
import { describe, expect, it } from "vitest";
import { edgeSimilarity } from "../../kernels/cpu/edge-similarity.ts";
import { seeded } from "../helpers/seeded.ts";
import { backends, kernelOn } from "./backends.ts";
import { maxRelDiff } from "./graphs.ts";

/** Distinct sorted neighbour lists: node 0 a hub of everyone, the rest random. */
function neighbourSets(seed: number, n: number, avg: number) {
  const rng = seeded(seed);
  const sets = Array.from({ length: n }, () => new Set<number>());
  for (let v = 1; v < n; v++) {
    sets[0]?.add(v);
    sets[v]?.add(0);
  }
  for (let k = 0; k < (n * avg) / 2; k++) {
    const a = rng.int(1, n - 1);
    const b = rng.int(1, n - 1);
    if (a === b) continue;
    sets[a]?.add(b);
    sets[b]?.add(a);
  }
  const start = new Int32Array(n + 1);
  const lists = sets.map((s) => [...s].sort((x, y) => x - y));
  for (let v = 0; v < n; v++) start[v + 1] = (start[v] as number) + (lists[v] as number[]).length;
  const nbr = Int32Array.from(lists.flat());
  const wt = Float64Array.from(nbr, (x, j) => 0.5 + ((x * 31 + j * 7) % 13) / 4);
  return { lists, start, nbr, wt };
}

function expected(lists: number[][], wt: Float64Array, start: Int32Array, u: number, v: number, weighted: boolean, metric: number) {
  const w = (node: number, x: number) => (weighted ? (wt[(start[node] as number) + (lists[node] as number[]).indexOf(x)] as number) : 1);
  const lu = lists[u] as number[];
  const lv = lists[v] as number[];
  let shared = 0;
  for (const x of lu) if (lv.includes(x)) shared += Math.min(w(u, x), w(v, x));
  const tu = lu.reduce((s, x) => s + w(u, x), 0);
  const tv = lv.reduce((s, x) => s + w(v, x), 0);
  return metric === 0 ? shared / (tu + tv - shared) : metric === 1 ? shared / Math.min(tu, tv) : (2 * shared) / (tu + tv);
}

describe.each(backends)("kernel edge-similarity on %s", (backend) => {
  const run = kernelOn(backend, "edge-similarity", edgeSimilarity);
  const { lists, start, nbr, wt } = neighbourSets(71, 600, 8);
  const rng = seeded(72);
  const src = Int32Array.from({ length: 3000 }, (_, i) => (i % 10 === 0 ? 0 : rng.int(0, 599)));
  const dst = Int32Array.from({ length: 3000 }, () => rng.int(0, 599));

  for (const weighted of [false, true]) {
    for (const metric of [0, 1, 2]) {
      it(`metric ${["Jaccard", "overlap", "Sorensen"][metric]}${weighted ? ", weighted" : ""} matches set arithmetic`, () => {
        const total = Float64Array.from({ length: 600 }, (_, v) =>
          weighted ? wt.subarray(start[v] as number, start[v + 1] as number).reduce((s, x) => s + x, 0) : (lists[v] as number[]).length,
        );
        const got = run({ start, nbr, wt: weighted ? wt : new Float64Array(0), total, src, dst, metric });
        const want = Array.from(src, (u, e) => expected(lists, wt, start, u, dst[e] as number, weighted, metric));
        expect(maxRelDiff(got, want)).toBeLessThan(1e-12);
      });
    }
  }

  it("scores the same from incidence lists given in two parts (a CSR's out- and in-edge lists) as grouped by itself", () => {
    // The pairs as a graph's edges src[e] -> dst[e]: out-lists by src, in-lists by dst (each pair at both its ends).
    const n = 600;
    const byEnd = (ends: Int32Array) => {
      const incStart = new Int32Array(n + 1);
      for (const r of ends) incStart[r + 1] = (incStart[r + 1] as number) + 1;
      for (let r = 0; r < n; r++) incStart[r + 1] = (incStart[r + 1] as number) + (incStart[r] as number);
      const fill = incStart.slice(0, n);
      const incPair = new Int32Array(ends.length);
      ends.forEach((r, e) => {
        incPair[fill[r] as number] = e;
        fill[r] = (fill[r] as number) + 1;
      });
      return { incStart, incPair };
    };
    const out = byEnd(src);
    const into = byEnd(dst);
    for (const weighted of [false, true]) {
      const total = Float64Array.from({ length: n }, (_, v) =>
        weighted ? wt.subarray(start[v] as number, start[v + 1] as number).reduce((s, x) => s + x, 0) : (lists[v] as number[]).length,
      );
      const args = { start, nbr, wt: weighted ? wt : new Float64Array(0), total, src, dst, metric: 0 };
      const twoParts = run({ ...args, ...out, incStart2: into.incStart, incPair2: into.incPair });
      expect(Array.from(twoParts)).toEqual(Array.from(run(args)));
    }
  });

  it("answers NaN for 0/0", () => {
    const got = run({
      start: new Int32Array([0, 0, 0]),
      nbr: new Int32Array(0),
      wt: new Float64Array(0),
      total: new Float64Array([0, 0]),
      src: new Int32Array([0]),
      dst: new Int32Array([1]),
      metric: 0,
    });
    expect(Number.isNaN(got[0])).toBe(true);
  });
});
