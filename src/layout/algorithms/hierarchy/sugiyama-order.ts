// Sugiyama's crossing reduction as igraph 0.10 runs it on a proper layered graph (every edge one layer down): start
// from the first-seen order within each layer, then sweep down sorting each layer by the barycenter of its upper
// neighbours and up by its lower neighbours, until nothing changes or `maxiter` sweeps. Ported with igraph's
// quirks: a vertex without neighbours on that side keeps the x of the vertex whose id is its index in the layer,
// and ties sort as igraph's qsort leaves them.
import { type IGraph, incidence } from "./igraph-graph.ts";
import { qsortInd } from "./igraph-qsort.ts";

/** `layers[l]` lists layer l's vertices (left to right, updated); `x[v]` becomes v's position within its layer. */
export function orderLayers(
  graph: IGraph,
  layerOf: Int32Array,
  layers: Int32Array[],
  x: Float64Array,
  maxiter: number,
  checkCancelled: () => void = () => {},
): void {
  const count = new Int32Array(layers.length);
  for (let v = 0; v < graph.n; v++) {
    const l = layerOf[v] as number;
    x[v] = count[l] as number;
    count[l] = (count[l] as number) + 1;
  }
  const ups = incidence(graph, "in");
  const downs = incidence(graph, "out");
  const sortLayer = (index: number, side: typeof ups): boolean => {
    const members = layers[index] as Int32Array;
    const n = members.length;
    const barycenters = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const v = members[i] as number;
      const a = side.start[v] as number;
      const b = side.start[v + 1] as number;
      if (a === b) barycenters[i] = x[i] as number;
      else {
        let sum = 0;
        for (let j = a; j < b; j++) sum += x[side.nbr[j] as number] as number;
        barycenters[i] = sum / (b - a);
      }
    }
    const sorted = qsortInd(barycenters, "ascending");
    const next = new Int32Array(n);
    let changed = false;
    for (let i = 0; i < n; i++) {
      const v = members[sorted[i] as number] as number;
      next[i] = v;
      x[v] = i;
      if (v !== members[i]) changed = true;
    }
    if (changed) layers[index] = next;
    return changed;
  };
  let changed = true;
  for (let iter = 0; changed && iter < maxiter; iter++) {
    checkCancelled();
    changed = false;
    for (let l = 1; l < layers.length; l++) if (sortLayer(l, ups)) changed = true;
    for (let l = layers.length - 2; l >= 0; l--) if (sortLayer(l, downs)) changed = true;
  }
}
