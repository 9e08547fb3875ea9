// igraph's layout_lgl (src/layout/large_graph.c): the Large Graph Layout grown layer by layer along a BFS tree
// from the root. Each new layer is placed around its parents (away from the centre of mass, the root's children
// evenly on a circle), then Fruchterman-Reingold forces settle all placed vertices: attraction d^2 / k along the
// edges of the placed layers, repulsion k^2 (1/d - d^2 / repulserad) between vertices closer than cellsize in the
// same or neighbouring grid cells, each move capped by a temperature cooling as maxdelta ((maxiter - it) /
// maxiter)^coolexp. Vertices the BFS does not reach (other components) keep their random start, as in igraph.
//
// One difference from igraph 0.10: there igraph_bfs_simple marks the root's parent -1, which large_graph.c
// skips, so the root's children are never placed and stay at their random start up to n / sqrt(pi) away (its
// layouts then draw worse than a random layout by stress). Here the root places its children as LGL intends
// (as igraph did when the root was its own parent).
import type { ComputeGraph } from "../../../../kernels/cpu/csr.ts";
import { undirected } from "../../../../kernels/cpu/csr.ts";
import type { ComputeContext } from "../../../compute/types.ts";
import { seededRandom } from "../../seeded.ts";
import { VertexGrid } from "./lgl-grid.ts";
import { igraphRandomLayout } from "./random-start.ts";

export type LglParams = {
  maxiter: number;
  maxdelta: number;
  area: number;
  coolexp: number;
  repulserad: number;
  cellsize: number;
  /** Root row, or -1 for a random one. */
  root: number;
};

function norm2d(x: number, y: number): [number, number] {
  const len = Math.sqrt(x * x + y * y);
  return len !== 0 ? [x / len, y / len] : [x, y];
}

/** BFS from root over edges read both ways: visit order, layer starts (plus the end), parents (-1 root, -2 unreached). */
function bfs(graph: ComputeGraph, root: number): { vids: Int32Array; layers: number[]; parents: Int32Array } {
  const n = graph.n;
  const adj = undirected(graph);
  const parents = new Int32Array(n).fill(-2);
  const dist = new Int32Array(n);
  const vids = new Int32Array(n);
  const layers: number[] = [0];
  let tail = 0;
  vids[tail++] = root;
  parents[root] = -1;
  let lastLayer = 0;
  for (let head = 0; head < tail; head++) {
    const v = vids[head] as number;
    for (let k = adj.start[v] as number; k < (adj.start[v + 1] as number); k++) {
      const u = adj.nbr[k] as number;
      if (u === root || parents[u] !== -2) continue;
      parents[u] = v;
      dist[u] = (dist[v] as number) + 1;
      if (dist[u] !== lastLayer) {
        layers.push(tail);
        lastLayer = dist[u] as number;
      }
      vids[tail++] = u;
    }
  }
  layers.push(tail);
  return { vids: vids.subarray(0, tail), layers, parents };
}

