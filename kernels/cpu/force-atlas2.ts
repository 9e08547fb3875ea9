// ForceAtlas2 as cuGraph runs it (cpp/src/layout/legacy: barnes_hut.cuh, bh_kernels.cuh, fa2_kernels.cuh), step
// by step, on the CPU: the twin of kernels/opencl/force-atlas2.ts (kernel "force-atlas2"). The graph is read
// undirected with every edge in both directions, as cuGraph's symmetrized COO holds it; mass = degree + 1.
// Per iteration: Barnes-Hut repulsion kr*m_i*m_j/d (through the quadtree of force-atlas2-tree.ts), gravity (linear
// or strong), attraction along edges (lin or LinLog, weighted by w^edge_weight_influence, divided by the source's
// mass under outbound attraction distribution), then cuGraph's adaptive speed (swing, traction, jitter tolerance)
// and the position update. Where we depart: prevent_overlapping also repels body pairs the walk meets in leaves by
// cuGraph's exact-mode overlap formula (its Barnes-Hut repulsion ignores radii, so nodes would still overlap);
// barnes_hut_optimize false walks the same tree with theta 0 (every pair, FLT_EPSILON softening as exact_fa2);
// adapt_speed's n * n is computed without cuGraph's int32 overflow (n > 46340).
import { allocTree, buildTree, type QuadTree } from "./force-atlas2-tree.ts";

/** FLT_EPSILON, as cuGraph's kernels add it. */
export const FLT_EPSILON = 1.1920928955078125e-7;
/** cuGraph's Barnes-Hut softening ("a tiny jitter to promote numerical stability"). */
export const BH_EPSSQ = 0.0025;

/** The parameters one step reads (cuGraph's names, camel-cased); setParams changes them between steps. */
export type Fa2Params = {
  outboundAttractionDistribution: boolean;
  linLogMode: boolean;
  preventOverlapping: boolean;
  overlapScalingRatio: number;
  edgeWeightInfluence: number;
  jitterTolerance: number;
  barnesHutOptimize: boolean;
  barnesHutTheta: number;
  scalingRatio: number;
  strongGravityMode: boolean;
  gravity: number;
};

/** What an engine is made from: the undirected adjacency (each edge at both ends), weights, start positions. */
export type Fa2Setup = {
  n: number;
  /** Neighbours of node r: nbr[start[r] .. start[r + 1]); edge[k] is the edge row (for weights). */
  start: Int32Array;
  nbr: Int32Array;
  edge: Int32Array;
  /** Per edge row, or null (every weight 1). */
  weight: Float64Array | null;
  /** Node radii for prevent_overlapping (null: every radius 1). */
  radius: Float64Array | null;
  /** Start positions, node-major x, y. */
  initial: Float64Array;
  params: Fa2Params;
};

/** A running ForceAtlas2: the same interface on the CPU and on OpenCL. */
export type Fa2Engine = {
  step(): void;
  /** Node-major x, y (a view reused between calls). */
  positions(): Float32Array;
  /** The last step's global swinging, traction and speed (cuGraph's verbose line). */
  stats(): { swinging: number; traction: number; speed: number; speedEfficiency: number; jt: number };
  setParams(params: Fa2Params): void;
  dispose(): void;
};

/** mass = degree + 1 in the symmetrized graph. */
export function fa2Mass(setup: Pick<Fa2Setup, "n" | "start">): Float64Array {
  const mass = new Float64Array(setup.n);
  for (let i = 0; i < setup.n; i++) mass[i] = (setup.start[i + 1] as number) - (setup.start[i] as number) + 1;
  return mass;
}

/** Each adjacency entry's weight^edge_weight_influence (null when unweighted and the power keeps it 1). */
export function fa2EdgeFactors(setup: Pick<Fa2Setup, "nbr" | "edge" | "weight">, influence: number): Float64Array | null {
  const { weight, edge } = setup;
  if (!weight) return null;
  const out = new Float64Array(edge.length);
  for (let k = 0; k < edge.length; k++) out[k] = (weight[edge[k] as number] as number) ** influence;
  return out;
}

