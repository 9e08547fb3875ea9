// Kernel "components" on each backend: labels are each weak component's smallest row, as a naive relaxation finds.
import { describe, expect, it } from "vitest";
import { components } from "../../kernels/cpu/components.ts";
import { buildCsr } from "../../kernels/cpu/csr.ts";
import { backends, kernelOn } from "./backends.ts";
import { skewedGraph } from "./graphs.ts";
import { naiveComponents } from "./naive.ts";

describe.each(backends)("kernel components on %s", (backend) => {
  const run = kernelOn(backend, "components", components);

  it("labels a long path joined from its far end, and leaves isolated nodes alone", () => {
    // A path 9 - 8 - ... - 1 listed far end first (slow for pure label propagation), node 0 isolated.
    const src = Int32Array.from({ length: 8 }, (_, i) => 9 - i);
    const dst = Int32Array.from({ length: 8 }, (_, i) => 8 - i);
    expect(Array.from(run({ n: 11, src, dst }))).toEqual([0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 10]);
  });

  for (const [seed, n, m] of [
    [41, 5000, 3000],
    [42, 20000, 19000],
    [43, 1000, 5000],
  ] as const) {
    it(`matches the naive labels (seed ${seed}, ${n} nodes, ${m} edges)`, () => {
      const csr = skewedGraph(seed, n, m);
      expect(Array.from(run({ n, src: csr.src, dst: csr.dst }))).toEqual(naiveComponents(csr));
    });
  }

  it("joins components through many parallel hooks (random pairs over few nodes)", () => {
    const src = Int32Array.from({ length: 4000 }, (_, i) => (i * 7919) % 3001);
    const dst = Int32Array.from({ length: 4000 }, (_, i) => (i * 104729 + 13) % 3001);
    const csr = buildCsr(3001, src, dst);
    expect(Array.from(run({ n: 3001, src, dst }))).toEqual(naiveComponents(csr));
  });

  it("agrees with the CPU twin on a larger graph (many concurrent links)", () => {
    const csr = skewedGraph(44, 200000, 150000);
    const args = { n: 200000, src: csr.src, dst: csr.dst };
    expect(run(args)).toEqual(components(args));
  });
});
