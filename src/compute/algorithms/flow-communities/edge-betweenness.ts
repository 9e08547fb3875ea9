// Girvan-Newman as igraph 0.10's igraph_community_edge_betweenness runs it: remove the edge of highest betweenness
// (recomputed over the remaining edges, BFS or Dijkstra from every vertex), then read the removals backwards as merges,
// with igraph's modularity after each merge.
import type { ComputeGraph } from "../../../../kernels/cpu/csr.ts";
import type { ComputeContext } from "../../types.ts";
import { allIncidence, directedIncidence, type Incidence, igraphEnds, removeIncident } from "./eb-incidence.ts";
import { igraphModularity } from "./igraph-modularity.ts";

export type EbDendrogram = { merges: Int32Array; q: Float64Array | null };

/** The order igraph removes the edges in. */
export function removalOrder(graph: ComputeGraph, directedParam: boolean, weights: Float64Array | null, ctx: ComputeContext): Int32Array {
  const { n, m } = graph;
  const directed = directedParam && graph.directed;
  const { from, to } = igraphEnds(graph);
  let outs: Incidence;
  let ins: Incidence;
  if (directed) {
    outs = directedIncidence(n, from, to, true);
    ins = directedIncidence(n, from, to, false);
  } else {
    outs = allIncidence(n, from, to, graph.directed);
    ins = outs;
  }
  const other = (e: number, v: number) => ((from[e] as number) === v ? (to[e] as number) : (from[e] as number));
  const distance = new Float64Array(n);
  const nrgeo = new Float64Array(n);
  const tmpscore = new Float64Array(n);
  const eb = new Float64Array(m);
  const passive = new Uint8Array(m);
  const stack = new Int32Array(n);
  const queue = new Int32Array(n);
  const result = new Int32Array(m);
  // Weighted: igraph's two-way indexed max-heap on -distance, and each vertex's shortest-path parent edges.
  const hData = new Float64Array(n);
  const hIndex = new Int32Array(n);
  const hIndex2 = new Int32Array(n);
  let hSize = 0;
  const fStart = ins.start;
  const fLen = new Int32Array(n);
  const fEdges = new Int32Array(ins.edges.length);
  const hSwitch = (e1: number, e2: number) => {
    if (e1 === e2) return;
    const d = hData[e1] as number;
    hData[e1] = hData[e2] as number;
    hData[e2] = d;
    const t1 = hIndex[e1] as number;
    const t2 = hIndex[e2] as number;
    hIndex2[t1] = e2 + 2;
    hIndex2[t2] = e1 + 2;
    hIndex[e1] = t2;
    hIndex[e2] = t1;
  };
  const hShiftUp = (elem: number) => {
    while (elem !== 0) {
      const parent = ((elem + 1) >> 1) - 1;
      if ((hData[elem] as number) < (hData[parent] as number)) return;
      hSwitch(elem, parent);
      elem = parent;
    }
  };
  const hSink = (head: number) => {
    for (;;) {
      const left = (head + 1) * 2 - 1;
      const right = (head + 1) * 2;
      if (left >= hSize) return;
      if (right === hSize || (hData[left] as number) >= (hData[right] as number)) {
        if ((hData[head] as number) < (hData[left] as number)) {
          hSwitch(head, left);
          head = left;
        } else return;
      } else if ((hData[head] as number) < (hData[right] as number)) {
        hSwitch(head, right);
        head = right;
      } else return;
    }
  };

  // Only the sources in the component(s) the last removal touched are run again: an edge's betweenness sums the
  // sources of its own component in ascending order, so the others' sums stay exactly as igraph recomputes them.
  const sources = new Int32Array(n);
  for (let v = 0; v < n; v++) sources[v] = v;
  let nSources = n;
  const mark = new Uint8Array(n);
  /** Marks the components of a and b (edges read both ways), zeroes their edges' betweenness, lists them ascending. */
  const touched = (a: number, b: number): number => {
    let count = 0;
    for (const root of [a, b]) {
      if (mark[root]) continue;
      mark[root] = 1;
      let head = count;
      sources[count++] = root;
      while (head < count) {
        const v = sources[head++] as number;
        for (const inc of directed ? [outs, ins] : [outs]) {
          const s0 = inc.start[v] as number;
          const end = s0 + (inc.len[v] as number);
          for (let i = s0; i < end; i++) {
            const edge = inc.edges[i] as number;
            eb[edge] = 0;
            const u = other(edge, v);
            if (!mark[u]) {
              mark[u] = 1;
              sources[count++] = u;
            }
          }
        }
      }
    }
    const list = sources.subarray(0, count).sort();
    for (let i = 0; i < count; i++) mark[list[i] as number] = 0;
    return count;
  };
  for (let e = 0; e < m; e++) {
    ctx.checkCancelled();
    ctx.progress({ phase: "edge betweenness removals", iteration: e, fraction: e / m });
    for (let si = 0; si < nSources; si++) {
      const source = sources[si] as number;
      let sp = 0;
      if (!weights) {
        let qh = 0;
        let qt = 0;
        queue[qt++] = source;
        nrgeo[source] = 1;
        while (qh < qt) {
          const act = queue[qh++] as number;
          const s = outs.start[act] as number;
          const end = s + (outs.len[act] as number);
          for (let i = s; i < end; i++) {
            const edge = outs.edges[i] as number;
            const nb = other(edge, act);
            if ((nrgeo[nb] as number) !== 0) {
              if ((distance[nb] as number) === (distance[act] as number) + 1) nrgeo[nb] = (nrgeo[nb] as number) + (nrgeo[act] as number);
            } else {
              nrgeo[nb] = (nrgeo[nb] as number) + (nrgeo[act] as number);
              distance[nb] = (distance[act] as number) + 1;
              queue[qt++] = nb;
              stack[sp++] = nb;
            }
          }
        }
        while (sp > 0) {
          const act = stack[--sp] as number;
          if ((distance[act] as number) < 1) continue;
          const s = ins.start[act] as number;
          const end = s + (ins.len[act] as number);
          for (let i = s; i < end; i++) {
            const edge = ins.edges[i] as number;
            const nb = other(edge, act);
            if ((distance[nb] as number) === (distance[act] as number) - 1 && (nrgeo[nb] as number) !== 0) {
              const add = (((tmpscore[act] as number) + 1) * (nrgeo[nb] as number)) / (nrgeo[act] as number);
              tmpscore[nb] = (tmpscore[nb] as number) + add;
              eb[edge] = (eb[edge] as number) + add;
            }
          }
        }
        for (let i = 0; i < qt; i++) {
          const v = queue[i] as number;
          distance[v] = 0;
          nrgeo[v] = 0;
          tmpscore[v] = 0;
        }
      } else {
        hData[0] = 0;
        hIndex[0] = source;
        hIndex2[source] = 2;
        hSize = 1;
        distance[source] = 1;
        nrgeo[source] = 1;
        while (hSize > 0) {
          const minnei = hIndex[0] as number;
          const mindist = -(hData[0] as number);
          hSwitch(0, hSize - 1);
          hSize--;
          hIndex2[minnei] = 0;
          hSink(0);
          stack[sp++] = minnei;
          const s = outs.start[minnei] as number;
          const end = s + (outs.len[minnei] as number);
          for (let i = s; i < end; i++) {
            const edge = outs.edges[i] as number;
            const t = other(edge, minnei);
            const altdist = mindist + (weights[edge] as number);
            const curdist = distance[t] as number;
            if (curdist === 0) {
              fEdges[fStart[t] as number] = edge;
              fLen[t] = 1;
              nrgeo[t] = nrgeo[minnei] as number;
              distance[t] = altdist + 1;
              hData[hSize] = -altdist;
              hIndex[hSize] = t;
              hIndex2[t] = hSize + 2;
              hSize++;
              hShiftUp(hSize - 1);
            } else if (altdist < curdist - 1) {
              fEdges[fStart[t] as number] = edge;
              fLen[t] = 1;
              nrgeo[t] = nrgeo[minnei] as number;
              distance[t] = altdist + 1;
              const pos = (hIndex2[t] as number) - 2;
              hData[pos] = -altdist;
              hSink(pos);
              hShiftUp(pos);
            } else if (altdist === curdist - 1) {
              fEdges[(fStart[t] as number) + (fLen[t] as number)] = edge;
              fLen[t] = (fLen[t] as number) + 1;
              nrgeo[t] = (nrgeo[t] as number) + (nrgeo[minnei] as number);
            }
          }
        }
        while (sp > 0) {
          const w = stack[--sp] as number;
          const fs = fStart[w] as number;
          const fl = fLen[w] as number;
          for (let i = fs; i < fs + fl; i++) {
            const fedge = fEdges[i] as number;
            const nb = other(fedge, w);
            const add = (((tmpscore[w] as number) + 1) * (nrgeo[nb] as number)) / (nrgeo[w] as number);
            tmpscore[nb] = (tmpscore[nb] as number) + add;
            eb[fedge] = (eb[fedge] as number) + add;
          }
          tmpscore[w] = 0;
          distance[w] = 0;
          nrgeo[w] = 0;
          fLen[w] = 0;
        }
      }
    }
    // The active edge of highest betweenness (the first such).
    let which = 0;
    while (passive[which]) which++;
    let max = eb[which] as number;
    for (let i = which + 1; i < m; i++) {
      if (!passive[i] && (eb[i] as number) > max) {
        max = eb[i] as number;
        which = i;
      }
    }
    result[e] = which;
    passive[which] = 1;
    removeIncident(ins, to[which] as number, which);
    removeIncident(outs, from[which] as number, which);
    nSources = touched(from[which] as number, to[which] as number);
  }
  return result;
}

