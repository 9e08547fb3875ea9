// Infomap's flow graph (Rosvall & Bergstrom's code as igraph 0.10 carries it): PageRank flow with teleportation 0.15,
// link flows, node exit flows and the two-level map equation's terms, over typed arrays.
import type { ComputeGraph } from "../../../../kernels/cpu/csr.ts";

export function plogp(x: number): number {
  return x > 0 ? x * Math.log(x) : 0;
}

/** Links of each node as compressed rows: target and flow (weights until initiate()). */
export type Links = { start: Int32Array; nbr: Int32Array; flow: Float64Array };

export function linksFrom(n: number, owner: ArrayLike<number>, nbr: ArrayLike<number>, flow: ArrayLike<number>): Links {
  const start = new Int32Array(n + 1);
  for (let i = 0; i < owner.length; i++) start[(owner[i] as number) + 1] = (start[(owner[i] as number) + 1] as number) + 1;
  for (let v = 0; v < n; v++) start[v + 1] = (start[v + 1] as number) + (start[v] as number);
  const fill = start.slice(0, n);
  const outNbr = new Int32Array(owner.length);
  const outFlow = new Float64Array(owner.length);
  for (let i = 0; i < owner.length; i++) {
    const v = owner[i] as number;
    const at = fill[v] as number;
    outNbr[at] = nbr[i] as number;
    outFlow[at] = flow[i] as number;
    fill[v] = at + 1;
  }
  return { start, nbr: outNbr, flow: outFlow };
}

export class FlowGraph {
  n: number;
  out: Links;
  inl: Links;
  size: Float64Array;
  exitOf: Float64Array;
  dangling: Float64Array;
  teleport: Float64Array;
  selfLink: Float64Array;
  /** The original vertices each node stands for: mem[memStart[i] .. memStart[i + 1]). */
  memStart: Int32Array;
  mem: Int32Array;
  alpha = 0.15;
  beta = 0.85;
  exit = 0;
  exitFlow = 0;
  exitLogExit = 0;
  sizeLogSize = 0;
  nodeSizeLogNodeSize = 0;
  codeLength = 0;

