// OpenCL version of kernel "force-atlas2" (same setup and engine interface as kernels/cpu/force-atlas2.ts), in fp32
// as cuGraph: positions, forces and the previous forces stay on the device for the whole run. Per step the host
// reads the positions back (on a CPU device that is a copy within memory), builds the Barnes-Hut quadtree
// (force-atlas2-tree.ts: Morton radix sort, linear in n) and writes its cells; fa2_forces computes every node's
// force (tree walk, gravity, attraction gathered over the adjacency) with per-group swinging and traction sums; the
// host adapts the speed from those sums as cuGraph does; fa2_update moves the nodes.
import {
  adaptSpeed,
  BH_EPSSQ,
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
import { groups, type Handle, Scope } from "./runtime.ts";

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

export function forceAtlas2OpenCl(setup: Fa2Setup): Fa2Engine {
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
        const p = params;
        scope.run(
          "force-atlas2",
          "fa2_forces",
          "immmmmmmmmmmmiiffffffmmmmmmm",
          [
            n,
            xs,
            ys,
            dMass,
            dRadius,
            dStart,
            dNbr,
            dFactors,
            dOrder,
            dCellStart,
            dCellEnd,
            dCellSkip,
            dCell,
            cells,
            flagsOf(p, factors !== null, radius !== null),
            p.scalingRatio,
            p.overlapScalingRatio,
            p.barnesHutOptimize ? p.barnesHutTheta * p.barnesHutTheta : 0,
            p.barnesHutOptimize ? BH_EPSSQ : FLT_EPSILON,
            p.gravity,
            coef,
            fx,
            fy,
            oldX,
            oldY,
            swing,
            swingParts,
            tractionParts,
          ],
          n,
        );
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