/** cuGraph's outbound attraction compensation: the mean mass under outbound_attraction_distribution, else 1. */
export function fa2Compensation(mass: Float64Array, outbound: boolean): number {
  if (!outbound || mass.length === 0) return 1;
  let sum = 0;
  for (const m of mass) sum += m;
  return sum / mass.length;
}

export type SpeedState = { speed: number; speedEfficiency: number; jt: number };

/** cuGraph's adapt_speed: the global speed from global swinging s and traction t. */
export function adaptSpeed(state: SpeedState, jitterTolerance: number, s: number, t: number, n: number): void {
  const estimatedJt = 0.05 * Math.sqrt(n);
  const minJt = Math.sqrt(estimatedJt);
  const maxJt = 10;
  const minSpeedEfficiency = 0.05;
  const maxRise = 0.5;
  state.jt = jitterTolerance * Math.max(minJt, Math.min(maxJt, (estimatedJt * t) / (n * n)));
  if (s / t > 2.0) {
    if (state.speedEfficiency > minSpeedEfficiency) state.speedEfficiency *= 0.5;
    state.jt = Math.max(state.jt, jitterTolerance);
  }
  const targetSpeed = s === 0 ? 3.4028234663852886e38 : (state.jt * state.speedEfficiency * t) / s;
  if (s > state.jt * t) {
    if (state.speedEfficiency > minSpeedEfficiency) state.speedEfficiency *= 0.7;
  } else if (state.speed < 1000) state.speedEfficiency *= 1.3;
  state.speed = state.speed + Math.min(targetSpeed - state.speed, maxRise * state.speed);
}

/**
 * Bodies walk the tree in groups of FA2_GROUP consecutive bodies of the Morton order, as cuGraph's warps do (a warp
 * of 32 sorted bodies accepts a cell only when every body's distance allows it): a cell is accepted for the whole
 * group when the group's bounding box is far enough, (dmin^2 + eps) * theta^2 >= width^2, else opened for all. One
 * walk serves the group, and the OpenCL port's work-groups follow one path without divergence.
 */
export const FA2_GROUP = 32;

/** Barnes-Hut repulsion on every body into fx, fy (set, not added). theta 0 = exact (every pair). */
export function repulsion(
  tree: QuadTree,
  n: number,
  xs: ArrayLike<number>,
  ys: ArrayLike<number>,
  mass: ArrayLike<number>,
  radius: ArrayLike<number> | null,
  p: Fa2Params,
  fx: Float64Array,
  fy: Float64Array,
): void {
  const { order, start, end, skip, cx, cy, width2, cells } = tree;
  const cm = tree.mass;
  const kr = p.scalingRatio;
  const theta2 = p.barnesHutOptimize ? p.barnesHutTheta * p.barnesHutTheta : 0;
  const eps = p.barnesHutOptimize ? BH_EPSSQ : FLT_EPSILON;
  const overlap = p.preventOverlapping;
  const kro = p.overlapScalingRatio;
  const gx = new Float64Array(FA2_GROUP);
  const gy = new Float64Array(FA2_GROUP);
  const gm = new Float64Array(FA2_GROUP);
  const gr = new Float64Array(FA2_GROUP);
  const gi = new Int32Array(FA2_GROUP);
  const vx = new Float64Array(FA2_GROUP);
  const vy = new Float64Array(FA2_GROUP);
  for (let g0 = 0; g0 < n; g0 += FA2_GROUP) {
    const size = Math.min(FA2_GROUP, n - g0);
    let minX = Number.POSITIVE_INFINITY;
    let minY = Number.POSITIVE_INFINITY;
    let maxX = Number.NEGATIVE_INFINITY;
    let maxY = Number.NEGATIVE_INFINITY;
    for (let b = 0; b < size; b++) {
      const i = order[g0 + b] as number;
      const x = xs[i] as number;
      const y = ys[i] as number;
      gi[b] = i;
      gx[b] = x;
      gy[b] = y;
      gm[b] = mass[i] as number;
      gr[b] = radius ? (radius[i] as number) : 1;
      vx[b] = 0;
      vy[b] = 0;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
    }
    let c = 0;
    while (c < cells) {
      const s = start[c] as number;
      if (s >= 0) {
        const e = end[c] as number;
        for (let q = s; q < e; q++) {
          const j = order[q] as number;
          const xj = xs[j] as number;
          const yj = ys[j] as number;
          const mj = mass[j] as number;
          const rj = radius ? (radius[j] as number) : 1;
          for (let b = 0; b < size; b++) {
            if (gi[b] === j) continue;
            const dx = (gx[b] as number) - xj;
            const dy = (gy[b] as number) - yj;
            const d2 = dx * dx + dy * dy + eps;
            let f: number;
            if (overlap) {
              const d = Math.sqrt(d2);
              const ri = gr[b] as number;
              if (d <= ri + rj) f = (kro * (gm[b] as number) * mj) / d;
              else f = (kr * (gm[b] as number) * mj) / (d * (d - ri - rj + FLT_EPSILON));
            } else f = (kr * (gm[b] as number) * mj) / d2;
            vx[b] = (vx[b] as number) + dx * f;
            vy[b] = (vy[b] as number) + dy * f;
          }
        }
        c = skip[c] as number;
        continue;
      }
      const ccx = cx[c] as number;
      const ccy = cy[c] as number;
      const ex = Math.max(minX - ccx, 0, ccx - maxX);
      const ey = Math.max(minY - ccy, 0, ccy - maxY);
      if ((ex * ex + ey * ey + eps) * theta2 >= (width2[c] as number)) {
        const kM = kr * (cm[c] as number);
        for (let b = 0; b < size; b++) {
          const dx = (gx[b] as number) - ccx;
          const dy = (gy[b] as number) - ccy;
          const f = (kM * (gm[b] as number)) / (dx * dx + dy * dy + eps);
          vx[b] = (vx[b] as number) + dx * f;
          vy[b] = (vy[b] as number) + dy * f;
        }
        c = skip[c] as number;
      } else c++;
    }
    for (let b = 0; b < size; b++) {
      fx[gi[b] as number] = vx[b] as number;
      fy[gi[b] as number] = vy[b] as number;
    }
  }
}

