// Ensemble clustering for graphs (Poulin & Théberge), as cuGraph's ecg: single-level Louvain runs on random node
// orders vote on every edge; edges of the 2-core are reweighted min_weight + (1 - min_weight) · (share of runs that
// put both ends together), others get min_weight; a full Louvain on the reweighted graph answers.
import type { ComputeContext } from "../../types.ts";
import type { WGraph } from "./graph.ts";
import { localMove, ROUND_THRESHOLD, scratch } from "./local-move.ts";
import { louvain } from "./louvain.ts";
import { rng } from "./rng.ts";

export type EcgOptions = { minWeight: number; ensembleSize: number; seed: number; resolution: number };

/** Which nodes lie in the 2-core (peeling nodes of degree below 2, parallel edges counted apart). */
function twoCore(g: WGraph): Uint8Array {
  const { n, start, nbr } = g;
  const deg = new Int32Array(n);
  const inCore = new Uint8Array(n).fill(1);
  const stack = new Int32Array(n);
  let top = 0;
  for (let v = 0; v < n; v++) {
    deg[v] = (start[v + 1] as number) - (start[v] as number);
    if ((deg[v] as number) < 2) {
      inCore[v] = 0;
      stack[top++] = v;
    }
  }
  while (top > 0) {
    const v = stack[--top] as number;
    for (let j = start[v] as number; j < (start[v + 1] as number); j++) {
      const u = nbr[j] as number;
      if (inCore[u] === 0) continue;
      deg[u] = (deg[u] as number) - 1;
      if ((deg[u] as number) < 2) {
        inCore[u] = 0;
        stack[top++] = u;
      }
    }
  }
  return inCore;
}

export function ecg(g: WGraph, o: EcgOptions, ctx: ComputeContext): Int32Array {
  const { n, start, nbr } = g;
  const votes = new Float64Array(nbr.length);
  const r = rng(o.seed);
  const s = scratch(n);
  const comm = new Int32Array(n);
  for (let run = 0; run < o.ensembleSize; run++) {
    ctx.checkCancelled();
    for (let v = 0; v < n; v++) comm[v] = v;
    if (g.total > 0) localMove(g, comm, g.strength, o.resolution / g.total, r, s, (ROUND_THRESHOLD * g.total) / 2);
    for (let v = 0; v < n; v++) {
      const c = comm[v] as number;
      for (let j = start[v] as number; j < (start[v + 1] as number); j++)
        if (comm[nbr[j] as number] === c) votes[j] = (votes[j] as number) + 1;
    }
    ctx.progress({ phase: "ecg ensemble", iteration: run + 1, fraction: (run + 1) / (o.ensembleSize + 1) });
  }
  const core = twoCore(g);
  // The weights overwrite the votes entry by entry (each entry's weight reads its own vote only): one array.
  const w = votes;
  const strength = new Float64Array(n);
  let total = 0;
  for (let v = 0; v < n; v++) {
    for (let j = start[v] as number; j < (start[v + 1] as number); j++) {
      const u = nbr[j] as number;
      const x = core[v] === 1 && core[u] === 1 ? o.minWeight + ((1 - o.minWeight) * (votes[j] as number)) / o.ensembleSize : o.minWeight;
      w[j] = x;
      strength[v] = (strength[v] as number) + x;
    }
    total += strength[v] as number;
  }
  // Self-loops keep their weight share: they are not edges between two ends.
  const loop = new Float64Array(n);
  const reweighted: WGraph = { n, start, nbr, w, loop, strength, total };
  return louvain(reweighted, { resolution: o.resolution, maxLevels: 100, threshold: 1e-7, seed: o.seed + 1 }, ctx).membership;
}
