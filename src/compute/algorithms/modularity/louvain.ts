// Louvain (Blondel et al.'s multilevel modularity optimisation): move nodes, merge communities into nodes, repeat.
import type { ComputeContext } from "../../types.ts";
import { aggregate, aggregateSpace, GROUP_ABOVE_SHARE } from "./aggregate.ts";
import { entryCount, modularity, renumber, type WGraph } from "./graph.ts";
import { localMove, ROUND_THRESHOLD, type Scratch, scratch } from "./local-move.ts";
import { rng } from "./rng.ts";

export type LouvainOptions = {
  resolution: number;
  /** Levels at most (merges of the graph). */
  maxLevels: number;
  /** A level that improves modularity by less than this ends the run. */
  threshold: number;
  seed: number;
};

export type LouvainResult = { membership: Int32Array; modularity: number; levels: number };

/** The membership (0..k-1 by first appearance) of the best level found on g. */
export function louvain(g0: WGraph, o: LouvainOptions, ctx: ComputeContext, reuse?: Scratch): LouvainResult {
  const membership = new Int32Array(g0.n);
  for (let v = 0; v < g0.n; v++) membership[v] = v;
  if (g0.total <= 0) {
    renumber(membership);
    return { membership, modularity: Number.NaN, levels: 0 };
  }
  const r = rng(o.seed);
  // A caller's scratch arrays where it has some for g0's size (ECG's ensemble).
  const s = reuse && reuse.acc.length >= g0.n ? reuse : scratch(g0.n);
  let g = g0;
  let q = modularity(g0, membership, o.resolution, s);
  let levels = 0;
  // Every level's aggregate goes into one space (in place from the second on: see AggregateSpace).
  const space = aggregateSpace();
  while (levels < o.maxLevels) {
    ctx.checkCancelled();
    const comm = new Int32Array(g.n);
    for (let v = 0; v < g.n; v++) comm[v] = v;
    const moves = localMove(g, comm, g.strength, o.resolution / g.total, r, s, (ROUND_THRESHOLD * g.total) / 2);
    if (moves === 0) break;
    // The moving phase's own arrays are free between its calls: the label map and the community sums use them.
    const k = renumber(comm, s.count);
    const next = modularity(g, comm, o.resolution, s);
    if (!(next > q)) break;
    for (let v = 0; v < g0.n; v++) membership[v] = comm[membership[v] as number] as number;
    levels++;
    const gain = next - q;
    q = next;
    ctx.progress({ phase: "louvain", iteration: levels });
    if (gain < o.threshold || k === g.n) break;
    g = aggregate(g, comm, k, space, GROUP_ABOVE_SHARE * entryCount(g0));
  }
  // A last pass of single-node moves on the full graph (nodes the coarse levels placed badly move out).
  if (levels > 0) {
    localMove(g0, membership, g0.strength, o.resolution / g0.total, r, s, (ROUND_THRESHOLD * g0.total) / 2);
    renumber(membership, s.count);
    q = modularity(g0, membership, o.resolution, s);
  }
  renumber(membership);
  return { membership, modularity: q, levels };
}
