// OpenCL version of kernel "force-atlas2" (same setup and engine interface as kernels/cpu/force-atlas2.ts), in fp32
// as cuGraph: positions, forces and the previous forces stay on the device for the whole run. Per step the host
// reads the positions back (on a CPU device that is a copy within memory), builds the Barnes-Hut quadtree
// (force-atlas2-tree.ts: Morton radix sort, linear in n) and writes its cells; fa2_forces computes every node's
// force (tree walk, gravity, attraction gathered over the adjacency) with per-group swinging and traction sums; the
// host adapts the speed from those sums as cuGraph does; fa2_update moves the nodes.
import {
  adaptSpeed,
  BH_EPSSQ,
  FA2_GROUP,
  type Fa2Engine,
  type Fa2Params,
  type Fa2Setup,
  FLT_EPSILON,
  fa2Compensation,
  fa2EdgeFactors,
  fa2Mass,
  type SpeedState,
} from "../cpu/force-atlas2.ts";
import { allocTree, buildTree } from "../cpu/force-atlas2-tree.ts";
import { clDevice, groups, type Handle, Scope } from "./runtime.ts";

const PLACEHOLDER = new Float32Array(1);

function flagsOf(p: Fa2Params, weighted: boolean, hasRadius: boolean): number {
  return (
    (p.outboundAttractionDistribution ? 1 : 0) |
    (p.linLogMode ? 2 : 0) |
    (p.preventOverlapping ? 4 : 0) |
    (p.strongGravityMode ? 8 : 0) |
    (weighted ? 16 : 0) |
    (hasRadius ? 32 : 0)
  );
}

/** Each work-group's bounding box (min x, min y, max x, max y) over its FA2_GROUP bodies of the Morton order. */
function groupBoxes(order: Int32Array, n: number, xs: Float32Array, ys: Float32Array, out: Float32Array): void {
  for (let g0 = 0, b = 0; g0 < n; g0 += FA2_GROUP, b++) {
    let minX = Number.POSITIVE_INFINITY;
    let minY = Number.POSITIVE_INFINITY;
    let maxX = Number.NEGATIVE_INFINITY;
    let maxY = Number.NEGATIVE_INFINITY;
    const end = Math.min(n, g0 + FA2_GROUP);
    for (let k = g0; k < end; k++) {
      const i = order[k] as number;
      const x = xs[i] as number;
      const y = ys[i] as number;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
    }
    out[4 * b] = minX;
    out[4 * b + 1] = minY;
    out[4 * b + 2] = maxX;
    out[4 * b + 3] = maxY;
  }
}

/**
 * The engine. Repulsion runs a work-item per body (work-groups of one body group; GPUs) or a work-item per body group
 * (CPU devices, where the group's inner loops vectorize); both give the same forces. `perBody` overrides the choice.
 */
