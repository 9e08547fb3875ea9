// Kernel "bfs" on each backend against a naive level-by-level search: identical distances and parents.
import { describe, expect, it } from "vitest";
import { bfs } from "../../kernels/cpu/bfs.ts";
import { undirected } from "../../kernels/cpu/csr.ts";
import { backends, kernelOn } from "./backends.ts";
import { skewedGraph } from "./graphs.ts";
import { naiveBfs } from "./naive.ts";

describe.each(backends)("kernel bfs on %s", (backend) => {
  const run = kernelOn(backend, "bfs", bfs);

  it("walks a small directed graph", () => {
    // 0 -> 1, 0 -> 2, 1 -> 3, 2 -> 3, 3 -> 4; 5 isolated.
    const start = new Int32Array([0, 2, 3, 4, 5, 5, 5]);
    const nbr = new Int32Array([1, 2, 3, 3, 4]);
    const r = run({ n: 6, start, nbr, sources: new Int32Array([0]), depthLimit: -1 });
    expect(Array.from(r.dist)).toEqual([0, 1, 1, 2, 3, -1]);
    expect(Array.from(r.pred)).toEqual([-1, 0, 0, 1, 3, -1]);
    const limited = run({ n: 6, start, nbr, sources: new Int32Array([0]), depthLimit: 1 });
    expect(Array.from(limited.dist)).toEqual([0, 1, 1, -1, -1, -1]);
  });

  for (const [seed, n, m, directed, sources, depthLimit] of [
    [31, 3000, 12000, true, [0], -1],
    [32, 3000, 6000, false, [5, 17, 5, -1, 99999], -1],
    [33, 2000, 4000, true, [1, 2], 3],
    [34, 500, 300, false, [450], -1],
  ] as const) {
    it(`matches the naive search (seed ${seed}, ${directed ? "directed" : "undirected"}, sources ${sources.join(",")}, depth ${depthLimit})`, () => {
      const csr = skewedGraph(seed, n, m);
      const adj = directed ? { start: csr.outStart, nbr: csr.outDst } : undirected(csr);
      const r = run({ n, start: adj.start, nbr: adj.nbr, sources: Int32Array.from(sources), depthLimit });
      const want = naiveBfs(n, adj.start, adj.nbr, [...sources], depthLimit);
      expect(Array.from(r.dist)).toEqual(want.dist);
      expect(Array.from(r.pred)).toEqual(want.pred);
    });
  }
});
