// igraph's DrL (src/layout/drl/drl_graph.cpp and drl_graph_3d.cpp; Martin, Brown, Klavans, Boyack: "DrL:
// Distributed Recursive (Graph) Layout", SAND 2008), 2D and 3D. Every vertex starts at the origin (or at the
// `seed` matrix). Each iteration visits the vertices in order: a vertex leaves the density grid, its energy (the
// weighted attraction to its neighbours, |d|^8 in the liquid stage, |d|^4 in expansion, |d|^2 after, plus the
// density where it sits) is compared at the damped weighted centroid of its neighbours and at a random jump from
// there (temperature / 100 wide), it takes the lower, and it re-enters the grid. The schedule runs the stages
// liquid, expansion, cooldown, crunch and simmer (fine density); during expansion and cooldown each vertex with
// enough edges cuts its longest edge when longer than a shrinking cut-off (edge_cut). Coordinates are float32 as
// in igraph; the random jumps come from our seeded generator where igraph uses its RNG.
import type { ComputeGraph } from "../../../../kernels/cpu/csr.ts";
import type { ComputeContext } from "../../../compute/types.ts";
import { seededRandom } from "../../seeded.ts";
import { DensityGrid } from "./drl-density.ts";
import type { DrlOptions } from "./drl-options.ts";

const f32 = Math.fround;

/** Each vertex's neighbours in increasing id order with their weights (igraph keeps a std::map per vertex). */
function neighbourMaps(graph: ComputeGraph, weights: Float64Array | null): { ids: number[][]; w: number[][] } {
  const maps: Map<number, number>[] = Array.from({ length: graph.n }, () => new Map());
  for (let e = 0; e < graph.m; e++) {
    const a = graph.src[e] as number;
    const b = graph.dst[e] as number;
    const weight = f32(weights ? (weights[e] as number) : 1);
    (maps[a] as Map<number, number>).set(b, weight);
    (maps[b] as Map<number, number>).set(a, weight);
  }
  const ids: number[][] = [];
  const w: number[][] = [];
  for (const map of maps) {
    const keys = [...map.keys()].sort((x, y) => x - y);
    ids.push(keys);
    w.push(keys.map((k) => map.get(k) as number));
  }
  return { ids, w };
}

export class DrlGraph {
  private readonly n: number;
  private readonly dims: 2 | 3;
  private readonly ids: number[][];
  private readonly w: number[][];
  /** Positions and the positions last added to the density grid, node-major. */
  readonly pos: Float32Array;
  private readonly sub: Float32Array;
  private readonly density: DensityGrid;
  private readonly random: () => number;
  private readonly opts: DrlOptions;
  private stage = 0;
  private iterations: number;
  private temperature: number;
  private attraction: number;
  private dampingMult: number;
  private minEdges = 20;
  private readonly cutEnd: number;
  private readonly cutLengthEnd: number;
  private cutOffLength: number;
  private readonly cutRate: number;
  private firstAdd = true;
  private fineFirstAdd = true;
  private fineDensity = false;
  private totIterations = 0;
  readonly totExpected: number;

  constructor(graph: ComputeGraph, dims: 2 | 3, opts: DrlOptions, weights: Float64Array | null, seed: number, start: Float64Array | null) {
    this.n = graph.n;
    this.dims = dims;
    this.opts = opts;
    ({ ids: this.ids, w: this.w } = neighbourMaps(graph, weights));
    this.pos = start ? Float32Array.from(start) : new Float32Array(this.n * dims);
    this.sub = new Float32Array(this.n * dims);
    this.density = new DensityGrid(dims);
    this.random = seededRandom(seed);
    this.iterations = opts.init.iterations;
    this.temperature = f32(opts.init.temperature);
    this.attraction = f32(opts.init.attraction);
    this.dampingMult = f32(opts.init.damping_mult);
    // init_parms: edge_cut 0 = no cutting, 1 = the most
    this.cutEnd = f32(40000 * (1 - opts.edge_cut));
    this.cutLengthEnd = this.cutEnd <= 1 ? 1 : this.cutEnd;
    const cutLengthStart = f32(4 * this.cutLengthEnd);
    this.cutOffLength = cutLengthStart;
    this.cutRate = f32((cutLengthStart - this.cutLengthEnd) / 400);
    this.totExpected =
      opts.liquid.iterations + opts.expansion.iterations + opts.cooldown.iterations + opts.crunch.iterations + opts.simmer.iterations;
  }

  /** Runs the whole schedule (draw_graph). */
  run(ctx: ComputeContext): Float64Array {
    while (this.reCompute(ctx)) ctx.checkCancelled();
    return Float64Array.from(this.pos);
  }