/** Gravity added to fx, fy: linear (m*g towards the origin) or strong (kr*m*g*distance). */
export function gravity(
  n: number,
  xs: Float64Array,
  ys: Float64Array,
  mass: Float64Array,
  p: Fa2Params,
  fx: Float64Array,
  fy: Float64Array,
): void {
  for (let i = 0; i < n; i++) {
    const x = xs[i] as number;
    const y = ys[i] as number;
    const factor = p.strongGravityMode
      ? p.scalingRatio * (mass[i] as number) * p.gravity
      : ((mass[i] as number) * p.gravity) / Math.sqrt(x * x + y * y + FLT_EPSILON);
    fx[i] = (fx[i] as number) - x * factor;
    fy[i] = (fy[i] as number) - y * factor;
  }
}

/**
 * Attraction added to fx, fy, gathered per node over its adjacency: cuGraph adds each direction of an edge to both
 * ends, so node i gets, per neighbour j, -coef*w*g(d)*(xi - xj) * (1/m_i + 1/m_j) under outbound attraction
 * distribution and twice that factor (without the masses) otherwise.
 */
export function attraction(
  setup: Pick<Fa2Setup, "n" | "start" | "nbr">,
  factors: Float64Array | null,
  xs: Float64Array,
  ys: Float64Array,
  mass: Float64Array,
  radius: Float64Array | null,
  coef: number,
  p: Fa2Params,
  fx: Float64Array,
  fy: Float64Array,
): void {
  const { n, start, nbr } = setup;
  for (let i = 0; i < n; i++) {
    const xi = xs[i] as number;
    const yi = ys[i] as number;
    const inv = 1 / (mass[i] as number);
    const ri = radius ? (radius[i] as number) : 1;
    let ax = 0;
    let ay = 0;
    for (let k = start[i] as number; k < (start[i + 1] as number); k++) {
      const j = nbr[k] as number;
      const dx = xi - (xs[j] as number);
      const dy = yi - (ys[j] as number);
      let factor = -coef * (factors ? (factors[k] as number) : 1);
      if (p.preventOverlapping) {
        const rj = radius ? (radius[j] as number) : 1;
        const d2 = dx * dx + dy * dy;
        if (d2 <= (ri + rj) * (ri + rj)) continue;
        const d = Math.sqrt(d2 + FLT_EPSILON);
        const inter = d - ri - rj;
        factor *= p.linLogMode ? Math.log(1 + inter) / d : inter / d;
      } else if (p.linLogMode) {
        const d = Math.sqrt(dx * dx + dy * dy + FLT_EPSILON);
        factor *= Math.log(1 + d) / d;
      }
      factor *= p.outboundAttractionDistribution ? inv + 1 / (mass[j] as number) : 2;
      ax += dx * factor;
      ay += dy * factor;
    }
    fx[i] = (fx[i] as number) + ax;
    fy[i] = (fy[i] as number) + ay;
  }
}

