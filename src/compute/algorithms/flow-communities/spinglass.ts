// Spinglass community detection (Reichardt & Bornholdt's Potts model, igraph 0.10's "orig" implementation): heat-bath
// simulated annealing of q spin states from a start temperature found by heating, cooled by `coolFact` per step.
import type { ComputeContext } from "../../types.ts";
import type { Random } from "./random.ts";

/**
 * The Potts model's network: each node pair linked once (the first edge's weight and direction), loops left out;
 * `outgoing` marks the adjacency entries whose node is its link's start.
 */
export type SpinNet = { n: number; start: Int32Array; nbr: Int32Array; w: Float64Array; outgoing: Uint8Array; sumWeights: number };

export function spinNet(n: number, src: Int32Array, dst: Int32Array, weights: Float64Array | null): SpinNet {
  // Distinct pairs by first occurrence; each node lists its links in the order they were made.
  const seen = new Map<number, number>();
  const a: number[] = [];
  const b: number[] = [];
  const w: number[] = [];
  let sumWeights = 0;
  for (let e = 0; e < src.length; e++) {
    const x = src[e] as number;
    const y = dst[e] as number;
    const weight = weights ? (weights[e] as number) : 1;
    sumWeights += weight;
    if (x === y) continue;
    const key = x < y ? x * n + y : y * n + x;
    if (seen.has(key)) continue;
    seen.set(key, a.length);
    a.push(x);
    b.push(y);
    w.push(weight);
  }
  const start = new Int32Array(n + 1);
  for (let i = 0; i < a.length; i++) {
    start[(a[i] as number) + 1] = (start[(a[i] as number) + 1] as number) + 1;
    start[(b[i] as number) + 1] = (start[(b[i] as number) + 1] as number) + 1;
  }
  for (let v = 0; v < n; v++) start[v + 1] = (start[v + 1] as number) + (start[v] as number);
  const fill = start.slice(0, n);
  const nbr = new Int32Array(2 * a.length);
  const lw = new Float64Array(2 * a.length);
  const outgoing = new Uint8Array(2 * a.length);
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    let k = fill[x] as number;
    nbr[k] = y;
    lw[k] = w[i] as number;
    outgoing[k] = 1;
    fill[x] = k + 1;
    k = fill[y] as number;
    nbr[k] = x;
    lw[k] = w[i] as number;
    fill[y] = k + 1;
  }
  return { n, start, nbr, w: lw, outgoing, sumWeights };
}

export type SpinglassOptions = {
  spins: number;
  parupdate: boolean;
  startTemp: number;
  stopTemp: number;
  coolFact: number;
  /** "config": null model of the same degrees (Newman's modularity); "simple": of the same edge count. */
  config: boolean;
  gamma: number;
};

