// Kernel "core-number" on each backend against the definition (repeatedly delete nodes of degree < k), undirected
// with self-loops and parallel edges, and directed in-degree cores.
import { describe, expect, it } from "vitest";
import { coreNumber } from "../../kernels/cpu/core-number.ts";
import { buildCsr, undirected } from "../../kernels/cpu/csr.ts";
import { backends, kernelOn } from "./backends.ts";
import { skewedGraph } from "./graphs.ts";
import { naiveCores } from "./naive.ts";

describe.each(backends)("kernel core-number on %s", (backend) => {
  const run = kernelOn(backend, "core-number", coreNumber);

  it("finds a 3-core in a 4-clique with a tail", () => {
    const pairs = [
      [0, 1],
      [0, 2],
      [0, 3],
      [1, 2],
      [1, 3],
      [2, 3],
      [3, 4],
      [4, 5],
    ] as const;
    const csr = buildCsr(
      7,
      Int32Array.from(pairs, (p) => p[0]),
      Int32Array.from(pairs, (p) => p[1]),
    );
    const u = undirected(csr);
    expect(Array.from(run({ n: 7, start: u.start, nbr: u.nbr, rstart: u.start, rnbr: u.nbr }))).toEqual([3, 3, 3, 3, 1, 1, 0]);
  });

  for (const [seed, n, m] of [
    [51, 300, 1500],
    [52, 400, 600],
    [53, 200, 2000],
  ] as const) {
    it(`matches the definition, undirected (seed ${seed}, ${n} nodes, ${m} edges)`, () => {
      const csr = skewedGraph(seed, n, m);
      const u = undirected(csr);
      expect(Array.from(run({ n, start: u.start, nbr: u.nbr, rstart: u.start, rnbr: u.nbr }))).toEqual(naiveCores(n, u.start, u.nbr));
    });

    it(`matches the definition, in-degree cores (seed ${seed})`, () => {
      const csr = skewedGraph(seed, n, m);
      const got = run({ n, start: csr.inStart, nbr: csr.inSrc, rstart: csr.outStart, rnbr: csr.outDst });
      expect(Array.from(got)).toEqual(naiveCores(n, csr.inStart, csr.inSrc));
    });
  }

  it("agrees with the CPU twin on a larger graph", () => {
    const csr = skewedGraph(54, 30000, 200000);
    const u = undirected(csr);
    const args = { n: 30000, start: u.start, nbr: u.nbr, rstart: u.start, rnbr: u.nbr };
    expect(run(args)).toEqual(coreNumber(args));
  });
});