export function forceAtlas2OpenClWith(setup: Fa2Setup, perBody: boolean = clDevice().info?.type !== "CPU"): Fa2Engine {
  const { n } = setup;
  const scope = new Scope();
  try {
    const massD = fa2Mass(setup);
    const mass32 = Float32Array.from(massD);
    let params = { ...setup.params };
    let coef = fa2Compensation(massD, params.outboundAttractionDistribution);
    const toFloat = (a: Float64Array | null) => (a ? Float32Array.from(a) : null);
    let factors = toFloat(fa2EdgeFactors(setup, params.edgeWeightInfluence));
    const radius = toFloat(setup.radius);
    const size = Math.max(1, n);
    const hostX = new Float32Array(size);
    const hostY = new Float32Array(size);
    for (let i = 0; i < n; i++) {
      hostX[i] = setup.initial[2 * i] as number;
      hostY[i] = setup.initial[2 * i + 1] as number;
    }
    const xs = scope.input(hostX);
    const ys = scope.input(hostY);
    const dMass = scope.readOnly(mass32);
    const dRadius = scope.readOnly(radius ?? PLACEHOLDER);
    const dStart = scope.readOnly(setup.start);
    const dNbr = scope.readOnly(setup.nbr.length > 0 ? setup.nbr : new Int32Array(1));
    let dFactors: Handle = scope.input(factors ?? PLACEHOLDER);
    const fx = scope.alloc(4 * size);
    const fy = scope.alloc(4 * size);
    const oldX = scope.filled(new Float32Array([0]), size);
    const oldY = scope.filled(new Float32Array([0]), size);
    const swing = scope.alloc(4 * size);
    const traction = scope.alloc(4 * size);
    const boxCount = Math.max(1, Math.ceil(n / FA2_GROUP));
    const boxHost = new Float32Array(4 * boxCount);
    const dBox = scope.alloc(16 * boxCount);
    const tree = allocTree(n);
    const cap = Math.max(1, 2 * n);
    const dOrder = scope.alloc(4 * size);
    const dCellStart = scope.alloc(4 * cap);
    const dCellEnd = scope.alloc(4 * cap);
    const dCellSkip = scope.alloc(4 * cap);
    const dCell = scope.alloc(16 * cap);
    const cellHost = new Float32Array(4 * cap);
    const parts = groups(n);
    const swingParts = scope.alloc(8 * parts);
    const tractionParts = scope.alloc(8 * parts);
    const partsHost = new Float64Array(parts);
    const interleaved = scope.alloc(8 * size);
    const out = new Float32Array(2 * n);
    const state: SpeedState = { speed: 1, speedEfficiency: 1, jt: 0 };
    let last = { swinging: 0, traction: 0 };
    let disposed = false;
    const sum = (buffer: Handle) => {
      scope.read(buffer, partsHost);
      let s = 0;
      for (const v of partsHost) s += v;
      return s;
    };

    return {
      step() {
        if (n === 0) return;
        scope.read(xs, hostX);
        scope.read(ys, hostY);
        buildTree(tree, n, hostX, hostY, mass32);
        const cells = tree.cells;
        for (let c = 0; c < cells; c++) {
          cellHost[4 * c] = tree.cx[c] as number;
          cellHost[4 * c + 1] = tree.cy[c] as number;
          cellHost[4 * c + 2] = tree.mass[c] as number;
          cellHost[4 * c + 3] = tree.width2[c] as number;
        }
        scope.write(dOrder, tree.order);
        scope.write(dCellStart, tree.start.subarray(0, cells));
        scope.write(dCellEnd, tree.end.subarray(0, cells));
        scope.write(dCellSkip, tree.skip.subarray(0, cells));
        scope.write(dCell, cellHost.subarray(0, 4 * cells));
        groupBoxes(tree.order, n, hostX, hostY, boxHost);
        scope.write(dBox, boxHost);
        const p = params;
        const flags = flagsOf(p, factors !== null, radius !== null);
        const theta2 = p.barnesHutOptimize ? p.barnesHutTheta * p.barnesHutTheta : 0;
        const eps = p.barnesHutOptimize ? BH_EPSSQ : FLT_EPSILON;
        const walk = [n, xs, ys, dMass, dRadius, dOrder, dCellStart, dCellEnd, dCellSkip, dCell, cells, dBox, flags];
        const signature = "immmmmmmmmimiffffmm";
        const rest = [p.scalingRatio, p.overlapScalingRatio, theta2, eps, fx, fy];
        if (perBody) scope.runGroups("force-atlas2", "fa2_repulsion_items", signature, [...walk, ...rest], n, FA2_GROUP);
        else scope.runGroups("force-atlas2", "fa2_repulsion_groups", signature, [...walk, ...rest], boxCount, 1);
        scope.run(
          "force-atlas2",
          "fa2_node_forces",
          "immmmmmmifffmmmmmm",
          [n, xs, ys, dMass, dRadius, dStart, dNbr, dFactors, flags, p.scalingRatio, p.gravity, coef, fx, fy, oldX, oldY, swing, traction],
          n,
        );
        scope.run("force-atlas2", "fa2_sums", "immmm", [n, swing, traction, swingParts, tractionParts], n);
        const s = sum(swingParts);
        const t = sum(tractionParts);
        adaptSpeed(state, p.jitterTolerance, s, t, n);
        last = { swinging: s, traction: t };
        scope.run(
          "force-atlas2",
          "fa2_update",
          "immmmmmmfi",
          [n, xs, ys, fx, fy, oldX, oldY, swing, state.speed, p.preventOverlapping ? 1 : 0],
          n,
        );
      },
      positions() {
        if (n === 0) return out;
        scope.run("force-atlas2", "fa2_interleave", "immm", [n, xs, ys, interleaved], n);
        return scope.read(interleaved, out);
      },
      stats() {
        return { ...last, speed: state.speed, speedEfficiency: state.speedEfficiency, jt: state.jt };
      },
      setParams(next) {
        if (next.edgeWeightInfluence !== params.edgeWeightInfluence) {
          factors = toFloat(fa2EdgeFactors(setup, next.edgeWeightInfluence));
          if (factors) dFactors = scope.input(factors);
        }
        params = { ...next };
        coef = fa2Compensation(massD, params.outboundAttractionDistribution);
      },
      dispose() {
        if (disposed) return;
        disposed = true;
        scope.done();
      },
    };
  } catch (error) {
    scope.done();
    throw error;
  }
}

/** Kernel "force-atlas2": the engine with the repulsion variant that suits the device. */
export function forceAtlas2OpenCl(setup: Fa2Setup): Fa2Engine {
  return forceAtlas2OpenClWith(setup);
}
