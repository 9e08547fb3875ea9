// Compute workers, the OpenCL probe and backend selection: honest readiness, with and without an OpenCL context,
// and a clean fall back to the CPU when the loader is pointed at nothing.
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { openclStatus } from "../../kernels/opencl/index.ts";
import { resolveBackend } from "../../src/compute/backend.ts";
import { probeOpenCl } from "../../src/compute/opencl-probe.ts";
import { createComputeWorkers } from "../../src/compute/workers.ts";

const healthy = () => ({ contextHealthy: true, platforms: [{ name: "P", devices: [{ name: "D", type: "GPU" }] }], error: undefined });

describe("compute workers", () => {
  it("marks the OpenCL worker not ready, with the reason, when no context can be made", () => {
    const workers = createComputeWorkers({
      probe: () => ({ contextHealthy: false, platforms: [], error: "no OpenCL platform found" }),
      setting: "auto",
      resolve: () => ({ backend: "cpu", reason: "COMPUTE_BACKEND=auto: no usable OpenCL (no OpenCL platform found): CPU kernels" }),
    });
    const [cpu, opencl] = workers.status();
    workers.close();
    expect(cpu).toMatchObject({ backend: "cpu", ready: true, selected: true, clContextHealthy: false });
    expect(cpu?.detail).toContain("no usable OpenCL");
    expect(opencl).toMatchObject({
      backend: "opencl",
      ready: false,
      selected: false,
      clContextHealthy: false,
      detail: "no OpenCL platform found",
    });
  });

  it("lists the devices of a healthy context and marks it the one compute uses", () => {
    const workers = createComputeWorkers({
      probe: healthy,
      resolve: () => ({ backend: "opencl", reason: "COMPUTE_BACKEND=auto: OpenCL kernels on P: D (GPU)" }),
    });
    const [cpu, opencl] = workers.status();
    workers.close();
    expect(opencl).toMatchObject({ ready: true, selected: true, clContextHealthy: true, devices: ["P: D (GPU)"] });
    expect(cpu).toMatchObject({ ready: true, selected: false });
  });

  it("says the OpenCL worker is unused under COMPUTE_BACKEND=cpu even with a healthy context", () => {
    const workers = createComputeWorkers({ probe: healthy, setting: "cpu" });
    const [cpu, opencl] = workers.status();
    workers.close();
    expect(cpu).toMatchObject({ ready: true, selected: true, detail: "COMPUTE_BACKEND=cpu: CPU kernels" });
    expect(opencl).toMatchObject({ ready: false, selected: false, clContextHealthy: true, detail: "COMPUTE_BACKEND=cpu: CPU kernels" });
  });

  it("asks the real OpenCL loader (CI installs PoCL and builds the runtime, so a context must exist there)", () => {
    const probe = probeOpenCl();
    expect(typeof probe.contextHealthy).toBe("boolean");
    if (probe.contextHealthy) expect(probe.platforms.some((p) => p.devices.length > 0)).toBe(true);
    else expect(probe.error).toEqual(expect.any(String));
    if (process.env.CI) expect(probe).toMatchObject({ contextHealthy: true });
    // auto runs on OpenCL exactly when the kernels can run there (a context on a device with fp64).
    expect(resolveBackend("auto").backend).toBe(openclStatus().available ? "opencl" : "cpu");
    if (openclStatus().available) expect(probe.contextHealthy).toBe(true);
  });

  it("falls back to the CPU, saying why, when the OpenCL loader is pointed at nothing (OPENCL_LIBRARY=/nonexistent)", () => {
    // A fresh process: the loader is opened once per process.
    const script = `
      import { resolveBackend, createComputeContext } from "./src/compute/backend.ts";
      import { createComputeWorkers } from "./src/compute/workers.ts";
      const workers = createComputeWorkers();
      const status = workers.status();
      workers.close();
      const cpu = (a) => a + 1;
      const ctx = createComputeContext({ backend: resolveBackend("opencl").backend });
      console.log(JSON.stringify({ auto: resolveBackend("auto"), opencl: resolveBackend("opencl"), status, ran: ctx.kernel("pagerank", cpu)(1) }));
    `;
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
      env: { ...process.env, OPENCL_LIBRARY: "/nonexistent", COMPUTE_BACKEND: "opencl" },
      encoding: "utf8",
    });
    const answer = JSON.parse(out);
    expect(answer.auto).toEqual({ backend: "cpu", reason: expect.stringContaining("no OpenCL loader at OPENCL_LIBRARY=/nonexistent") });
    expect(answer.opencl).toEqual({ backend: "cpu", reason: expect.stringContaining("falling back to the CPU kernels") });
    expect(answer.ran).toBe(2);
    const [cpu, opencl] = answer.status;
    expect(cpu).toMatchObject({ backend: "cpu", ready: true, selected: true, detail: expect.stringContaining("falling back to the CPU") });
    expect(opencl).toMatchObject({
      backend: "opencl",
      ready: false,
      selected: false,
      clContextHealthy: false,
      detail: "no OpenCL loader at OPENCL_LIBRARY=/nonexistent",
    });
  });
});

describe("compute context", () => {
  it("runs the CPU twin when the device cannot run a port, and lets other errors through", async () => {
    const { createComputeContext } = await import("../../src/compute/backend.ts");
    const ctx = createComputeContext({ backend: "opencl" });
    const cpu = (a: { n: number }) => a.n * 2;
    // A kernel name no port has: the twin itself.
    expect(ctx.kernel("no-such-kernel", cpu)({ n: 2 })).toBe(4);
    const cpuCtx = createComputeContext({ backend: "cpu" });
    expect(cpuCtx.kernel("pagerank", cpu)).toBe(cpu);
    const { withCpuFallback } = await import("../../src/compute/backend.ts");
    const failing = (code: string) => () => {
      throw Object.assign(new Error(`clX failed: ${code}`), { code });
    };
    expect(withCpuFallback(failing("CL_MEM_OBJECT_ALLOCATION_FAILURE"), cpu)({ n: 3 })).toBe(6);
    expect(withCpuFallback(failing("CL_BUILD_PROGRAM_FAILURE"), cpu)({ n: 3 })).toBe(6);
    expect(() => withCpuFallback(failing("CL_INVALID_KERNEL_ARGS"), cpu)({ n: 3 })).toThrow(/CL_INVALID_KERNEL_ARGS/);
  });

  it("reports progress and throws ComputeCancelled once cancelled", async () => {
    const { createComputeContext } = await import("../../src/compute/backend.ts");
    const { ComputeCancelled } = await import("../../src/compute/types.ts");
    const seen: unknown[] = [];
    let cancelled = false;
    const ctx = createComputeContext({ backend: "cpu", onProgress: (p) => seen.push(p), cancelled: () => cancelled });
    ctx.progress({ phase: "iterate", iteration: 3, fraction: 0.5 });
    ctx.checkCancelled();
    cancelled = true;
    expect(() => ctx.checkCancelled()).toThrow(ComputeCancelled);
    expect(seen).toEqual([{ phase: "iterate", iteration: 3, fraction: 0.5 }]);
  });
});
