// igraph's bibcoupling and cocitation (python-igraph 0.10): an n x n matrix of counts, stored as pygraphistry
// stores a list per node, a list<int64> column (row i: node i's counts with every node). CPU only.
import { undirected } from "../../../../kernels/cpu/csr.ts";
import { type AlgorithmEntry, ComputeInputError } from "../../types.ts";

/** The n x n answer is refused beyond this many cells (25M: a 5000-node graph). */
const MAX_CELLS = 25_000_000;

function couplingEntry(name: "bibcoupling" | "cocitation"): AlgorithmEntry {
  return {
    library: "igraph",
    name,
    params: {},
    output: "nodes",
    backends: ["cpu"],
    doc:
      name === "cocitation"
        ? "per node, a list of n counts: how many nodes cite both it and each node (list<int64>)"
        : "per node, a list of n counts: how many nodes both it and each node cite (list<int64>)",
    run(graph, _params, ctx, label) {
      const { n } = graph;
      if (n * n > MAX_CELLS) throw new ComputeInputError(`${name} answers an n x n matrix: ${n} nodes is too many (at most 5000)`);
      // cocitation: the nodes each node cites (out-neighbours); bibcoupling: the nodes citing it (in-neighbours).
      // An undirected graph lists every neighbour, a self-loop twice, as igraph_neighbors does.
      const lists = !graph.directed
        ? undirected(graph)
        : name === "cocitation"
          ? { start: graph.outStart, nbr: graph.outDst }
          : { start: graph.inStart, nbr: graph.inSrc };
      const cells = new Float64Array(n * n);
      for (let from = 0; from < n; from++) {
        if (from % 1024 === 0) ctx.checkCancelled();
        const end = lists.start[from + 1] as number;
        for (let a = lists.start[from] as number; a < end - 1; a++) {
          const u = lists.nbr[a] as number;
          for (let b = a + 1; b < end; b++) {
            const v = lists.nbr[b] as number;
            cells[u * n + v] = (cells[u * n + v] as number) + 1;
            cells[v * n + u] = (cells[v * n + u] as number) + 1;
          }
        }
      }
      const rows: number[][] = new Array(n);
      for (let i = 0; i < n; i++) rows[i] = Array.from(cells.subarray(i * n, (i + 1) * n));
      return { kind: "nodes", columns: [{ name: label, values: rows, type: "list<int64>" }] };
    },
  };
}

export const igraphBibcoupling = couplingEntry("bibcoupling");
export const igraphCocitation = couplingEntry("cocitation");
