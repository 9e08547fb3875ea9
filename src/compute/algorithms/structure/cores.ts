// k-cores: cuGraph's core_number (node column) and k_core (the subgraph), igraph's k_core (the subgraph).
import { coreNumber } from "../../../../kernels/cpu/core-number.ts";
import { type ComputeGraph, undirected } from "../../../../kernels/cpu/csr.ts";
import { type AlgorithmEntry, type ComputeContext, ComputeInputError } from "../../types.ts";
import { inducedGraph } from "./adjacency.ts";

type DegreeType = "incoming" | "outgoing" | "bidirectional";

/**
 * Core numbers as igraph's coreness(mode) counts degrees: in-degree (incoming), out-degree (outgoing), or both
 * (bidirectional; every degree on an undirected graph, where a self-loop counts twice).
 */
export function coreNumbers(graph: ComputeGraph, degreeType: DegreeType, ctx: ComputeContext): Int32Array {
  const kernel = ctx.kernel("core-number", coreNumber);
  if (!graph.directed || degreeType === "bidirectional") {
    const u = undirected(graph);
    return kernel({ n: graph.n, start: u.start, nbr: u.nbr, rstart: u.start, rnbr: u.nbr });
  }
  if (degreeType === "incoming")
    return kernel({ n: graph.n, start: graph.inStart, nbr: graph.inSrc, rstart: graph.outStart, rnbr: graph.outDst });
  return kernel({ n: graph.n, start: graph.outStart, nbr: graph.outDst, rstart: graph.inStart, rnbr: graph.inSrc });
}

function kCore(graph: ComputeGraph, core: ArrayLike<number>, k: number | undefined) {
  let kk = k;
  if (kk === undefined) {
    kk = 0;
    for (let r = 0; r < graph.n; r++) if ((core[r] as number) > kk) kk = core[r] as number;
  }
  const keep = new Uint8Array(graph.n);
  for (let r = 0; r < graph.n; r++) keep[r] = (core[r] as number) >= kk ? 1 : 0;
  return inducedGraph(graph, keep);
}

const DEGREE_TYPE = {
  type: "enum",
  values: ["incoming", "outgoing", "bidirectional"],
  default: "bidirectional",
  description: "which degree the cores count on a directed graph (in, out, or both; all equal on an undirected graph)",
} as const;

const optionalK = (k: unknown): number | undefined => (typeof k === "number" ? k : undefined);

export const coreEntries: AlgorithmEntry[] = [
  {
    library: "cugraph",
    name: "core_number",
    params: { degree_type: DEGREE_TYPE },
    output: "nodes",
    backends: ["cpu", "opencl"],
    doc: "node column: the core number (largest k of a k-core holding the node); degree_type picks in/out/both degrees on a directed graph",
    run: (graph, params, ctx, label) => ({
      kind: "nodes",
      columns: [{ name: label, values: coreNumbers(graph, params.degree_type as DegreeType, ctx), type: "int32" }],
    }),
  },
  {
    library: "cugraph",
    name: "k_core",
    params: {
      k: { type: "integer", nullable: true, min: 0, description: "the order of the core; absent: the largest core number" },
      core_number: { type: "nodeColumn", nullable: true, description: "precomputed core numbers (a node column); absent: computed" },
      degree_type: DEGREE_TYPE,
    },
    output: "graph",
    backends: ["cpu", "opencl"],
    doc: "graph: the k-core (nodes with core number >= k, default the largest, and every edge between them)",
    run: (graph, params, ctx) => {
      const given = params.core_number as Float64Array | null | undefined;
      if (given && given.length !== graph.n) throw new ComputeInputError("core_number must give one value per node", "core_number");
      const core = given ?? coreNumbers(graph, params.degree_type as DegreeType, ctx);
      return kCore(graph, core, optionalK(params.k));
    },
  },
  {
    library: "igraph",
    name: "k_core",
    params: { k: { type: "integer", nullable: true, min: 0, description: "the order of the core; absent: the innermost core" } },
    output: "graph",
    backends: ["cpu", "opencl"],
    doc: "graph: the k-core induced by coreness(mode='all') >= k; without k the innermost core (igraph answers every core)",
    run: (graph, params, ctx) => kCore(graph, coreNumbers(graph, "bidirectional", ctx), optionalK(params.k)),
  },
];
