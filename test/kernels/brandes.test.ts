// Kernel "brandes" on each backend against betweenness counted pair by pair (sigma_sv * sigma_vt / sigma_st over
// all-pairs BFS), node and edge scores, endpoints, multi-edges; a cutoff against the CPU twin.
import { describe, expect, it } from "vitest";
import { brandes } from "../../kernels/cpu/brandes.ts";
import { undirected } from "../../kernels/cpu/csr.ts";
import { backends, kernelOn } from "./backends.ts";
import { maxRelDiff, skewedGraph } from "./graphs.ts";

/** Hop distances and shortest-path counts from s (each adjacency entry a distinct path step). */
function countPaths(n: number, start: Int32Array, nbr: Int32Array, s: number) {
  const dist = new Array<number>(n).fill(-1);
  const sigma = new Array<number>(n).fill(0);
  dist[s] = 0;
  sigma[s] = 1;
  const queue = [s];
  for (let h = 0; h < queue.length; h++) {
    const v = queue[h] as number;
    for (let j = start[v] as number; j < (start[v + 1] as number); j++) {
      const w = nbr[j] as number;
      if (dist[w] === -1) {
        dist[w] = (dist[v] as number) + 1;
        queue.push(w);
      }
      if (dist[w] === (dist[v] as number) + 1) sigma[w] = (sigma[w] as number) + (sigma[v] as number);
    }
  }
  return { dist, sigma };
}

function pairwise(n: number, start: Int32Array, nbr: Int32Array, link: Int32Array, links: number, sources: number[], endpoints: boolean) {
  const all = Array.from({ length: n }, (_, s) => countPaths(n, start, nbr, s));
  const node = new Array<number>(n).fill(0);
  const edge = new Array<number>(links).fill(0);
  for (const s of sources) {
    const from = all[s] as ReturnType<typeof countPaths>;
    for (let t = 0; t < n; t++) {
      const dst = from.dist[t] as number;
      if (t === s || dst < 0) continue;
      const sst = from.sigma[t] as number;
      if (endpoints) {
        node[t] = (node[t] as number) + 1;
        node[s] = (node[s] as number) + 1;
      }
      for (let v = 0; v < n; v++) {
        const to = all[v] as ReturnType<typeof countPaths>;
        if (v !== s && v !== t && (from.dist[v] as number) >= 0 && (to.dist[t] as number) >= 0) {
          if ((from.dist[v] as number) + (to.dist[t] as number) === dst) {
            node[v] = (node[v] as number) + ((from.sigma[v] as number) * (to.sigma[t] as number)) / sst;
          }
        }
        for (let j = start[v] as number; j < (start[v + 1] as number); j++) {
          const w = nbr[j] as number;
          const fromW = all[w] as ReturnType<typeof countPaths>;
          if (
            (from.dist[v] as number) >= 0 &&
            (fromW.dist[t] as number) >= 0 &&
            (from.dist[v] as number) + 1 + (fromW.dist[t] as number) === dst
          ) {
            const slot = link[j] as number;
            edge[slot] = (edge[slot] as number) + ((from.sigma[v] as number) * (fromW.sigma[t] as number)) / sst;
          }
        }
      }
    }
  }
  return { node, edge };
}

describe.each(backends)("kernel brandes on %s", (backend) => {
  const run = kernelOn(backend, "brandes", brandes);

  for (const [seed, n, m, directed, endpoints] of [
    [91, 60, 150, true, false],
    [92, 80, 160, false, false],
    [93, 50, 120, false, true],
  ] as const) {
    it(`matches pairwise counting (seed ${seed}, ${directed ? "directed" : "undirected"}${endpoints ? ", endpoints" : ""})`, () => {
      const csr = skewedGraph(seed, n, m);
      const adj = directed ? { start: csr.outStart, nbr: csr.outDst, edge: csr.outEdges } : undirected(csr);
      const sources = Array.from({ length: n }, (_, i) => i).filter((i) => i % 3 !== 1);
      const r = run({
        n,
        start: adj.start,
        nbr: adj.nbr,
        link: adj.edge,
        links: m,
        sources: Int32Array.from(sources),
        cutoff: -1,
        endpoints,
      });
      const want = pairwise(n, adj.start, adj.nbr, adj.edge, m, sources, endpoints);
      expect(maxRelDiff(r.node, want.node)).toBeLessThan(1e-9);
      expect(maxRelDiff(r.edge ?? [], want.edge)).toBeLessThan(1e-9);
    });
  }

  it("agrees with the CPU twin with a cutoff and no edge scores, on a larger graph", () => {
    const csr = skewedGraph(94, 3000, 12000);
    const u = undirected(csr);
    const args = {
      n: 3000,
      start: u.start,
      nbr: u.nbr,
      link: null,
      links: 0,
      sources: Int32Array.from({ length: 40 }, (_, i) => i * 70),
      cutoff: 3,
      endpoints: false,
    };
    const r = run(args);
    expect(r.edge).toBeNull();
    expect(maxRelDiff(r.node, brandes(args).node)).toBeLessThan(1e-9);
  });
});