  private phase(): string {
    return ["liquid", "expansion", "cooldown", "crunch", "unknown", "simmer", "final"][this.stage] ?? "unknown";
  }

  /** One iteration and the schedule's step (ReCompute); false once the schedule is done. */
  reCompute(ctx: ComputeContext): boolean {
    ctx.progress({
      phase: `DrL ${this.phase()}`,
      iteration: this.totIterations,
      fraction: Math.min(1, this.totIterations / Math.max(1, this.totExpected)),
    });
    this.updateNodes();
    this.totIterations++;
    const o = this.opts;
    if (this.stage === 0) {
      if (this.iterations < o.liquid.iterations) {
        this.temperature = f32(o.liquid.temperature);
        this.attraction = f32(o.liquid.attraction);
        this.dampingMult = f32(o.liquid.damping_mult);
        this.iterations++;
      } else {
        this.temperature = f32(o.expansion.temperature);
        this.attraction = f32(o.expansion.attraction);
        this.dampingMult = f32(o.expansion.damping_mult);
        this.iterations = 0;
        this.stage = 1;
      }
    }
    if (this.stage === 1) {
      if (this.iterations < o.expansion.iterations) {
        if (this.attraction > 1) this.attraction = f32(this.attraction - f32(0.05));
        if (this.minEdges > 12) this.minEdges = f32(this.minEdges - f32(0.05));
        this.cutOffLength = f32(this.cutOffLength - this.cutRate);
        if (this.dampingMult > 0.1) this.dampingMult = f32(this.dampingMult - f32(0.005));
        this.iterations++;
      } else {
        this.minEdges = 12;
        this.dampingMult = f32(o.cooldown.damping_mult);
        this.stage = 2;
        this.attraction = f32(o.cooldown.attraction);
        this.temperature = f32(o.cooldown.temperature);
        this.iterations = 0;
      }
    } else if (this.stage === 2) {
      if (this.iterations < o.cooldown.iterations) {
        if (this.temperature > 50) this.temperature = f32(this.temperature - 10);
        if (this.cutOffLength > this.cutLengthEnd) this.cutOffLength = f32(this.cutOffLength - this.cutRate * 2);
        if (this.minEdges > 1) this.minEdges = f32(this.minEdges - f32(0.2));
        this.iterations++;
      } else {
        this.cutOffLength = this.cutLengthEnd;
        this.temperature = f32(o.crunch.temperature);
        this.dampingMult = f32(o.crunch.damping_mult);
        this.minEdges = 1;
        this.stage = 3;
        this.iterations = 0;
        this.attraction = f32(o.crunch.attraction);
      }
    } else if (this.stage === 3) {
      if (this.iterations < o.crunch.iterations) {
        this.iterations++;
      } else {
        this.iterations = 0;
        this.temperature = f32(o.simmer.temperature);
        this.attraction = f32(o.simmer.attraction);
        this.dampingMult = f32(o.simmer.damping_mult);
        this.minEdges = 99;
        this.fineDensity = true;
        this.stage = 5;
      }
    } else if (this.stage === 5) {
      if (this.iterations < o.simmer.iterations) {
        if (this.temperature > 50) this.temperature = f32(this.temperature - 2);
        this.iterations++;
      } else {
        this.stage = 6;
      }
    } else if (this.stage === 6) {
      return false;
    }
    return true;
  }

  private position(i: number): Float32Array {
    return this.pos.subarray(i * this.dims, i * this.dims + this.dims);
  }

  private subPosition(i: number): Float32Array {
    return this.sub.subarray(i * this.dims, i * this.dims + this.dims);
  }

  private updateNodes(): void {
    const dims = this.dims;
    const old = new Float32Array(dims);
    const next = new Float32Array(dims);
    for (let i = 0; i < this.n; i++) {
      old.set(this.position(i));
      this.updateNodePos(i, old, next);
      // update_density: out of the grid at the old position, in at the new one
      const sub = this.subPosition(i);
      const p = this.position(i);
      p.set(next);
      if (this.fineDensity) {
        // the coarse grid is never read again once the fine density is on: only the bins change
        if (!this.fineFirstAdd) this.density.subtract(sub, this.firstAdd, this.fineFirstAdd, true);
        this.density.add(p, true);
      } else if (this.firstAdd || !this.density.sameCell(sub, p)) {
        this.density.subtract(sub, this.firstAdd, this.fineFirstAdd, false);
        this.density.add(p, false);
      }
      sub.set(p);
    }
    this.firstAdd = false;
    if (this.fineDensity) this.fineFirstAdd = false;
  }

