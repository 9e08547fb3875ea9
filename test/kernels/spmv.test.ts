// Kernel "spmv" on each backend: a hand-checked product and seeded products summed in row order (exactly equal).
import { describe, expect, it } from "vitest";
import { spmv } from "../../kernels/cpu/spmv.ts";
import { seeded } from "../helpers/seeded.ts";
import { backends, kernelOn } from "./backends.ts";
import { skewedGraph, weights } from "./graphs.ts";

describe.each(backends)("kernel spmv on %s", (backend) => {
  const run = kernelOn(backend, "spmv", spmv);

  it("multiplies a small matrix", () => {
    // Rows: y0 = 2 x1 + 3 x2, y1 = 0, y2 = 4 x0 + 4 x0 (a repeated entry).
    const y = run({
      n: 3,
      start: new Int32Array([0, 2, 2, 4]),
      nbr: new Int32Array([1, 2, 0, 0]),
      weight: new Float64Array([2, 3, 4, 4]),
      x: new Float64Array([1, 10, 100]),
    });
    expect(Array.from(y)).toEqual([320, 0, 8]);
  });

  it("writes into the array it is given (iterations reuse two), every entry overwritten", () => {
    const into = new Float64Array([7, 7, 7]);
    const y = run({
      n: 3,
      start: new Int32Array([0, 2, 2, 4]),
      nbr: new Int32Array([1, 2, 0, 0]),
      weight: new Float64Array([2, 3, 4, 4]),
      x: new Float64Array([1, 10, 100]),
      y: into,
    });
    expect(y).toBe(into);
    expect(Array.from(into)).toEqual([320, 0, 8]);
  });

  for (const weighted of [false, true]) {
    it(`sums each row in entry order (${weighted ? "weighted" : "unweighted"}, seeded)`, () => {
      const csr = skewedGraph(61, 8000, 40000);
      const rng = seeded(62);
      const x = Float64Array.from({ length: 8000 }, () => rng.next() - 0.3);
      const w = weights(63, 40000);
      const weight = weighted ? Float64Array.from(csr.inEdges, (e) => w[e] as number) : null;
      const y = run({ n: 8000, start: csr.inStart, nbr: csr.inSrc, weight, x });
      for (let i = 0; i < 8000; i += 97) {
        let sum = 0;
        for (let j = csr.inStart[i] as number; j < (csr.inStart[i + 1] as number); j++) {
          sum += (weight ? (weight[j] as number) : 1) * (x[csr.inSrc[j] as number] as number);
        }
        expect(y[i]).toBe(sum);
      }
    });
  }
});