/** The merges read from the removals backwards, and igraph's modularity after each (null with weights, as python-igraph). */
export function ebMerges(graph: ComputeGraph, removed: Int32Array, directedParam: boolean, withModularity: boolean): EbDendrogram {
  const { n, src, dst } = graph;
  const directed = directedParam && graph.directed;
  const membership = new Int32Array(n);
  for (let i = 0; i < n; i++) membership[i] = i;
  const merges: number[] = [];
  const q: number[] = [];
  const scratch = { e: new Float64Array(2 * n), kOut: new Float64Array(2 * n), kIn: new Float64Array(2 * n) };
  if (withModularity) q.push(igraphModularity(src, dst, membership, null, directed, scratch));
  let midx = 0;
  for (let i = removed.length - 1; i >= 0; i--) {
    const edge = removed[i] as number;
    const c1 = membership[src[edge] as number] as number;
    const c2 = membership[dst[edge] as number] as number;
    if (c1 === c2) continue;
    merges.push(c1, c2);
    for (let j = 0; j < n; j++) {
      const c = membership[j] as number;
      if (c === c1 || c === c2) membership[j] = n + midx;
    }
    if (withModularity) q.push(igraphModularity(src, dst, membership, null, directed, scratch));
    midx++;
  }
  return { merges: Int32Array.from(merges), q: withModularity ? Float64Array.from(q) : null };
}
