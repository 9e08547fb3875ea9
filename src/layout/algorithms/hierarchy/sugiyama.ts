// igraph's layout_sugiyama, ported from igraph 0.10's sugiyama.c: layers (given, or from sugiyama-layering.ts),
// empty layers dropped (y = the layer's own index * vgap), then per weakly connected component: edges pointing up
// turned down, dummy vertices on edges spanning several layers, crossing reduction (sugiyama-order.ts) and
// Brandes-Köpf coordinates (brandes-kopf.ts); components side by side, hgap apart. Answers the original vertices'
// positions only (python-igraph also lists the dummy vertices after them).
import { ComputeInputError } from "../../../compute/types.ts";
import { placeHorizontally } from "./brandes-kopf.ts";
import { type IGraph, incidence, weakComponentsOf } from "./igraph-graph.ts";
import { qsortInd } from "./igraph-qsort.ts";
import { sugiyamaLayers } from "./sugiyama-layering.ts";
import { orderLayers } from "./sugiyama-order.ts";

export type SugiyamaOptions = {
  layers?: ArrayLike<number> | null;
  weights?: Float64Array | null;
  hgap: number;
  vgap: number;
  maxiter: number;
  /** Called now and then in long loops (the job's cancel check). */
  checkCancelled?: () => void;
};

/** Node-major (x, y) of the original vertices. */
export function sugiyama(graph: IGraph, options: SugiyamaOptions, layersField = "layers"): Float64Array {
  const n = graph.n;
  const { hgap, vgap, maxiter } = options;
  let layerOf: Int32Array;
  if (options.layers) {
    if (options.layers.length !== n)
      throw new ComputeInputError(`${layersField} must give one layer per node (${n} nodes, got ${options.layers.length})`, layersField);
    layerOf = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const l = options.layers[i] as number;
      if (!Number.isInteger(l) || l < 0 || l > 0x7fffffff)
        throw new ComputeInputError(`${layersField} must be non-negative integers`, layersField);
      layerOf[i] = l;
    }
  } else layerOf = sugiyamaLayers(graph, options.weights ?? null);

  // Drop empty layers: layer indices become 0, 1, 2, ...; a layer's y is its original index * vgap.
  const layerY: number[] = [];
  if (n > 0) {
    const inds = qsortInd(layerOf, "ascending");
    let j = -1;
    let last = (layerOf[inds[0] as number] as number) - 1;
    for (const k of inds) {
      if ((layerOf[k] as number) > last) {
        last = layerOf[k] as number;
        j++;
        layerY.push(last * vgap);
      }
      layerOf[k] = j;
    }
  }

  const res = new Float64Array(n * 2);
  const { membership, count } = weakComponentsOf(graph.n, incidence(graph, "all"));
  const out = incidence(graph, "out");
  let dx = 0;
  for (let comp = 0; comp < count; comp++) {
    // The component's vertices renumbered 0..size-1 in id order, then dummy vertices after them.
    const newToOld: number[] = [];
    const oldToNew = new Int32Array(n).fill(-1);
    const newLayers: number[] = [];
    for (let i = 0; i < n; i++) {
      if (membership[i] !== comp) continue;
      newLayers.push(layerOf[i] as number);
      oldToNew[i] = newToOld.length;
      newToOld.push(i);
    }
    const size = newToOld.length;
    const src: number[] = [];
    const dst: number[] = [];
    let nextId = size;
    const chain = (top: number, bottom: number, topLayer: number, bottomLayer: number) => {
      let prev = top;
      for (let l = topLayer + 1; l < bottomLayer; l++) {
        newLayers.push(l);
        src.push(prev);
        dst.push(nextId);
        prev = nextId++;
      }
      src.push(prev);
      dst.push(bottom);
    };
    for (const i of newToOld) {
      for (let j = out.start[i] as number; j < (out.start[i + 1] as number); j++) {
        const nei = out.nbr[j] as number;
        if (!graph.directed && nei < i) continue;
        const li = layerOf[i] as number;
        const ln = layerOf[nei] as number;
        if (li === ln) continue;
        if (li > ln) chain(oldToNew[nei] as number, oldToNew[i] as number, ln, li);
        else chain(oldToNew[i] as number, oldToNew[nei] as number, li, ln);
      }
    }
    const sub: IGraph = { n: nextId, from: Int32Array.from(src), to: Int32Array.from(dst), directed: true };
    const subLayer = Int32Array.from(newLayers);
    const layerLists: number[][] = Array.from({ length: subLayer.reduce((a, b) => Math.max(a, b + 1), 0) }, () => []);
    for (let v = 0; v < nextId; v++) layerLists[subLayer[v] as number]?.push(v);
    const layers = layerLists.map((list) => Int32Array.from(list));
    const x = new Float64Array(nextId);
    orderLayers(sub, subLayer, layers, x, maxiter, options.checkCancelled);
    placeHorizontally(sub, layers, x, hgap, size);
    let dx2 = dx;
    for (let v = 0; v < nextId; v++) {
      const xv = (x[v] as number) + dx;
      if (v < size) {
        const old = newToOld[v] as number;
        res[old * 2] = xv;
        res[old * 2 + 1] = layerY[subLayer[v] as number] as number;
      }
      if (dx2 < xv) dx2 = xv;
    }
    dx = dx2 + hgap;
  }
  return res;
}
