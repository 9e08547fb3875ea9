// Kernel "path-stats" on each backend against sums over naive BFS distances (closeness, harmonic, eccentricity).
import { describe, expect, it } from "vitest";
import { undirected } from "../../kernels/cpu/csr.ts";
import { pathStats } from "../../kernels/cpu/path-stats.ts";
import { backends, kernelOn } from "./backends.ts";
import { skewedGraph } from "./graphs.ts";
import { naiveBfs } from "./naive.ts";

describe.each(backends)("kernel path-stats on %s", (backend) => {
  const run = kernelOn(backend, "path-stats", pathStats);

  for (const [seed, directed, cutoff] of [
    [101, true, -1],
    [102, false, -1],
    [103, false, 2],
  ] as const) {
    it(`sums distances per source (seed ${seed}, ${directed ? "directed" : "undirected"}, cutoff ${cutoff})`, () => {
      const n = 1500;
      const csr = skewedGraph(seed, n, 4000);
      const adj = directed ? { start: csr.outStart, nbr: csr.outDst } : undirected(csr);
      const sources = Int32Array.from({ length: 60 }, (_, i) => (i * 37) % n);
      const r = run({ n, start: adj.start, nbr: adj.nbr, sources, cutoff });
      sources.forEach((s, b) => {
        const dist = naiveBfs(n, adj.start, adj.nbr, [s], cutoff).dist.filter((d) => d >= 0);
        expect(r.reached[b]).toBe(dist.length);
        expect(r.sum[b]).toBe(dist.reduce((a, d) => a + d, 0));
        expect(r.farthest[b]).toBe(Math.max(...dist));
        expect(r.harmonic[b]).toBeCloseTo(
          dist.filter((d) => d > 0).reduce((a, d) => a + 1 / d, 0),
          10,
        );
      });
    });
  }
});
