// igraph's layout_davidson_harel (src/layout/davidson_harel.c): simulated annealing over an energy of node-node
// repulsion, distance from the border, edge lengths, edge crossings and (fine tuning only) node-edge distances.
// Each round visits the vertices in a random order and tries 30 moves of the current radius each (in random
// directions out of 30 evenly spread); a move is taken when it lowers the energy or, while annealing, with
// probability exp(-dE / radius). The radius cools by cool_fact per round; fine tuning uses 1% of the layout's
// extent and takes only improving moves. Positions stay inside a square of side 10 sqrt(n).
import type { ComputeGraph } from "../../../../kernels/cpu/csr.ts";
import { undirected } from "../../../../kernels/cpu/csr.ts";
import type { ComputeContext } from "../../../compute/types.ts";
import { seededRandom } from "../../seeded.ts";

export type DavidsonHarelParams = {
  maxiter: number;
  fineiter: number;
  cool_fact: number;
  weight_node_dist: number;
  weight_border: number;
  weight_edge_lengths: number;
  weight_edge_crossings: number;
  weight_node_edge_dist: number;
};

/** Whether segments p0-p1 and p2-p3 intersect (igraph_i_layout_segments_intersect; parallel ones never do). */
export function segmentsIntersect(
  p0x: number,
  p0y: number,
  p1x: number,
  p1y: number,
  p2x: number,
  p2y: number,
  p3x: number,
  p3y: number,
): boolean {
  const s1x = p1x - p0x;
  const s1y = p1y - p0y;
  const s2x = p3x - p2x;
  const s2y = p3y - p2y;
  const s1 = -s1y * (p0x - p2x) + s1x * (p0y - p2y);
  const s2 = -s2x * s1y + s1x * s2y;
  if (s2 === 0) return false;
  const t1 = s2x * (p0y - p2y) - s2y * (p0x - p2x);
  const s = s1 / s2;
  const t = t1 / s2;
  return s >= 0 && s <= 1 && t >= 0 && t <= 1;
}

/** Squared distance from point v to segment u1-u2 (igraph_i_layout_point_segment_dist2). */
export function pointSegmentDist2(vx: number, vy: number, u1x: number, u1y: number, u2x: number, u2y: number): number {
  const dx = u2x - u1x;
  const dy = u2y - u1y;
  const l2 = dx * dx + dy * dy;
  if (l2 === 0) return (vx - u1x) * (vx - u1x) + (vy - u1y) * (vy - u1y);
  const t = ((vx - u1x) * dx + (vy - u1y) * dy) / l2;
  if (t < 0) return (vx - u1x) * (vx - u1x) + (vy - u1y) * (vy - u1y);
  if (t > 1) return (vx - u2x) * (vx - u2x) + (vy - u2y) * (vy - u2y);
  const px = u1x + t * dx;
  const py = u1y + t * dy;
  return (vx - px) * (vx - px) + (vy - py) * (vy - py);
}

/** python-igraph's defaults for the negative ("automatic") parameters, from the vertex count and the density. */
export function davidsonHarelDefaults(graph: ComputeGraph, given: DavidsonHarelParams): DavidsonHarelParams {
  const n = graph.n;
  const p = { ...given };
  if (p.fineiter < 0) p.fineiter = n > 0 ? Math.min(10, Math.trunc(Math.log(n) / Math.log(2))) : 0;
  if (p.weight_edge_lengths < 0 || p.weight_edge_crossings < 0 || p.weight_node_edge_dist < 0) {
    // igraph_density without loops: m over the ordered (directed) or unordered pairs.
    const pairs = n < 2 ? 0 : graph.directed ? n * (n - 1) : (n * (n - 1)) / 2;
    const density = pairs > 0 ? graph.m / pairs : 0;
    if (p.weight_edge_lengths < 0) p.weight_edge_lengths = density / 10;
    if (p.weight_edge_crossings < 0) p.weight_edge_crossings = Math.max(0, 1 - Math.sqrt(density));
    if (p.weight_node_edge_dist < 0) p.weight_node_edge_dist = Math.max(0, 0.2 * (1 - density));
  }
  return p;
}

function shuffle(values: Int32Array, random: () => number): void {
  for (let i = values.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    const t = values[i] as number;
    values[i] = values[j] as number;
    values[j] = t;
  }
}