/** The spin (1..q) of each node after annealing. */
export function spinglass(net: SpinNet, o: SpinglassOptions, rand: Random, ctx: ComputeContext): Int32Array {
  const { n, start, nbr, w } = net;
  const q = o.spins;
  const gamma = o.gamma;
  const prob0 = (2 * net.sumWeights) / n / (n - 1);
  const spin = new Int32Array(n);
  const strength = new Float64Array(n);
  const colorField = new Float64Array(q + 1);
  const neighbours = new Float64Array(q + 1);
  const weights = new Float64Array(q + 1);
  const proposal = new Int32Array(n);
  const previous = new Int32Array(n);
  let totalDegree = 0;
  let acceptance = 0;

  const assignInitial = () => {
    colorField.fill(0);
    totalDegree = 0;
    for (let v = 0; v < n; v++) {
      const s = rand.int(1, q);
      spin[v] = s;
      let sum = 0;
      for (let j = start[v] as number; j < (start[v + 1] as number); j++) sum += w[j] as number;
      strength[v] = sum;
      colorField[s] = (colorField[s] as number) + (o.config ? sum : 1);
      totalDegree += sum;
    }
  };

  /** The heat-bath choice for node v at inverse temperature beta (zero temperature: the best, when beta is null). */
  const choose = (v: number, beta: number | null): number => {
    neighbours.fill(0);
    weights.fill(0);
    for (let j = start[v] as number; j < (start[v + 1] as number); j++) {
      const s = spin[nbr[j] as number] as number;
      neighbours[s] = (neighbours[s] as number) + (w[j] as number);
    }
    const old = spin[v] as number;
    const degree = strength[v] as number;
    const prob = o.config ? degree / totalDegree : prob0;
    const delta = o.config ? degree : 1;
    let minWeight = 0;
    let best = old;
    weights[old] = 0;
    for (let s = 1; s <= q; s++) {
      if (s === old) continue;
      const h = (colorField[s] as number) + delta - (colorField[old] as number);
      const x = (neighbours[old] as number) - (neighbours[s] as number) + gamma * prob * h;
      weights[s] = x;
      if (x < minWeight) {
        minWeight = x;
        best = s;
      }
    }
    if (beta === null) return best;
    let norm = 0;
    for (let s = 1; s <= q; s++) {
      const x = Math.exp(-beta * ((weights[s] as number) - minWeight));
      weights[s] = x;
      norm += x;
    }
    let r = rand.next() * norm;
    for (let s = 1; s <= q; s++) {
      if (r <= (weights[s] as number)) return s;
      r -= weights[s] as number;
    }
    return old;
  };

  const setSpin = (v: number, s: number) => {
    const old = spin[v] as number;
    const delta = o.config ? (strength[v] as number) : 1;
    colorField[old] = (colorField[old] as number) - delta;
    colorField[s] = (colorField[s] as number) + delta;
    spin[v] = s;
  };

  /** Synchronous sweeps (at most maxSweeps while spins change); the changes of the last, 0 in a two-cycle. */
  const parallel = (beta: number | null, maxSweeps: number): number => {
    let sweep = 0;
    let changes = 1;
    let cyclic = false;
    while (sweep < maxSweeps && changes) {
      cyclic = true;
      sweep++;
      changes = 0;
      for (let v = 0; v < n; v++) proposal[v] = choose(v, beta);
      for (let v = 0; v < n; v++) {
        const old = spin[v] as number;
        const s = proposal[v] as number;
        if (s === old) continue;
        changes++;
        if (s !== (previous[v] as number)) cyclic = false;
        previous[v] = old;
        setSpin(v, s);
      }
    }
    acceptance = beta === null && cyclic ? 0 : changes / n;
    if (beta === null) return cyclic ? 0 : changes;
    return cyclic && changes ? 0 : changes;
  };

  /** Random sequential sweeps; the fraction of accepted changes per node and sweep. */
  const sequential = (beta: number | null, maxSweeps: number): number => {
    let changes = 0;
    for (let sweep = 0; sweep < maxSweeps; sweep++) {
      for (let k = 0; k < n; k++) {
        const v = rand.int(0, n - 1);
        const s = choose(v, beta);
        if (s !== (spin[v] as number)) {
          changes++;
          setSpin(v, s);
        }
      }
    }
    acceptance = changes / n / maxSweeps;
    return acceptance;
  };

  const zeroT = o.stopTemp === 0 && o.startTemp === 0;
  let kT: number;
  if (!zeroT) {
    // FindStartTemp: heat until 95% of the spins that can change do.
    kT = o.startTemp;
    assignInitial();
    acceptance = 0;
    while (acceptance < (1 - 1 / q) * 0.95) {
      kT *= 1.1;
      parallel(1 / kT, 50);
      ctx.checkCancelled();
    }
    kT *= 1.1;
  } else kT = o.stopTemp;
  assignInitial();
  previous.fill(0);
  let runs = 0;
  let changes = 1;
  const steps = zeroT ? 150 : Math.max(1, Math.ceil(Math.log(o.stopTemp / kT) / Math.log(o.coolFact)));
  while (changes > 0 && (kT / o.stopTemp > 1 || (zeroT && runs < 150))) {
    runs++;
    if (runs % 8 === 0) {
      ctx.checkCancelled();
      ctx.progress({ phase: "spinglass annealing", iteration: runs, fraction: Math.min(1, runs / steps) });
    }
    if (!zeroT) {
      kT *= o.coolFact;
      if (o.parupdate) changes = parallel(1 / kT, 50);
      else changes = sequential(1 / kT, 50) < (1 - 1 / q) * 0.01 ? 0 : 1;
    } else if (o.parupdate) changes = parallel(null, 50);
    else changes = sequential(null, 50) < (1 - 1 / q) * 0.01 ? 0 : 1;
  }
  return spin;
}
