// Infomap (two-level map equation) as igraph 0.10 runs it: greedy node moves in random order, modules coarse-grained
// into nodes, alternating single-node and submodule re-splits, the best of `trials` partitions by code length.
import type { ComputeContext } from "../../types.ts";
import { FlowGraph, plogp } from "./infomap-flow.ts";
import type { Random } from "./random.ts";

type Scratch = { redirect: Float64Array; modOf: Int32Array; outF: Float64Array; inF: Float64Array; order: Int32Array };

/** The greedy optimizer over one flow graph's nodes (module per node, module flows). */
class Greedy {
  g: FlowGraph;
  n: number;
  alpha: number;
  beta: number;
  index: Int32Array;
  nEmpty = 0;
  modEmpty: Int32Array;
  modExit: Float64Array;
  modSize: Float64Array;
  modDangling: Float64Array;
  modTeleport: Float64Array;
  modMembers: Int32Array;
  exit: number;
  exitFlow: number;
  exitLogExit: number;
  sizeLogSize: number;
  nodeSizeLogNodeSize: number;
  codeLength: number;

  constructor(g: FlowGraph) {
    this.g = g;
    const n = g.n;
    this.n = n;
    this.alpha = g.alpha;
    this.beta = 1 - g.alpha;
    this.index = new Int32Array(n);
    this.modEmpty = new Int32Array(n);
    this.modExit = g.exitOf.slice();
    this.modSize = g.size.slice();
    this.modDangling = g.dangling.slice();
    this.modTeleport = g.teleport.slice();
    this.modMembers = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      this.index[i] = i;
      this.modMembers[i] = (g.memStart[i + 1] as number) - (g.memStart[i] as number);
    }
    this.nodeSizeLogNodeSize = g.nodeSizeLogNodeSize;
    this.exitLogExit = g.exitLogExit;
    this.sizeLogSize = g.sizeLogSize;
    this.exitFlow = g.exitFlow;
    this.exit = plogp(this.exitFlow);
    this.codeLength = this.exit - 2 * this.exitLogExit + this.sizeLogSize - this.nodeSizeLogNodeSize;
  }

  /** Moves node i from its module to module `to`, given i's flows to and from both. */
  private move(i: number, oldM: number, to: number, outOld: number, inOld: number, outNew: number, inNew: number): void {
    const g = this.g;
    const members = (g.memStart[i + 1] as number) - (g.memStart[i] as number);
    if ((this.modMembers[to] as number) === 0) this.nEmpty--;
    if ((this.modMembers[oldM] as number) === members) this.modEmpty[this.nEmpty++] = oldM;
    const me = this.modExit;
    const ms = this.modSize;
    this.exitFlow -= (me[oldM] as number) + (me[to] as number);
    this.exitLogExit -= plogp(me[oldM] as number) + plogp(me[to] as number);
    this.sizeLogSize -= plogp((me[oldM] as number) + (ms[oldM] as number)) + plogp((me[to] as number) + (ms[to] as number));
    me[oldM] = (me[oldM] as number) - ((g.exitOf[i] as number) - outOld - inOld);
    ms[oldM] = (ms[oldM] as number) - (g.size[i] as number);
    this.modDangling[oldM] = (this.modDangling[oldM] as number) - (g.dangling[i] as number);
    this.modTeleport[oldM] = (this.modTeleport[oldM] as number) - (g.teleport[i] as number);
    this.modMembers[oldM] = (this.modMembers[oldM] as number) - members;
    me[to] = (me[to] as number) + ((g.exitOf[i] as number) - outNew - inNew);
    ms[to] = (ms[to] as number) + (g.size[i] as number);
    this.modDangling[to] = (this.modDangling[to] as number) + (g.dangling[i] as number);
    this.modTeleport[to] = (this.modTeleport[to] as number) + (g.teleport[i] as number);
    this.modMembers[to] = (this.modMembers[to] as number) + members;
    this.exitFlow += (me[oldM] as number) + (me[to] as number);
    this.exitLogExit += plogp(me[oldM] as number) + plogp(me[to] as number);
    this.sizeLogSize += plogp((me[oldM] as number) + (ms[oldM] as number)) + plogp((me[to] as number) + (ms[to] as number));
    this.exit = plogp(this.exitFlow);
    this.codeLength = this.exit - 2 * this.exitLogExit + this.sizeLogSize - this.nodeSizeLogNodeSize;
    this.index[i] = to;
  }

  /** One sweep of node moves in random order; true when a node moved. */
  optimize(rand: Random, scratch: Scratch): boolean {
    const g = this.g;
    const n = this.n;
    const { alpha, beta } = this;
    let moved = false;
    const order = scratch.order;
    for (let i = 0; i < n; i++) order[i] = i;
    for (let i = 0; i < n - 1; i++) {
      const r = rand.int(i, n - 1);
      const t = order[i] as number;
      order[i] = order[r] as number;
      order[r] = t;
    }
    const { redirect, modOf, outF, inF } = scratch;
    redirect.fill(0, 0, n);
    let offset = 1;
    for (let k = 0; k < n; k++) {
      const flip = order[k] as number;
      const oldM = this.index[flip] as number;
      let nLinks = 0;
      const os = g.out.start[flip] as number;
      const oe = g.out.start[flip + 1] as number;
      if (os === oe) {
        redirect[oldM] = offset + nLinks;
        modOf[nLinks] = oldM;
        outF[nLinks] = 0;
        inF[nLinks] = 0;
        nLinks++;
      } else {
        for (let j = os; j < oe; j++) {
          const m = this.index[g.out.nbr[j] as number] as number;
          const f = g.out.flow[j] as number;
          if ((redirect[m] as number) >= offset) {
            const at = (redirect[m] as number) - offset;
            outF[at] = (outF[at] as number) + f;
          } else {
            redirect[m] = offset + nLinks;
            modOf[nLinks] = m;
            outF[nLinks] = f;
            inF[nLinks] = 0;
            nLinks++;
          }
        }
      }
      for (let j = g.inl.start[flip] as number; j < (g.inl.start[flip + 1] as number); j++) {
        const m = this.index[g.inl.nbr[j] as number] as number;
        const f = g.inl.flow[j] as number;
        if ((redirect[m] as number) >= offset) {
          const at = (redirect[m] as number) - offset;
          inF[at] = (inF[at] as number) + f;
        } else {
          redirect[m] = offset + nLinks;
          modOf[nLinks] = m;
          outF[nLinks] = 0;
          inF[nLinks] = f;
          nLinks++;
        }
      }
      const size = g.size[flip] as number;
      const dang = g.dangling[flip] as number;
      const tele = g.teleport[flip] as number;
      for (let j = 0; j < nLinks; j++) {
        const m = modOf[j] as number;
        if (m === oldM) {
          outF[j] = (outF[j] as number) + (alpha * size + beta * dang) * ((this.modTeleport[oldM] as number) - tele);
          inF[j] =
            (inF[j] as number) +
            (alpha * ((this.modSize[oldM] as number) - size) + beta * ((this.modDangling[oldM] as number) - dang)) * tele;
        } else {
          outF[j] = (outF[j] as number) + (alpha * size + beta * dang) * (this.modTeleport[m] as number);
          inF[j] = (inF[j] as number) + (alpha * (this.modSize[m] as number) + beta * (this.modDangling[m] as number)) * tele;
        }
      }
      let outOld = (alpha * size + beta * dang) * ((this.modTeleport[oldM] as number) - tele);
      let inOld = (alpha * ((this.modSize[oldM] as number) - size) + beta * ((this.modDangling[oldM] as number) - dang)) * tele;
      if ((redirect[oldM] as number) >= offset) {
        outOld = outF[(redirect[oldM] as number) - offset] as number;
        inOld = inF[(redirect[oldM] as number) - offset] as number;
      }
      const members = (g.memStart[flip + 1] as number) - (g.memStart[flip] as number);
      if ((this.modMembers[oldM] as number) > members && this.nEmpty > 0) {
        modOf[nLinks] = this.modEmpty[this.nEmpty - 1] as number;
        outF[nLinks] = 0;
        inF[nLinks] = 0;
        nLinks++;
      }
      for (let j = 0; j < nLinks - 1; j++) {
        const r = rand.int(j, nLinks - 1);
        const tm = modOf[j] as number;
        const to = outF[j] as number;
        const ti = inF[j] as number;
        modOf[j] = modOf[r] as number;
        outF[j] = outF[r] as number;
        inF[j] = inF[r] as number;
        modOf[r] = tm;
        outF[r] = to;
        inF[r] = ti;
      }
      let bestM = oldM;
      let bestOut = 0;
      let bestIn = 0;
      let bestDelta = 0;
      const me = this.modExit;
      const ms = this.modSize;
      const exitI = g.exitOf[flip] as number;
      for (let j = 0; j < nLinks; j++) {
        const m = modOf[j] as number;
        if (m === oldM) continue;
        const outNew = outF[j] as number;
        const inNew = inF[j] as number;
        const deltaExit = plogp(this.exitFlow + outOld + inOld - outNew - inNew) - this.exit;
        const deltaExitLogExit =
          -plogp(me[oldM] as number) -
          plogp(me[m] as number) +
          plogp((me[oldM] as number) - exitI + outOld + inOld) +
          plogp((me[m] as number) + exitI - outNew - inNew);
        const deltaSizeLogSize =
          -plogp((me[oldM] as number) + (ms[oldM] as number)) -
          plogp((me[m] as number) + (ms[m] as number)) +
          plogp((me[oldM] as number) + (ms[oldM] as number) - exitI - size + outOld + inOld) +
          plogp((me[m] as number) + (ms[m] as number) + exitI + size - outNew - inNew);
        const deltaL = deltaExit - 2 * deltaExitLogExit + deltaSizeLogSize;
        if (deltaL - bestDelta < -1e-10) {
          bestM = m;
          bestOut = outNew;
          bestIn = inNew;
          bestDelta = deltaL;
        }
      }
      if (bestM !== oldM) {
        this.move(flip, oldM, bestM, outOld, inOld, bestOut, bestIn);
        moved = true;
      }
      offset += n;
    }
    return moved;
  }

  /** Moves node i to module moveTo[i], one after the other (setMove). */
  setMove(moveTo: Int32Array): void {
    const g = this.g;
    const { alpha, beta } = this;
    for (let i = 0; i < this.n; i++) {
      const oldM = i;
      const newM = moveTo[i] as number;
      if (newM === oldM) continue;
      const size = g.size[i] as number;
      const dang = g.dangling[i] as number;
      const tele = g.teleport[i] as number;
      let outOld = (alpha * size + beta * dang) * ((this.modTeleport[oldM] as number) - tele);
      let inOld = (alpha * ((this.modSize[oldM] as number) - size) + beta * ((this.modDangling[oldM] as number) - dang)) * tele;
      let outNew = (alpha * size + beta * dang) * (this.modTeleport[newM] as number);
      let inNew = (alpha * (this.modSize[newM] as number) + beta * (this.modDangling[newM] as number)) * tele;
      for (let j = g.out.start[i] as number; j < (g.out.start[i + 1] as number); j++) {
        const m = this.index[g.out.nbr[j] as number] as number;
        if (m === oldM) outOld += g.out.flow[j] as number;
        else if (m === newM) outNew += g.out.flow[j] as number;
      }
      for (let j = g.inl.start[i] as number; j < (g.inl.start[i + 1] as number); j++) {
        const m = this.index[g.inl.nbr[j] as number] as number;
        if (m === oldM) inOld += g.inl.flow[j] as number;
        else if (m === newM) inNew += g.inl.flow[j] as number;
      }
      this.move(i, oldM, newM, outOld, inOld, outNew, inNew);
    }
  }

  /** Coarse-grains: the graph becomes one node per non-empty module (sorted by size when `sort`). */
  apply(sort: boolean): void {
    const g = this.g;
    const n = this.n;
    const mods: number[] = [];
    for (let i = 0; i < n; i++) if ((this.modMembers[i] as number) > 0) mods.push(i);
    if (sort) mods.sort((a, b) => (this.modSize[b] as number) - (this.modSize[a] as number) || a - b);
    const nMod = mods.length;
    const inMod = new Int32Array(n);
    for (let i = 0; i < nMod; i++) inMod[mods[i] as number] = i;
    const modOfNode = new Int32Array(n);
    for (let i = 0; i < n; i++) modOfNode[i] = inMod[this.index[i] as number] as number;
    // Nodes of each new module, in node order.
    const byStart = new Int32Array(nMod + 1);
    for (let i = 0; i < n; i++) byStart[(modOfNode[i] as number) + 1] = (byStart[(modOfNode[i] as number) + 1] as number) + 1;
    for (let i = 0; i < nMod; i++) byStart[i + 1] = (byStart[i + 1] as number) + (byStart[i] as number);
    const fill = byStart.slice(0, nMod);
    const byNode = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const m = modOfNode[i] as number;
      byNode[fill[m] as number] = i;
      fill[m] = (fill[m] as number) + 1;
    }
    const memStart = new Int32Array(nMod + 1);
    const mem = new Int32Array(g.mem.length);
    let mp = 0;
    for (let m = 0; m < nMod; m++) {
      memStart[m] = mp;
      for (let x = byStart[m] as number; x < (byStart[m + 1] as number); x++) {
        const i = byNode[x] as number;
        for (let y = g.memStart[i] as number; y < (g.memStart[i + 1] as number); y++) mem[mp++] = g.mem[y] as number;
      }
    }
    memStart[nMod] = mp;
    const acc = new Float64Array(nMod);
    const seen = new Uint8Array(nMod);
    const touched = new Int32Array(nMod);
    // Module-to-module flows, rows in module order and targets ascending (the original's std::map order).
    const aggregate = (links: { start: Int32Array; nbr: Int32Array; flow: Float64Array }) => {
      const start = new Int32Array(nMod + 1);
      const nbr = new Int32Array(links.nbr.length);
      const flow = new Float64Array(links.nbr.length);
      let at = 0;
      for (let m = 0; m < nMod; m++) {
        let nt = 0;
        for (let x = byStart[m] as number; x < (byStart[m + 1] as number); x++) {
          const i = byNode[x] as number;
          for (let j = links.start[i] as number; j < (links.start[i + 1] as number); j++) {
            const nb = links.nbr[j] as number;
            if (nb === i) continue;
            const nm = modOfNode[nb] as number;
            if (!seen[nm]) {
              seen[nm] = 1;
              acc[nm] = 0;
              touched[nt++] = nm;
            }
            acc[nm] = (acc[nm] as number) + (links.flow[j] as number);
          }
        }
        const row = touched.subarray(0, nt).sort();
        for (let t = 0; t < nt; t++) {
          const nm = row[t] as number;
          seen[nm] = 0;
          if (nm !== m) {
            nbr[at] = nm;
            flow[at] = acc[nm] as number;
            at++;
          }
        }
        start[m + 1] = at;
      }
      return { start, nbr: nbr.subarray(0, at), flow: flow.subarray(0, at) };
    };
    const out = aggregate(g.out);
    const inl = aggregate(g.inl);
    const teleport = new Float64Array(nMod);
    const next = new FlowGraph(nMod, out, inl, teleport);
    for (let i = 0; i < nMod; i++) {
      const src = mods[i] as number;
      next.exitOf[i] = this.modExit[src] as number;
      next.size[i] = this.modSize[src] as number;
      next.dangling[i] = this.modDangling[src] as number;
      teleport[i] = this.modTeleport[src] as number;
    }
    next.memStart = memStart;
    next.mem = mem.subarray(0, mp);
    this.nEmpty = 0;
    g.takeNodes(next);
    this.n = nMod;
  }
}

