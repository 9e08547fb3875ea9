// Kernel "sssp" on each backend: exact distances against Bellman-Ford, parents tight and (positive weights) the
// smallest tight neighbour, unit weights and a cutoff.
import { describe, expect, it } from "vitest";
import { undirected } from "../../kernels/cpu/csr.ts";
import { sssp } from "../../kernels/cpu/sssp.ts";
import { backends, kernelOn } from "./backends.ts";
import { skewedGraph, weights } from "./graphs.ts";
import { naiveDistances } from "./naive.ts";

describe.each(backends)("kernel sssp on %s", (backend) => {
  const run = kernelOn(backend, "sssp", sssp);

  for (const [seed, n, m, directed, weighted] of [
    [81, 2000, 10000, true, true],
    [82, 2000, 5000, false, true],
    [83, 3000, 9000, true, false],
  ] as const) {
    it(`exact distances and smallest tight parents (seed ${seed}, ${directed ? "directed" : "undirected"}${weighted ? ", weighted" : ""})`, () => {
      const csr = skewedGraph(seed, n, m);
      const adj = directed ? { start: csr.outStart, nbr: csr.outDst, edge: csr.outEdges } : undirected(csr);
      const weight = weighted ? weights(seed, m) : new Float64Array(0);
      const r = run({ n, start: adj.start, nbr: adj.nbr, edge: adj.edge, weight, source: 0, cutoff: Number.POSITIVE_INFINITY });
      expect(Array.from(r.dist)).toEqual(naiveDistances(n, adj.start, adj.nbr, adj.edge, weight, 0));
      // The parent: the smallest u with an entry u -> v and dist[u] + w = dist[v].
      const want = new Int32Array(n).fill(-1);
      for (let u = 0; u < n; u++) {
        for (let j = adj.start[u] as number; j < (adj.start[u + 1] as number); j++) {
          const v = adj.nbr[j] as number;
          const w = weighted ? (weight[adj.edge[j] as number] as number) : 1;
          if (
            v !== 0 &&
            v !== u &&
            Number.isFinite(r.dist[u]) &&
            (r.dist[u] as number) + w === r.dist[v] &&
            (want[v] === -1 || u < (want[v] as number))
          )
            want[v] = u;
        }
      }
      expect(Array.from(r.pred)).toEqual(Array.from(want));
    });
  }

  it("treats distances past the cutoff as unreached", () => {
    const csr = skewedGraph(84, 1000, 4000);
    const weight = weights(84, 4000);
    const adj = { start: csr.outStart, nbr: csr.outDst, edge: csr.outEdges };
    const full = naiveDistances(1000, adj.start, adj.nbr, adj.edge, weight, 3);
    const r = run({ ...adj, n: 1000, weight, source: 3, cutoff: 2.5 });
    expect(Array.from(r.dist)).toEqual(full.map((d) => (d > 2.5 ? Number.POSITIVE_INFINITY : d)));
    for (let v = 0; v < 1000; v++) if (r.dist[v] === Number.POSITIVE_INFINITY) expect(r.pred[v]).toBe(-1);
  });
});