  /**
   * update_node_pos: the vertex leaves the grid, its energy is read where it is and at a random jump from the
   * analytic position, and it goes back in where it was. The coarse subtract and re-add at one place cancel, so
   * the coarse density is read without the vertex's own tent instead of walking it twice.
   */
  private updateNodePos(i: number, old: Float32Array, next: Float32Array): void {
    const dims = this.dims;
    const jumpLength = 0.01 * this.temperature;
    const sub = this.subPosition(i);
    const fineBins = this.fineDensity && !this.fineFirstAdd;
    if (fineBins) this.density.subtract(sub, this.firstAdd, this.fineFirstAdd, true);
    const withoutSelf = !this.fineDensity && !this.firstAdd;
    const energy0 = this.nodeEnergy(i, withoutSelf);
    const analytic = this.solveAnalytic(i);
    const p = this.position(i);
    const jumped = new Float32Array(dims);
    for (let d = 0; d < dims; d++) jumped[d] = (analytic[d] as number) + (0.5 - this.random()) * jumpLength;
    p.set(jumped);
    const energy1 = this.nodeEnergy(i, withoutSelf);
    p.set(old);
    if (fineBins) {
      this.density.add(p, true);
      sub.set(p);
    }
    // igraph compares the energy where the vertex was (energies[0], read before Solve_Analytic) with the jump's
    next.set(energy0 < energy1 ? analytic : jumped);
  }

  /** Compute_Node_Energy at the vertex's current position (`withoutSelf`: its own coarse tent taken out). */
  private nodeEnergy(i: number, withoutSelf: boolean): number {
    const dims = this.dims;
    const a = this.attraction;
    const attractionFactor = f32(a * a * a * a * 2e-2);
    const ids = this.ids[i] as number[];
    const w = this.w[i] as number[];
    let energy = 0;
    for (let k = 0; k < ids.length; k++) {
      const j = ids[k] as number;
      let dist = 0;
      for (let d = 0; d < dims; d++) {
        const delta = f32((this.pos[i * dims + d] as number) - (this.pos[j * dims + d] as number));
        dist += delta * delta;
      }
      dist = f32(dist);
      if (this.stage < 2) dist = f32(dist * dist);
      if (this.stage === 0) dist = f32(dist * dist);
      energy = f32(energy + (w[k] as number) * attractionFactor * dist);
    }
    const p = this.position(i);
    const density = withoutSelf ? this.density.coarseDensityWithout(p, this.subPosition(i)) : this.density.getDensity(p, this.fineDensity);
    return f32(energy + density);
  }

  /** Solve_Analytic: the damped weighted centroid of the neighbours; cuts the longest edge when it is too long. */
  private solveAnalytic(i: number): Float32Array {
    const dims = this.dims;
    const ids = this.ids[i] as number[];
    const w = this.w[i] as number[];
    const out = new Float32Array(dims);
    const cen = new Float32Array(dims);
    let total = 0;
    const sum = new Float32Array(dims);
    for (let k = 0; k < ids.length; k++) {
      const weight = w[k] as number;
      total = f32(total + weight);
      for (let d = 0; d < dims; d++) sum[d] = (sum[d] as number) + weight * (this.pos[(ids[k] as number) * dims + d] as number);
    }
    if (total > 0) {
      const damping = 1 - this.dampingMult;
      for (let d = 0; d < dims; d++) {
        cen[d] = (sum[d] as number) / total;
        out[d] = damping * (this.pos[i * dims + d] as number) + (1 - damping) * (cen[d] as number);
      }
    } else {
      out.set(this.position(i));
    }
    if (this.minEdges === 99 || this.cutEnd >= 39500) return out;
    const numConnections = f32(Math.sqrt(ids.length));
    let maxLength = 0;
    let maxIndex = 0;
    for (let k = 0; k < ids.length; k++) {
      if (ids.length < this.minEdges) continue;
      let dis = 0;
      for (let d = 0; d < dims; d++) {
        const delta = f32((cen[d] as number) - (this.pos[(ids[k] as number) * dims + d] as number));
        dis += delta * delta;
      }
      dis = f32(f32(dis) * numConnections);
      if (dis > maxLength) {
        maxLength = dis;
        maxIndex = k;
      }
    }
    if (maxLength > this.cutOffLength) {
      ids.splice(maxIndex, 1);
      w.splice(maxIndex, 1);
    }
    return out;
  }
}

/** DrL's layout of `graph` in `dims` dimensions (node-major). */
export function drlLayout(
  graph: ComputeGraph,
  dims: 2 | 3,
  opts: DrlOptions,
  weights: Float64Array | null,
  start: Float64Array | null,
  seed: number,
  ctx: ComputeContext,
): Float64Array {
  if (graph.n === 0) return new Float64Array(0);
  return new DrlGraph(graph, dims, opts, weights, seed, start).run(ctx);
}