  constructor(n: number, out: Links, inl: Links, teleport: Float64Array) {
    this.n = n;
    this.out = out;
    this.inl = inl;
    this.size = new Float64Array(n);
    this.exitOf = new Float64Array(n);
    this.dangling = new Float64Array(n);
    this.teleport = teleport;
    this.selfLink = new Float64Array(n);
    this.memStart = new Int32Array(n + 1);
    this.mem = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      this.memStart[i + 1] = i + 1;
      this.mem[i] = i;
    }
  }

  /** The graph's links (both ways when undirected; loops and links of weight <= 0 left out). */
  static fromGraph(graph: ComputeGraph, eWeights: Float64Array | null, vWeights: Float64Array | null): FlowGraph {
    const { n, m, src, dst } = graph;
    const from: number[] = [];
    const to: number[] = [];
    const w: number[] = [];
    const add = (a: number, b: number, x: number) => {
      if (x > 0 && a !== b) {
        from.push(a);
        to.push(b);
        w.push(x);
      }
    };
    for (let e = 0; e < m; e++) {
      const x = eWeights ? (eWeights[e] as number) : 1;
      add(src[e] as number, dst[e] as number, x);
      if (!graph.directed) add(dst[e] as number, src[e] as number, x);
    }
    const teleport = vWeights ? Float64Array.from(vWeights) : new Float64Array(n).fill(1);
    return new FlowGraph(n, linksFrom(n, from, to, w), linksFrom(n, to, from, w), teleport);
  }

  clone(): FlowGraph {
    const g = new FlowGraph(0, this.out, this.inl, this.teleport);
    g.copyFrom(this);
    return g;
  }

  /** back_to: this graph becomes a copy of `o`. */
  copyFrom(o: FlowGraph): void {
    this.n = o.n;
    this.out = { start: o.out.start.slice(), nbr: o.out.nbr.slice(), flow: o.out.flow.slice() };
    this.inl = { start: o.inl.start.slice(), nbr: o.inl.nbr.slice(), flow: o.inl.flow.slice() };
    this.size = o.size.slice();
    this.exitOf = o.exitOf.slice();
    this.dangling = o.dangling.slice();
    this.teleport = o.teleport.slice();
    this.selfLink = o.selfLink.slice();
    this.memStart = o.memStart.slice();
    this.mem = o.mem.slice();
    this.alpha = o.alpha;
    this.beta = o.beta;
    this.exit = o.exit;
    this.exitFlow = o.exitFlow;
    this.exitLogExit = o.exitLogExit;
    this.sizeLogSize = o.sizeLogSize;
    this.nodeSizeLogNodeSize = o.nodeSizeLogNodeSize;
    this.codeLength = o.codeLength;
  }

  /** The subgraph induced by `members` (node ids of `o`, ascending), with o's flows as weights; call initiate(). */
  static sub(o: FlowGraph, members: Int32Array, renumber: Int32Array): FlowGraph {
    const k = members.length;
    for (let j = 0; j < k; j++) renumber[members[j] as number] = j;
    const of: number[] = [];
    const ot: number[] = [];
    const ow: number[] = [];
    for (let j = 0; j < k; j++) {
      const orig = members[j] as number;
      for (let x = o.out.start[orig] as number; x < (o.out.start[orig + 1] as number); x++) {
        const t = o.out.nbr[x] as number;
        if (t < orig && (renumber[t] as number) >= 0) {
          of.push(j);
          ot.push(renumber[t] as number);
          ow.push(o.out.flow[x] as number);
        }
      }
      for (let x = o.inl.start[orig] as number; x < (o.inl.start[orig + 1] as number); x++) {
        const t = o.inl.nbr[x] as number;
        if (t < orig && (renumber[t] as number) >= 0) {
          of.push(renumber[t] as number);
          ot.push(j);
          ow.push(o.inl.flow[x] as number);
        }
      }
    }
    const teleport = new Float64Array(k);
    const g = new FlowGraph(k, linksFrom(k, of, ot, ow), linksFrom(k, ot, of, ow), teleport);
    for (let j = 0; j < k; j++) {
      teleport[j] = o.teleport[members[j] as number] as number;
      g.selfLink[j] = o.selfLink[members[j] as number] as number;
    }
    for (let j = 0; j < k; j++) renumber[members[j] as number] = -1;
    return g;
  }

  /** Normalizes teleportation and out-links, finds the stationary flow, and turns links into flows. */
  initiate(): void {
    const n = this.n;
    const { out, inl } = this;
    let tot = 0;
    for (let i = 0; i < n; i++) tot += this.teleport[i] as number;
    const danglings: number[] = [];
    for (let i = 0; i < n; i++) {
      this.teleport[i] = (this.teleport[i] as number) / tot;
      const s = out.start[i] as number;
      const e = out.start[i + 1] as number;
      if (s === e && (this.selfLink[i] as number) <= 0) danglings.push(i);
      else {
        let sum = this.selfLink[i] as number;
        for (let j = s; j < e; j++) sum += out.flow[j] as number;
        this.selfLink[i] = (this.selfLink[i] as number) / sum;
        for (let j = s; j < e; j++) out.flow[j] = (out.flow[j] as number) / sum;
      }
    }
    this.eigenvector(danglings);
    const beta = this.beta;
    for (let i = 0; i < n; i++) {
      this.selfLink[i] = beta * (this.size[i] as number) * (this.selfLink[i] as number);
      const s = out.start[i] as number;
      const e = out.start[i + 1] as number;
      for (let j = s; j < e; j++) out.flow[j] = beta * (this.size[i] as number) * (out.flow[j] as number);
      // The matching in-link (the first from i, as the original finds it) takes the flow.
      for (let j = s; j < e; j++) {
        const t = out.nbr[j] as number;
        for (let k = inl.start[t] as number; k < (inl.start[t + 1] as number); k++) {
          if ((inl.nbr[k] as number) === i) {
            inl.flow[k] = out.flow[j] as number;
            break;
          }
        }
      }
    }
    this.nodeSizeLogNodeSize = 0;
    for (let i = 0; i < n; i++) {
      const isDangling = (out.start[i] as number) === (out.start[i + 1] as number) && (this.selfLink[i] as number) <= 0;
      this.dangling[i] = isDangling ? (this.size[i] as number) : 0;
    }
    for (let i = 0; i < n; i++) {
      const size = this.size[i] as number;
      this.exitOf[i] =
        size - (this.alpha * size + this.beta * (this.dangling[i] as number)) * (this.teleport[i] as number) - (this.selfLink[i] as number);
      this.nodeSizeLogNodeSize += plogp(size);
    }
    this.calibrate();
  }

  private eigenvector(danglings: number[]): void {
    const n = this.n;
    const { out } = this;
    const prev = new Float64Array(n).fill(1 / n);
    let iterations = 0;
    let sqdiff = 1;
    do {
      let danglingSize = 0;
      for (const d of danglings) danglingSize += prev[d] as number;
      for (let i = 0; i < n; i++) this.size[i] = (this.alpha + this.beta * danglingSize) * (this.teleport[i] as number);
      for (let i = 0; i < n; i++) {
        this.size[i] = (this.size[i] as number) + this.beta * (this.selfLink[i] as number) * (prev[i] as number);
        for (let j = out.start[i] as number; j < (out.start[i + 1] as number); j++) {
          const t = out.nbr[j] as number;
          this.size[t] = (this.size[t] as number) + this.beta * (out.flow[j] as number) * (prev[i] as number);
        }
      }
      let sum = 0;
      for (let i = 0; i < n; i++) sum += this.size[i] as number;
      const old = sqdiff;
      sqdiff = 0;
      for (let i = 0; i < n; i++) {
        this.size[i] = (this.size[i] as number) / sum;
        sqdiff += Math.abs((this.size[i] as number) - (prev[i] as number));
        prev[i] = this.size[i] as number;
      }
      iterations++;
      if (sqdiff === old) {
        this.alpha += 1e-10;
        this.beta = 1 - this.alpha;
      }
    } while (iterations < 200 && (sqdiff > 1e-15 || iterations < 50));
  }

  calibrate(): void {
    this.exitLogExit = 0;
    this.exitFlow = 0;
    this.sizeLogSize = 0;
    for (let i = 0; i < this.n; i++) {
      this.sizeLogSize += plogp((this.exitOf[i] as number) + (this.size[i] as number));
      this.exitFlow += this.exitOf[i] as number;
      this.exitLogExit += plogp(this.exitOf[i] as number);
    }
    this.exit = plogp(this.exitFlow);
    this.codeLength = this.exit - 2 * this.exitLogExit + this.sizeLogSize - this.nodeSizeLogNodeSize;
  }

  /** swap(): this graph takes `o`'s nodes (keeping its own nodeSizeLogNodeSize and alpha) and recalibrates. */
  takeNodes(o: FlowGraph): void {
    this.n = o.n;
    this.out = o.out;
    this.inl = o.inl;
    this.size = o.size;
    this.exitOf = o.exitOf;
    this.dangling = o.dangling;
    this.teleport = o.teleport;
    this.selfLink = o.selfLink;
    this.memStart = o.memStart;
    this.mem = o.mem;
    this.calibrate();
  }
}
