// Spinglass with negative weights (Traag & Bruggeman, igraph 0.10's "neg" implementation): heat-bath annealing where
// positive links attract (null model weighted by gamma) and negative links repel (weighted by lambda).
import type { ComputeContext } from "../../types.ts";
import type { Random } from "./random.ts";
import type { SpinNet } from "./spinglass.ts";

export type NegOptions = {
  spins: number;
  startTemp: number;
  stopTemp: number;
  coolFact: number;
  gamma: number;
  lambda: number;
  directed: boolean;
};

/** The spin (1..q) of each node after annealing. */
export function spinglassNeg(net: SpinNet, o: NegOptions, rand: Random, ctx: ComputeContext): Int32Array {
  const { n, start, nbr, w, outgoing } = net;
  const q = o.spins;
  const spin = new Int32Array(n);
  const posIn = new Float64Array(n);
  const negIn = new Float64Array(n);
  const posOut = new Float64Array(n);
  const negOut = new Float64Array(n);
  const cPosIn = new Float64Array(q + 1);
  const cNegIn = new Float64Array(q + 1);
  const cPosOut = new Float64Array(q + 1);
  const cNegOut = new Float64Array(q + 1);
  const neighbours = new Float64Array(q + 1);
  const weights = new Float64Array(q + 1);
  let mP = 0;
  let mN = 0;

  const assignInitial = () => {
    cPosIn.fill(0);
    cNegIn.fill(0);
    cPosOut.fill(0);
    cNegOut.fill(0);
    mP = 0;
    mN = 0;
    for (let v = 0; v < n; v++) {
      const s = rand.int(1, q);
      spin[v] = s;
      let pIn = 0;
      let pOut = 0;
      let nIn = 0;
      let nOut = 0;
      for (let j = start[v] as number; j < (start[v + 1] as number); j++) {
        const x = w[j] as number;
        if (outgoing[j]) {
          if (x > 0) pOut += x;
          else nOut -= x;
        } else if (x > 0) pIn += x;
        else nIn -= x;
      }
      if (!o.directed) {
        const p = pOut + pIn;
        pOut = p;
        pIn = p;
        const m = nOut + nIn;
        nOut = m;
        nIn = m;
      }
      posIn[v] = pIn;
      negIn[v] = nIn;
      posOut[v] = pOut;
      negOut[v] = nOut;
      cPosIn[s] = (cPosIn[s] as number) + pIn;
      cNegIn[s] = (cNegIn[s] as number) + nIn;
      cPosOut[s] = (cPosOut[s] as number) + pOut;
      cNegOut[s] = (cNegOut[s] as number) + nOut;
      mP += pIn;
      mN += nIn;
    }
  };

  /** Random sequential heat-bath sweeps at temperature t; the fraction of accepted changes per node and sweep. */
  const heatBath = (t: number, maxSweeps: number): number => {
    const beta = 1 / t;
    const mPt = mP < 0.001 ? 1 : mP;
    const mNt = mN < 0.001 ? 1 : mN;
    const { gamma, lambda, directed } = o;
    let changes = 0;
    for (let sweep = 0; sweep < maxSweeps; sweep++) {
      for (let k = 0; k < n; k++) {
        const v = rand.int(0, n - 1);
        neighbours.fill(0);
        weights.fill(0);
        for (let j = start[v] as number; j < (start[v + 1] as number); j++) {
          const s = spin[nbr[j] as number] as number;
          neighbours[s] = (neighbours[s] as number) + (w[j] as number);
        }
        const old = spin[v] as number;
        const dPosOut = posOut[v] as number;
        const dPosIn = posIn[v] as number;
        const dNegOut = negOut[v] as number;
        const dNegIn = negIn[v] as number;
        const kPosOut = (gamma * dPosOut) / mPt;
        const kPosIn = (gamma * dPosIn) / mPt;
        const kNegOut = (lambda * dNegOut) / mNt;
        const kNegIn = (lambda * dNegIn) / mNt;
        let expOld = kPosOut * ((cPosIn[old] as number) - dPosIn) - kNegOut * ((cNegIn[old] as number) - dNegIn);
        if (directed) expOld += kPosIn * ((cPosOut[old] as number) - dPosOut) - kNegIn * ((cNegOut[old] as number) - dNegOut);
        let maxWeight = 0;
        weights[old] = 0;
        for (let s = 1; s <= q; s++) {
          if (s === old) continue;
          let expS = kPosOut * (cPosIn[s] as number) - kNegOut * (cNegIn[s] as number);
          if (directed) expS += kPosIn * (cPosOut[s] as number) - kNegIn * (cNegOut[s] as number);
          const x = (neighbours[s] as number) - expS - ((neighbours[old] as number) - expOld);
          weights[s] = x;
          if (x > maxWeight) maxWeight = x;
        }
        let sum = 0;
        for (let s = 1; s <= q; s++) {
          const x = Math.exp(beta * ((weights[s] as number) - maxWeight));
          weights[s] = x;
          sum += x;
        }
        let r = rand.next() * sum;
        let chosen = old;
        for (let s = 1; s <= q; s++) {
          if (r <= (weights[s] as number)) {
            chosen = s;
            break;
          }
          r -= weights[s] as number;
        }
        if (chosen !== old) {
          changes++;
          spin[v] = chosen;
          cPosIn[old] = (cPosIn[old] as number) - dPosIn;
          cNegIn[old] = (cNegIn[old] as number) - dNegIn;
          cPosOut[old] = (cPosOut[old] as number) - dPosOut;
          cNegOut[old] = (cNegOut[old] as number) - dNegOut;
          cPosIn[chosen] = (cPosIn[chosen] as number) + dPosIn;
          cNegIn[chosen] = (cNegIn[chosen] as number) + dNegIn;
          cPosOut[chosen] = (cPosOut[chosen] as number) + dPosOut;
          cNegOut[chosen] = (cNegOut[chosen] as number) + dNegOut;
        }
      }
    }
    return changes / n / maxSweeps;
  };

  // Heat until 95% of the spins that can change do, then anneal from fresh random spins.
  let kT = o.startTemp;
  assignInitial();
  let acceptance = 0;
  while (acceptance < (1 - 1 / q) * 0.95) {
    kT *= 1.1;
    acceptance = heatBath(kT, 50);
    ctx.checkCancelled();
  }
  kT *= 1.1;
  assignInitial();
  const zeroT = o.stopTemp === 0 && o.startTemp === 0;
  const steps = Math.max(1, Math.ceil(Math.log(o.stopTemp / kT) / Math.log(o.coolFact)));
  let runs = 0;
  let changes = 1;
  while (changes > 0 && (kT / o.stopTemp > 1 || (zeroT && runs < 150))) {
    runs++;
    if (runs % 8 === 0) {
      ctx.checkCancelled();
      ctx.progress({ phase: "spinglass annealing", iteration: runs, fraction: Math.min(1, runs / steps) });
    }
    kT *= o.coolFact;
    changes = heatBath(kT, 50) < (1 - 1 / q) * 0.001 ? 0 : 1;
  }
  return spin;
}
