// igraph's layout_graphopt (a port of Michael Schmuhl's graphopt 0.4.1, as igraph's src/layout/graphopt.c has it):
// Coulomb repulsion between every pair of vertices closer than 500, Hooke springs along the edges, and each
// vertex moved by force / mass, at most max_sa_movement along each axis, niter times. No annealing.
import type { ComputeGraph } from "../../../../kernels/cpu/csr.ts";
import type { ComputeContext } from "../../../compute/types.ts";
import { seededRandom } from "../../seeded.ts";
import { igraphRandomLayout } from "./random-start.ts";

const COULOMBS_CONSTANT = 8987500000.0;

export type GraphoptParams = {
  niter: number;
  node_charge: number;
  node_mass: number;
  spring_length: number;
  spring_constant: number;
  max_sa_movement: number;
};

/** graphopt as a running simulation: one step() is one of igraph's iterations; params may change between steps. */
export class GraphoptRun {
  readonly pos: Float64Array;
  p: GraphoptParams;
  private readonly graph: ComputeGraph;
  private readonly fx: Float64Array;
  private readonly fy: Float64Array;

  constructor(graph: ComputeGraph, p: GraphoptParams, start: Float64Array | null, seed: number) {
    this.graph = graph;
    this.p = p;
    this.pos = start ? Float64Array.from(start) : igraphRandomLayout(graph.n, 2, seededRandom(seed));
    this.fx = new Float64Array(graph.n);
    this.fy = new Float64Array(graph.n);
  }

  step(): void {
    const { pos, fx, fy, p } = this;
    const { n, src, dst, m } = this.graph;
    fx.fill(0);
    fy.fill(0);
    if (p.node_charge !== 0) {
      const k = COULOMBS_CONSTANT * p.node_charge * p.node_charge;
      for (let a = 0; a < n; a++) {
        const ax = pos[a * 2] as number;
        const ay = pos[a * 2 + 1] as number;
        let fax = 0;
        let fay = 0;
        for (let b = a + 1; b < n; b++) {
          const dx = ax - (pos[b * 2] as number);
          const dy = ay - (pos[b * 2 + 1] as number);
          const d2 = dx * dx + dy * dy;
          // igraph skips coincident vertices and pairs 500 or more apart (the square test only spares the sqrt)
          if (d2 === 0 || d2 > 250000) continue;
          const distance = Math.sqrt(d2);
          if (distance >= 500) continue;
          // igraph's axial split of the push away from b, written without its sign cases: the same values
          const force = k / (distance * distance);
          const x = (force * dx) / distance;
          const y = (force * dy) / distance;
          fax += x;
          fay += y;
          fx[b] = (fx[b] as number) - x;
          fy[b] = (fy[b] as number) - y;
        }
        fx[a] = (fx[a] as number) + fax;
        fy[a] = (fy[a] as number) + fay;
      }
    }
    for (let e = 0; e < m; e++) {
      const self = src[e] as number;
      const other = dst[e] as number;
      const dx = (pos[other * 2] as number) - (pos[self * 2] as number);
      const dy = (pos[other * 2 + 1] as number) - (pos[self * 2 + 1] as number);
      const distance = Math.sqrt(dx * dx + dy * dy);
      if (distance === 0 || distance === p.spring_length) continue;
      // Hooke: pulled towards the other end when longer than the spring, pushed away when shorter; half each
      const force = -1 * p.spring_constant * Math.abs(distance - p.spring_length);
      let x = -((force * dx) / distance);
      let y = -((force * dy) / distance);
      if (distance < p.spring_length) {
        x = -x;
        y = -y;
      }
      x *= 0.5;
      y *= 0.5;
      fx[self] = (fx[self] as number) + x;
      fy[self] = (fy[self] as number) + y;
      fx[other] = (fx[other] as number) - x;
      fy[other] = (fy[other] as number) - y;
    }
    const cap = p.max_sa_movement;
    for (let v = 0; v < n; v++) {
      const mx = Math.min(cap, Math.max(-cap, (fx[v] as number) / p.node_mass));
      const my = Math.min(cap, Math.max(-cap, (fy[v] as number) / p.node_mass));
      pos[v * 2] = (pos[v * 2] as number) + mx;
      pos[v * 2 + 1] = (pos[v * 2 + 1] as number) + my;
    }
  }
}

/** Runs graphopt's niter iterations from `start` (node-major x, y; igraph's random layout under `seed` when null). */
export function graphoptLayout(
  graph: ComputeGraph,
  p: GraphoptParams,
  start: Float64Array | null,
  seed: number,
  ctx: ComputeContext,
): Float64Array {
  const run = new GraphoptRun(graph, p, start, seed);
  for (let i = p.niter; i > 0; i--) {
    ctx.checkCancelled();
    if (i % 10 === 0) ctx.progress({ phase: "graphopt", iteration: p.niter - i, fraction: 1 - i / p.niter });
    run.step();
  }
  return run.pos;
}
