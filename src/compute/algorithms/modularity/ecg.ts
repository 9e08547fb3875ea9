// Ensemble clustering for graphs (Poulin & Théberge), as cuGraph's ecg: single-level Louvain runs on random node
// orders vote on every edge; edges of the 2-core are reweighted min_weight + (1 - min_weight) · (share of runs that
// put both ends together), others get min_weight; a full Louvain on the reweighted graph answers.
// The graph is read as its lists (straight from the CSR where it has no self-loops: no undirected view); each entry's
// votes take a byte (two past 255 runs), and are then its weight's code (float32 weights, as cuGraph keeps them).
import type { ComputeContext } from "../../types.ts";
import { entriesOf, type List, lists, type WGraph } from "./graph.ts";
import { localMove, ROUND_THRESHOLD, scratch } from "./local-move.ts";
import { louvain } from "./louvain.ts";
import { rng } from "./rng.ts";

export type EcgOptions = { minWeight: number; ensembleSize: number; seed: number; resolution: number };

/**
 * Which nodes lie in the 2-core (peeling nodes of degree below 2, parallel edges counted apart). `deg` and `stack`:
 * two int32 arrays of at least n to work in (overwritten).
 */
function twoCore(g: WGraph, deg: Int32Array, stack: Int32Array): Uint8Array {
  const { n } = g;
  const gl = lists(g);
  const inCore = new Uint8Array(n).fill(1);
  let top = 0;
  for (let v = 0; v < n; v++) {
    deg[v] = entriesOf(g, v);
    if ((deg[v] as number) < 2) {
      inCore[v] = 0;
      stack[top++] = v;
    }
  }
  while (top > 0) {
    const v = stack[--top] as number;
    for (let l = 0; l < gl.length; l++) {
      const { start, nbr } = gl[l] as List;
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
  }
  return inCore;
}

export function ecg(g: WGraph, o: EcgOptions, ctx: ComputeContext): Int32Array {
  const { n } = g;
  const gl = lists(g);
  // An entry's votes: how many runs put its two ends in one community.
  const votes = gl.map(({ nbr }) => (o.ensembleSize <= 255 ? new Uint8Array(nbr.length) : new Uint16Array(nbr.length)));
  const r = rng(o.seed);
  const s = scratch(n);
  const comm = new Int32Array(n);
  for (let run = 0; run < o.ensembleSize; run++) {
    ctx.checkCancelled();
    for (let v = 0; v < n; v++) comm[v] = v;
    if (g.total > 0) localMove(g, comm, g.strength, o.resolution / g.total, r, s, (ROUND_THRESHOLD * g.total) / 2);
    gl.forEach(({ start, nbr }, list) => {
      const tally = votes[list] as Uint8Array | Uint16Array;
      for (let v = 0; v < n; v++) {
        const c = comm[v] as number;
        for (let j = start[v] as number; j < (start[v + 1] as number); j++)
          if (comm[nbr[j] as number] === c) tally[j] = (tally[j] as number) + 1;
      }
    });
    ctx.progress({ phase: "ecg ensemble", iteration: run + 1, fraction: (run + 1) / (o.ensembleSize + 1) });
  }
  // The ensemble's scratch is free now: the peeling works in two of its arrays (Louvain fills them afresh).
  const core = twoCore(g, s.seen, s.queue);
  // An entry's weight is min_weight + (1 - min_weight) · votes / runs inside the 2-core, min_weight (as for no votes)
  // outside it: one of runs + 1 values, as float32 (cuGraph's weights). The votes, zeroed outside the core, are the
  // codes Louvain reads through this table (graph.ts WGraph.table): no array of weights beside them.
  const table = new Float64Array(o.ensembleSize + 1);
  for (let t = 0; t <= o.ensembleSize; t++) table[t] = Math.fround(o.minWeight + ((1 - o.minWeight) * t) / o.ensembleSize);
  const strength = new Float64Array(n);
  gl.forEach(({ start, nbr }, list) => {
    const code = votes[list] as Uint8Array | Uint16Array;
    for (let v = 0; v < n; v++) {
      let sum = 0;
      for (let j = start[v] as number; j < (start[v + 1] as number); j++) {
        if (core[v] === 0 || core[nbr[j] as number] === 0) code[j] = 0;
        sum += table[code[j] as number] as number;
      }
      strength[v] = (strength[v] as number) + sum;
    }
  });
  let total = 0;
  for (let v = 0; v < n; v++) total += strength[v] as number;
  // Self-loops keep their weight share: they are not edges between two ends.
  const loop = new Float64Array(n);
  const second = gl[1];
  const reweighted: WGraph = {
    n,
    start: g.start,
    nbr: g.nbr,
    w: votes[0] ?? null,
    ...(second ? { start2: second.start, nbr2: second.nbr, w2: votes[1] ?? null } : {}),
    table,
    loop,
    strength,
    total,
  };
  return louvain(reweighted, { resolution: o.resolution, maxLevels: 100, threshold: 1e-7, seed: o.seed + 1 }, ctx, s).membership;
}