export function lglLayout(graph: ComputeGraph, p: LglParams, seed: number, ctx: ComputeContext): Float64Array {
  const n = graph.n;
  if (n === 0) return new Float64Array(0);
  const random = seededRandom(seed);
  const { src, dst } = graph;
  const frk = Math.sqrt(p.area / n);
  const root = p.root >= 0 ? p.root : Math.min(n - 1, Math.floor(random() * n));
  const { vids, layers, parents } = bfs(graph, root);
  const noOfLayers = layers.length - 1;
  const radius = Math.sqrt(p.area / Math.PI);
  const pos = igraphRandomLayout(n, 2, random);
  for (let i = 0; i < pos.length; i++) pos[i] = (pos[i] as number) * radius;
  const grid = new VertexGrid(pos, n, -radius, radius, p.cellsize);
  grid.add(root, 0, 0);
  let hn = 0;
  for (let a = 1; a < noOfLayers; a++) hn += 1 / a;
  const adj = undirected(graph);
  const edges: number[] = [];
  const forcex = new Float64Array(n);
  const forcey = new Float64Array(n);
  const epsilon = 10e-6;
  const sconst = radius / hn;
  for (let actlayer = 1; actlayer < noOfLayers; actlayer++) {
    ctx.checkCancelled();
    // Step 1: the next layer around its parents
    let j = layers[actlayer] as number;
    for (let i = layers[actlayer - 1] as number; i < (layers[actlayer] as number); i++) {
      const vid = vids[i] as number;
      const par = parents[vid] === -1 ? vid : (parents[vid] as number);
      const [massx, massy] = norm2d(...grid.center());
      const [px, py] = norm2d(
        (pos[vid * 2] as number) - (pos[par * 2] as number),
        (pos[vid * 2 + 1] as number) - (pos[par * 2 + 1] as number),
      );
      const sx = massx + px + (pos[vid * 2] as number);
      const sy = massy + py + (pos[vid * 2 + 1] as number);
      while (j < (layers[actlayer + 1] as number) && parents[vids[j] as number] === vid) {
        let rx: number;
        let ry: number;
        if (actlayer === 1) {
          const phi = ((2 * Math.PI) / ((layers[2] as number) - 1)) * (j - 1);
          rx = Math.cos(phi);
          ry = Math.sin(phi);
        } else {
          rx = random() * 2 - 1;
          ry = random() * 2 - 1;
        }
        [rx, ry] = norm2d(rx, ry);
        grid.add(vids[j] as number, sx + (rx / actlayer) * sconst, sy + (ry / actlayer) * sconst);
        j++;
      }
    }
    // Step 2: the edges of the new layer (igraph's in-grid test holds for every vertex: every edge but a loop)
    for (let q = layers[actlayer] as number; q < (layers[actlayer + 1] as number); q++) {
      const vid = vids[q] as number;
      for (let k = adj.start[vid] as number; k < (adj.start[vid + 1] as number); k++) {
        const e = adj.edge[k] as number;
        if (src[e] !== dst[e]) edges.push(e);
      }
    }
    // Step 3: let the springs spring
    let maxchange = epsilon + 1;
    const placed = layers[actlayer + 1] as number;
    for (let it = 0; it < p.maxiter && maxchange > epsilon; it++) {
      ctx.checkCancelled();
      ctx.progress({ phase: "lgl", iteration: it, fraction: (actlayer - 1) / (noOfLayers - 1) + it / (p.maxiter * (noOfLayers - 1)) });
      const t = p.maxdelta * ((p.maxiter - it) / p.maxiter) ** p.coolexp;
      forcex.fill(0);
      forcey.fill(0);
      maxchange = 0;
      for (const e of edges) {
        const from = src[e] as number;
        const to = dst[e] as number;
        let xd = (pos[from * 2] as number) - (pos[to * 2] as number);
        let yd = (pos[from * 2 + 1] as number) - (pos[to * 2 + 1] as number);
        const dist = Math.sqrt(xd * xd + yd * yd);
        if (dist !== 0) {
          xd /= dist;
          yd /= dist;
        }
        const force = (dist * dist) / frk;
        forcex[from] = (forcex[from] as number) - xd * force;
        forcex[to] = (forcex[to] as number) + xd * force;
        forcey[from] = (forcey[from] as number) - yd * force;
        forcey[to] = (forcey[to] as number) + yd * force;
      }
      grid.forEachNearPair((vid, nei) => {
        let xd = (pos[vid * 2] as number) - (pos[nei * 2] as number);
        let yd = (pos[vid * 2 + 1] as number) - (pos[nei * 2 + 1] as number);
        let dist = Math.sqrt(xd * xd + yd * yd);
        if (dist < p.cellsize) {
          if (dist === 0) dist = epsilon;
          xd /= dist;
          yd /= dist;
          const force = frk * frk * (1.0 / dist - (dist * dist) / p.repulserad);
          forcex[vid] = (forcex[vid] as number) + xd * force;
          forcex[nei] = (forcex[nei] as number) - xd * force;
          forcey[vid] = (forcey[vid] as number) + yd * force;
          forcey[nei] = (forcey[nei] as number) - yd * force;
        }
      });
      for (let q = 0; q < placed; q++) {
        const v = vids[q] as number;
        let fx = forcex[v] as number;
        let fy = forcey[v] as number;
        const ded = Math.sqrt(fx * fx + fy * fy);
        if (ded > t) {
          fx *= t / ded;
          fy *= t / ded;
        }
        grid.move(v, fx, fy);
        if (fx > maxchange) maxchange = fx;
        if (fy > maxchange) maxchange = fy;
      }
    }
  }
  return pos;
}