function scratchFor(n: number): Scratch {
  return {
    redirect: new Float64Array(n),
    modOf: new Int32Array(n + 1),
    outF: new Float64Array(n + 1),
    inF: new Float64Array(n + 1),
    order: new Int32Array(n),
  };
}

/** infomap_partition: improves `fg` in place (its nodes become the modules). */
function partition(fg: FlowGraph, rand: Random, ctx: ComputeContext | null): void {
  const original = fg.clone();
  const n = original.n;
  const scratch = scratchFor(n);
  const renumber = new Int32Array(n).fill(-1);
  let iteration = 0;
  let outerOld: number;
  let newCodeLength = fg.codeLength;
  let initialMove: Int32Array | null = null;
  let initialMoveDone = true;
  do {
    outerOld = fg.codeLength;
    if (iteration > 0) {
      initialMove = new Int32Array(n);
      initialMoveDone = false;
      let subMoveTo: Int32Array | null = null;
      if (iteration % 2 === 0 && fg.n > 1) {
        subMoveTo = new Int32Array(n);
        let subModIndex = 0;
        for (let i = 0; i < fg.n; i++) {
          const ms = fg.memStart[i] as number;
          const me = fg.memStart[i + 1] as number;
          if (me - ms > 1) {
            const members = Int32Array.from(fg.mem.subarray(ms, me)).sort();
            const subGraph = FlowGraph.sub(original, members, renumber);
            subGraph.initiate();
            partition(subGraph, rand, null);
            // Sub-node v is the module's v-th smallest member (igraph 0.10 reads its unsorted list here).
            for (let j = 0; j < subGraph.n; j++) {
              for (let y = subGraph.memStart[j] as number; y < (subGraph.memStart[j + 1] as number); y++) {
                subMoveTo[members[subGraph.mem[y] as number] as number] = subModIndex;
              }
              initialMove[subModIndex] = i;
              subModIndex++;
            }
          } else {
            subMoveTo[fg.mem[ms] as number] = subModIndex;
            initialMove[subModIndex] = i;
            subModIndex++;
          }
        }
      } else {
        for (let i = 0; i < fg.n; i++) {
          for (let y = fg.memStart[i] as number; y < (fg.memStart[i + 1] as number); y++) initialMove[fg.mem[y] as number] = i;
        }
      }
      fg.copyFrom(original);
      if (subMoveTo) {
        const g = new Greedy(fg);
        g.setMove(subMoveTo);
        g.apply(false);
      }
    }
    let oldCodeLength: number;
    do {
      const greedy = new Greedy(fg);
      if (!initialMoveDone && initialMove) {
        initialMoveDone = true;
        greedy.setMove(initialMove);
      }
      oldCodeLength = greedy.codeLength;
      let moved = true;
      while (moved) {
        const inner = greedy.codeLength;
        moved = greedy.optimize(rand, scratch);
        if (Math.abs(greedy.codeLength - inner) < 1e-10) moved = false;
      }
      greedy.apply(true);
      newCodeLength = greedy.codeLength;
    } while (oldCodeLength - newCodeLength > 1e-10);
    iteration++;
    if (ctx) ctx.checkCancelled();
  } while (outerOld - newCodeLength > 1e-10);
}

/** The best membership of `trials` runs (by code length, in nats) and its code length in bits. */
export function infomap(
  base: FlowGraph,
  trials: number,
  rand: Random,
  ctx: ComputeContext,
): { membership: Int32Array; codelength: number } {
  base.initiate();
  const membership = new Int32Array(base.n);
  let shortest = 1000;
  for (let t = 0; t < trials; t++) {
    ctx.checkCancelled();
    ctx.progress({ phase: "infomap trials", iteration: t, fraction: t / trials });
    const fg = base.clone();
    partition(fg, rand, ctx);
    if (fg.codeLength < shortest) {
      shortest = fg.codeLength;
      for (let i = 0; i < fg.n; i++) {
        for (let y = fg.memStart[i] as number; y < (fg.memStart[i + 1] as number); y++) membership[fg.mem[y] as number] = i;
      }
    }
  }
  return { membership, codelength: shortest / Math.log(2) };
}
