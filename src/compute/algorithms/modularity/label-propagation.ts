// Label propagation (Raghavan, Albert & Kumara), as igraph runs it: nodes in random order take a most frequent
// (weighted) label among their neighbours, ties broken at random; fixed nodes keep theirs; stops when every label
// is a dominant one. The graph is read undirected.
import type { ComputeContext } from "../../types.ts";
import { renumber, type WGraph } from "./graph.ts";
import { rng, shuffled } from "./rng.ts";

export type LabelPropagationOptions = {
  /** Starting labels (negative: unlabelled), or null: every node its own label. */
  initial: Int32Array | null;
  /** Nodes whose label never changes (1), or null. */
  fixed: Uint8Array | null;
  seed: number;
  /** Sweeps at most (a sweep with no change ends the run first). */
  maxSweeps: number;
};

export function labelPropagation(g: WGraph, o: LabelPropagationOptions, ctx: ComputeContext): Int32Array {
  const { n, start, nbr, w } = g;
  const r = rng(o.seed);
  const label = new Int32Array(n);
  let maxLabel = n - 1;
  if (o.initial) {
    // Given labels, compacted to 0..k-1 (the partition is what counts).
    const ids = new Map<number, number>();
    for (let v = 0; v < n; v++) {
      const x = o.initial[v] as number;
      if (x < 0) label[v] = -1;
      else {
        let id = ids.get(x);
        if (id === undefined) {
          id = ids.size;
          ids.set(x, id);
        }
        label[v] = id;
      }
    }
    maxLabel = Math.max(0, ids.size - 1);
  } else for (let v = 0; v < n; v++) label[v] = v;
  // Dense accumulators over labels (labels are < maxLabel + 1).
  const size = maxLabel + 1;
  const acc = new Float64Array(size);
  const seen = new Int32Array(size).fill(-1);
  const touched = new Int32Array(Math.min(size, Math.max(1, maxDegree(g))));
  const ties = new Int32Array(touched.length);
  for (let sweep = 0; sweep < o.maxSweeps; sweep++) {
    ctx.checkCancelled();
    const order = shuffled(n, r);
    let changed = 0;
    for (let i = 0; i < n; i++) {
      const v = order[i] as number;
      if (o.fixed && o.fixed[v] === 1) continue;
      let nt = 0;
      for (let j = start[v] as number; j < (start[v + 1] as number); j++) {
        const l = label[nbr[j] as number] as number;
        if (l < 0) continue;
        if (seen[l] !== v) {
          seen[l] = v;
          acc[l] = 0;
          touched[nt++] = l;
        }
        acc[l] = (acc[l] as number) + (w === null ? 1 : (w[j] as number));
      }
      if (nt === 0) continue;
      let best = -1;
      for (let t = 0; t < nt; t++) if ((acc[touched[t] as number] as number) > best) best = acc[touched[t] as number] as number;
      const own = label[v] as number;
      // Keeping a label that is already dominant lets the run settle.
      if (own >= 0 && seen[own] === v && acc[own] === best) continue;
      let nTies = 0;
      for (let t = 0; t < nt; t++) if (acc[touched[t] as number] === best) ties[nTies++] = touched[t] as number;
      label[v] = ties[nTies === 1 ? 0 : r.below(nTies)] as number;
      changed++;
    }
    for (let t = 0; t < size; t++) seen[t] = -1;
    ctx.progress({ phase: "label_propagation", iteration: sweep + 1 });
    if (changed === 0) break;
  }
  // Nodes no label reached stay alone.
  let next = size;
  for (let v = 0; v < n; v++) if ((label[v] as number) < 0) label[v] = next++;
  renumber(label);
  return label;
}

function maxDegree(g: WGraph): number {
  let d = 0;
  for (let v = 0; v < g.n; v++) d = Math.max(d, (g.start[v + 1] as number) - (g.start[v] as number));
  return d;
}