/** The CPU engine (kernel "force-atlas2"'s CPU twin). */
export function forceAtlas2Cpu(setup: Fa2Setup): Fa2Engine {
  const { n } = setup;
  const radius = setup.radius;
  const mass = fa2Mass(setup);
  let params = { ...setup.params };
  let factors = fa2EdgeFactors(setup, params.edgeWeightInfluence);
  let coef = fa2Compensation(mass, params.outboundAttractionDistribution);
  const xs = new Float64Array(n);
  const ys = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    xs[i] = setup.initial[2 * i] as number;
    ys[i] = setup.initial[2 * i + 1] as number;
  }
  const fx = new Float64Array(n);
  const fy = new Float64Array(n);
  const oldX = new Float64Array(n);
  const oldY = new Float64Array(n);
  const swing = new Float64Array(n);
  const tree = allocTree(n);
  const state: SpeedState = { speed: 1, speedEfficiency: 1, jt: 0 };
  let last = { swinging: 0, traction: 0 };
  const out = new Float32Array(2 * n);

  return {
    step() {
      if (n === 0) return;
      buildTree(tree, n, xs, ys, mass);
      repulsion(tree, n, xs, ys, mass, radius, params, fx, fy);
      gravity(n, xs, ys, mass, params, fx, fy);
      attraction(setup, factors, xs, ys, mass, radius, coef, params, fx, fy);
      let s = 0;
      let t = 0;
      for (let i = 0; i < n; i++) {
        const dx = fx[i] as number;
        const dy = fy[i] as number;
        const ox = oldX[i] as number;
        const oy = oldY[i] as number;
        const m = mass[i] as number;
        const sw = m * Math.sqrt((ox - dx) ** 2 + (oy - dy) ** 2);
        swing[i] = sw;
        s += sw;
        t += 0.5 * m * Math.sqrt((ox + dx) ** 2 + (oy + dy) ** 2);
      }
      adaptSpeed(state, params.jitterTolerance, s, t, n);
      last = { swinging: s, traction: t };
      const speed = state.speed;
      for (let i = 0; i < n; i++) {
        const dx = fx[i] as number;
        const dy = fy[i] as number;
        oldX[i] = dx;
        oldY[i] = dy;
        let factor = speed / (1 + Math.sqrt(speed * (swing[i] as number)));
        if (params.preventOverlapping) {
          factor *= 0.1;
          const df = Math.sqrt(dx * dx + dy * dy + FLT_EPSILON);
          factor = Math.min(factor * df, 10) / df;
        }
        xs[i] = (xs[i] as number) + dx * factor;
        ys[i] = (ys[i] as number) + dy * factor;
      }
    },
    positions() {
      for (let i = 0; i < n; i++) {
        out[2 * i] = xs[i] as number;
        out[2 * i + 1] = ys[i] as number;
      }
      return out;
    },
    stats() {
      return { ...last, speed: state.speed, speedEfficiency: state.speedEfficiency, jt: state.jt };
    },
    setParams(next) {
      if (next.edgeWeightInfluence !== params.edgeWeightInfluence) factors = fa2EdgeFactors(setup, next.edgeWeightInfluence);
      params = { ...next };
      coef = fa2Compensation(mass, params.outboundAttractionDistribution);
    },
    dispose() {},
  };
}