/** Runs Davidson-Harel from `start` (node-major x, y) or a seeded uniform start in the square. */
export function davidsonHarelLayout(
  graph: ComputeGraph,
  p: DavidsonHarelParams,
  start: Float64Array | null,
  seed: number,
  ctx: ComputeContext,
): Float64Array {
  const n = graph.n;
  const m = graph.m;
  const res = new Float64Array(n * 2);
  if (n === 0) return res;
  const random = seededRandom(seed);
  const width = Math.sqrt(n) * 10;
  const height = width;
  const noTries = 30;
  const fineTuningFactor = 0.01;
  let moveRadius = width / 2;
  let minX = width / 2;
  let maxX = -width / 2;
  let minY = height / 2;
  let maxY = -height / 2;
  if (!start) {
    for (let i = 0; i < n; i++) {
      const x = random() * width - width / 2;
      const y = random() * height - height / 2;
      res[i * 2] = x;
      res[i * 2 + 1] = y;
      // igraph's bookkeeping (else-if: the first vertex only lowers the minima)
      if (x < minX) minX = x;
      else if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      else if (y > maxY) maxY = y;
    }
  } else {
    res.set(start);
    minX = Number.POSITIVE_INFINITY;
    maxX = Number.NEGATIVE_INFINITY;
    minY = Number.POSITIVE_INFINITY;
    maxY = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < n; i++) {
      const x = res[i * 2] as number;
      const y = res[i * 2 + 1] as number;
      if (x < minX) minX = x;
      else if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      else if (y > maxY) maxY = y;
    }
  }
  const tryX = new Float64Array(noTries);
  const tryY = new Float64Array(noTries);
  for (let i = 0; i < noTries; i++) {
    const phi = ((2 * Math.PI) / noTries) * i;
    tryX[i] = Math.cos(phi);
    tryY[i] = Math.sin(phi);
  }
  // Neighbours and incident edges with the edges read both ways, self-loops left out (igraph's NO_LOOPS).
  const adj = undirected(graph);
  const nbrStart = new Int32Array(n + 1);
  const nbrList: number[] = [];
  for (let v = 0; v < n; v++) {
    for (let k = adj.start[v] as number; k < (adj.start[v + 1] as number); k++) {
      if ((adj.nbr[k] as number) === v) continue;
      nbrList.push(adj.nbr[k] as number);
    }
    nbrStart[v + 1] = nbrList.length;
  }
  const { src, dst } = graph;
  const perm = Int32Array.from({ length: n }, (_, i) => i);
  const tryIdx = Int32Array.from({ length: noTries }, (_, i) => i);
  const wNode = p.weight_node_dist;
  const wBorder = p.weight_border;
  const wLength = p.weight_edge_lengths;
  const wCross = p.weight_edge_crossings;
  const wNodeEdge = p.weight_node_edge_dist;
  const rounds = p.maxiter + p.fineiter;
  const inv2 = (d: number) => 1 / (d * d);
  const border = (d: number) => (d < 0 ? 2 : d);
  /**
   * The terms of the energy that involve vertex v placed at (x, y), the others where they are: igraph sums the
   * difference of each between the old and the new place; the old place's terms are computed once per vertex
   * (and again after it moves) instead of once per try.
   */
  const terms = (v: number, x: number, y: number, fineTuning: boolean, out: Float64Array): void => {
    let nodeDist = 0;
    let borderTerm = 0;
    let lengths = 0;
    let crossings = 0;
    let nodeEdge = 0;
    if (wNode !== 0) {
      for (let u = 0; u < n; u++) {
        if (u === v) continue;
        const dx = x - (res[u * 2] as number);
        const dy = y - (res[u * 2 + 1] as number);
        nodeDist += 1 / (dx * dx + dy * dy);
      }
    }
    if (wBorder !== 0) {
      borderTerm = inv2(border(width / 2 - x)) + inv2(border(x + width / 2)) + inv2(border(height / 2 - y)) + inv2(border(y + height / 2));
    }
    const first = nbrStart[v] as number;
    const last = nbrStart[v + 1] as number;
    if (wLength !== 0) {
      for (let j = first; j < last; j++) {
        const u = nbrList[j] as number;
        const dx = x - (res[u * 2] as number);
        const dy = y - (res[u * 2 + 1] as number);
        lengths += dx * dx + dy * dy;
      }
    }
    if (wCross !== 0) {
      for (let j = first; j < last; j++) {
        const u = nbrList[j] as number;
        const ux = res[u * 2] as number;
        const uy = res[u * 2 + 1] as number;
        for (let e = 0; e < m; e++) {
          const u1 = src[e] as number;
          const u2 = dst[e] as number;
          if (u1 === v || u2 === v || u1 === u || u2 === u) continue;
          if (
            segmentsIntersect(
              x,
              y,
              ux,
              uy,
              res[u1 * 2] as number,
              res[u1 * 2 + 1] as number,
              res[u2 * 2] as number,
              res[u2 * 2 + 1] as number,
            )
          )
            crossings++;
        }
      }
    }
    if (wNodeEdge !== 0 && fineTuning) {
      // every edge not at v from v, and every other vertex from v's edges
      for (let e = 0; e < m; e++) {
        const u1 = src[e] as number;
        const u2 = dst[e] as number;
        if (u1 === v || u2 === v) continue;
        nodeEdge +=
          1 / pointSegmentDist2(x, y, res[u1 * 2] as number, res[u1 * 2 + 1] as number, res[u2 * 2] as number, res[u2 * 2 + 1] as number);
      }
      for (let j = first; j < last; j++) {
        const u = nbrList[j] as number;
        const ux = res[u * 2] as number;
        const uy = res[u * 2 + 1] as number;
        for (let w = 0; w < n; w++) {
          if (w === v || w === u) continue;
          nodeEdge += 1 / pointSegmentDist2(res[w * 2] as number, res[w * 2 + 1] as number, x, y, ux, uy);
        }
      }
    }
    out[0] = nodeDist;
    out[1] = borderTerm;
    out[2] = lengths;
    out[3] = crossings;
    out[4] = nodeEdge;
  };
  const before = new Float64Array(5);
  const after = new Float64Array(5);
  for (let round = 0; round < rounds; round++) {
    ctx.checkCancelled();
    ctx.progress({ phase: round < p.maxiter ? "annealing" : "fine tuning", iteration: round, fraction: round / rounds });
    shuffle(perm, random);
    const fineTuning = round >= p.maxiter;
    if (fineTuning) {
      const fx = fineTuningFactor * (maxX - minX);
      const fy = fineTuningFactor * (maxY - minY);
      moveRadius = fx < fy ? fx : fy;
    }
    for (let q = 0; q < n; q++) {
      if ((q & 63) === 63) ctx.checkCancelled();
      const v = perm[q] as number;
      shuffle(tryIdx, random);
      terms(v, res[v * 2] as number, res[v * 2 + 1] as number, fineTuning, before);
      for (let t = 0; t < noTries; t++) {
        const ti = tryIdx[t] as number;
        const oldX = res[v * 2] as number;
        const oldY = res[v * 2 + 1] as number;
        let newX = oldX + moveRadius * (tryX[ti] as number);
        let newY = oldY + moveRadius * (tryY[ti] as number);
        if (newX < -width / 2) newX = -width / 2 - 1e-6;
        if (newX > width / 2) newX = width / 2 - 1e-6;
        if (newY < -height / 2) newY = -height / 2 - 1e-6;
        if (newY > height / 2) newY = height / 2 - 1e-6;
        terms(v, newX, newY, fineTuning, after);
        let diff = 0;
        if (wNode !== 0) diff += wNode * ((after[0] as number) - (before[0] as number));
        if (wBorder !== 0) diff += wBorder * ((after[1] as number) - (before[1] as number));
        if (wLength !== 0) diff += wLength * ((after[2] as number) - (before[2] as number));
        if (wCross !== 0) diff += wCross * ((after[3] as number) - (before[3] as number));
        if (wNodeEdge !== 0 && fineTuning) diff += wNodeEdge * ((after[4] as number) - (before[4] as number));
        if (diff < 0 || (!fineTuning && random() < Math.exp(-diff / moveRadius))) {
          res[v * 2] = newX;
          res[v * 2 + 1] = newY;
          before.set(after);
          if (newX < minX) minX = newX;
          else if (newX > maxX) maxX = newX;
          if (newY < minY) minY = newY;
          else if (newY > maxY) maxY = newY;
        }
      }
    }
    moveRadius *= p.cool_fact;
  }
  return res;
}
