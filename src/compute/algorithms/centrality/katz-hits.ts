// cuGraph's katz_centrality (out-edge Katz, networkx's loop on the reversed graph) and hits (networkx's hubs and
// authorities: the dominant singular vectors), weighted by the bound edge weight, over the "spmv" kernel.
import { type AlgorithmEntry, ComputeInputError } from "../../types.ts";
import { adjacency } from "./adjacency.ts";
import { hubsAndAuthorities } from "./eigenvector.ts";
import { matrix, product, scaleToUnit } from "./power.ts";

export const cugraphKatz: AlgorithmEntry = {
  library: "cugraph",
  name: "katz_centrality",
  params: {
    alpha: {
      type: "number",
      nullable: true,
      default: null,
      min: 0,
      exclusive: true,
      description: "attenuation (null: 1 / the largest out-degree)",
    },
    beta: { type: "number", nullable: true, default: null, description: "added to every node each step (null: 1)" },
    max_iter: { type: "integer", default: 100, min: 1, description: "iterations at most" },
    tol: { type: "number", default: 1e-6, min: 0, description: "stops once the L1 change is below n * tol" },
    nstart: { type: "nodeColumn", nullable: true, default: null, description: "node column of starting values (null: 0)" },
    normalized: { type: "boolean", default: true, description: "scale to unit length" },
  },
  output: "nodes",
  backends: ["cpu", "opencl"],
  doc: "Katz centrality per node over out-edges (float64), as networkx's katz_centrality on the reversed graph",
  run(graph, params, ctx, label) {
    const { n } = graph;
    if (n === 0) return { kind: "nodes", columns: [{ name: label, values: new Float64Array(0) }] };
    const lists = adjacency(graph, graph.directed ? "out" : "all");
    const m = matrix(n, lists, graph.weight, !graph.directed);
    let alpha = params.alpha as number | null | undefined;
    if (alpha === null || alpha === undefined) {
      let most = 0;
      for (let v = 0; v < n; v++) most = Math.max(most, (lists.start[v + 1] as number) - (lists.start[v] as number));
      alpha = most > 0 ? 1 / most : 1;
    }
    const beta = (params.beta as number | null | undefined) ?? 1;
    const maxIter = params.max_iter as number;
    const limit = n * (params.tol as number);
    let x: Float64Array = params.nstart ? Float64Array.from(params.nstart as Float64Array) : new Float64Array(n);
    // Two arrays in turn (the step writes into the one x is not).
    let spare: Float64Array = new Float64Array(n);
    for (let it = 1; it <= maxIter; it++) {
      const y = product(ctx, m, x, spare);
      let error = 0;
      for (let i = 0; i < n; i++) {
        const v = alpha * (y[i] as number) + beta;
        error += Math.abs(v - (x[i] as number));
        y[i] = v;
      }
      spare = x;
      x = y;
      if (it % 20 === 0) {
        ctx.checkCancelled();
        ctx.progress({ phase: "katz_centrality", iteration: it });
      }
      if (error < limit) {
        if (params.normalized !== false) scaleToUnit(x);
        return { kind: "nodes", columns: [{ name: label, values: x }] };
      }
    }
    throw new ComputeInputError(`katz_centrality did not converge in ${maxIter} iterations (alpha ${alpha} may be too large)`, "max_iter");
  },
};

export const cugraphHits: AlgorithmEntry = {
  library: "cugraph",
  name: "hits",
  params: {
    max_iter: { type: "integer", default: 100, min: 1, description: "iterations at least (the vectors are computed to convergence)" },
    tol: { type: "number", default: 1e-5, min: 0, description: "tolerance (the answer is at least this close)" },
    nstart: { type: "nodeColumn", nullable: true, default: null, description: "node column of starting authority values" },
    normalized: { type: "boolean", default: true, description: "hubs and authorities each sum to 1" },
  },
  output: "nodes",
  backends: ["cpu", "opencl"],
  doc: "hub score per node (the label) and `authorities` (float64), as networkx's hits: the dominant singular vectors",
  run(graph, params, ctx, label) {
    const { n } = graph;
    let start: Float64Array | null = null;
    if (params.nstart) {
      start = Float64Array.from(params.nstart as Float64Array);
      if (!start.some((v) => v > 0)) throw new ComputeInputError("nstart needs a positive value", "nstart");
    }
    const tol = Math.min(params.tol as number, 1e-13);
    const { hubs: h0, converged } = hubsAndAuthorities(ctx, graph, graph.weight, {
      tol,
      maxIter: Math.max(params.max_iter as number, 100_000),
      start,
    });
    if (!converged) throw new ComputeInputError("hits did not converge", "max_iter");
    // networkx: a = the unit right singular vector, h = A a.
    const inward = matrix(n, adjacency(graph, graph.directed ? "in" : "all"), graph.weight, !graph.directed);
    const outward = matrix(n, adjacency(graph, graph.directed ? "out" : "all"), graph.weight, !graph.directed);
    const authorities = scaleToUnit(product(ctx, inward, h0));
    const hubs = product(ctx, outward, authorities);
    if (params.normalized !== false) {
      for (const v of [hubs, authorities]) {
        let sum = 0;
        for (let i = 0; i < n; i++) sum += v[i] as number;
        if (sum > 0) for (let i = 0; i < n; i++) v[i] = (v[i] as number) / sum;
      }
    }
    return {
      kind: "nodes",
      columns: [
        { name: label, values: hubs },
        { name: "authorities", values: authorities },
      ],
    };
  },
};
