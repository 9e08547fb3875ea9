// ForceAtlas2's OpenCL port against its CPU twin (kernel "force-atlas2"): the same steps within float tolerance
// while the trajectories are still close (fp32 on the device, fp64 on the CPU: ForceAtlas2's adaptive speed
// amplifies rounding after some dozens of steps), the same quality after a full run, and the layout through the
// opencl backend's context. Skipped where no OpenCL device with fp64 exists (CI requires one).
import { describe, expect, it } from "vitest";
import { computeGraph } from "../../kernels/cpu/csr.ts";
import { forceAtlas2Cpu } from "../../kernels/cpu/force-atlas2.ts";
import { forceAtlas2OpenClWith } from "../../kernels/opencl/force-atlas2.ts";
import { openclKernel } from "../../kernels/opencl/index.ts";
import { checkParams } from "../../src/compute/params.ts";
import { type ComputeContext, cpuContext } from "../../src/compute/types.ts";
import { fa2Setup } from "../../src/layout/algorithms/force-atlas2/force-atlas2.ts";
import { findLayout } from "../../src/layout/registry.ts";
import { allFinite, layoutStress, randomGraph } from "../helpers/layout-quality.ts";
import { backends, kernelOn } from "../kernels/backends.ts";

const entry = findLayout("cugraph", "force_atlas2");
if (!entry) throw new Error("cugraph force_atlas2 is not registered");
const fa2 = entry;

const openclContext: ComputeContext = {
  ...cpuContext,
  backend: "opencl",
  kernel: <A, R>(name: string, cpu: (args: A) => R) => (openclKernel(name) as ((args: A) => R) | undefined) ?? cpu,
};

describe.skipIf(!backends.includes("opencl"))("cugraph force_atlas2 on OpenCL", () => {
  const n = 300;
  const edges = randomGraph(n, 900, 7);
  const weights = edges.map((_, e) => 1 + (e % 3));
  const cases: [string, Record<string, unknown>, number[] | undefined][] = [
    ["defaults", {}, undefined],
    ["LinLog, weighted", { lin_log_mode: true }, weights],
    ["prevent_overlapping", { prevent_overlapping: true }, undefined],
    ["strong gravity, no outbound distribution", { strong_gravity_mode: true, outbound_attraction_distribution: false }, undefined],
    ["exact repulsion", { barnes_hut_optimize: false, edge_weight_influence: 0.5 }, weights],
  ];

  it("is kernel force-atlas2 of the opencl backend", () => {
    expect(kernelOn("opencl", "force-atlas2", forceAtlas2Cpu)).toBe(openclKernel("force-atlas2"));
  });

  // Both repulsion variants: a work-item per body (GPUs) and a work-item per body group (CPU devices).
  for (const [label, params, weight] of cases)
    for (const perBody of [false, true]) {
      it(`steps as the CPU twin does (${label}; ${perBody ? "a work-item per body" : "a work-item per group"})`, () => {
        const g = computeGraph(n, edges, { directed: false, weight: weight ?? null });
        const setup = fa2Setup(g, checkParams(fa2, params, "p"));
        const cpu = forceAtlas2Cpu(setup);
        const device = forceAtlas2OpenClWith(setup, perBody);
        try {
          for (let step = 1; step <= 5; step++) {
            cpu.step();
            device.step();
            const a = cpu.positions();
            const b = device.positions();
            let extent = 0;
            let worst = 0;
            for (let i = 0; i < a.length; i++) {
              extent = Math.max(extent, Math.abs(a[i] as number));
              worst = Math.max(worst, Math.abs((a[i] as number) - (b[i] as number)));
            }
            expect(worst / extent).toBeLessThan(1e-3);
            expect(device.stats().speed).toBeCloseTo(cpu.stats().speed, 2);
          }
        } finally {
          device.dispose();
        }
      });
    }

  it("gives the same quality as the CPU twin through the opencl backend, deterministically", () => {
    const g = computeGraph(n, edges, { directed: false });
    const params = checkParams(fa2, {}, "p");
    const onDevice = fa2.place(g, params, openclContext);
    const again = fa2.place(g, params, openclContext);
    const onCpu = fa2.place(g, params, cpuContext);
    expect(allFinite(onDevice)).toBe(true);
    expect(Array.from(again)).toEqual(Array.from(onDevice));
    const device = layoutStress(n, edges, onDevice);
    const cpu = layoutStress(n, edges, onCpu);
    expect(Math.abs(device - cpu) / cpu).toBeLessThan(0.05);
  });

  it("takes live parameter changes on the device", () => {
    const g = computeGraph(n, edges, { directed: false });
    const params = checkParams(fa2, {}, "p");
    const a = fa2.start?.(g, params, openclContext);
    const b = fa2.start?.(g, params, openclContext);
    if (!a || !b) throw new Error("no start");
    try {
      for (let i = 0; i < 30; i++) {
        a.step();
        b.step();
      }
      b.setParams?.({ strong_gravity_mode: true, gravity: 5 });
      for (let i = 0; i < 100; i++) {
        a.step();
        b.step();
      }
      const extent = (p: Float32Array) => p.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
      expect(extent(b.positions())).toBeLessThan(0.5 * extent(a.positions()));
    } finally {
      a.dispose?.();
      b.dispose?.();
    }
  });
});
