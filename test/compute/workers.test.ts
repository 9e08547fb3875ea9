// Compute workers and the OpenCL probe: honest readiness, with and without an OpenCL context.
import { describe, expect, it } from "vitest";
import { probeOpenCl } from "../../src/compute/opencl-probe.ts";
import { createComputeWorkers } from "../../src/compute/workers.ts";

describe("compute workers", () => {
  it("marks the OpenCL worker not ready, with the reason, when no context can be made", () => {
    const workers = createComputeWorkers({ probe: () => ({ contextHealthy: false, platforms: [], error: "no OpenCL platform found" }) });
    const [cpu, opencl] = workers.status();
    workers.close();
    expect(cpu).toMatchObject({ backend: "cpu", ready: true, clContextHealthy: false });
    expect(opencl).toMatchObject({ backend: "opencl", ready: false, clContextHealthy: false, detail: "no OpenCL platform found" });
  });

  it("lists the devices of a healthy context", () => {
    const workers = createComputeWorkers({
      probe: () => ({ contextHealthy: true, platforms: [{ name: "P", devices: [{ name: "D", type: "GPU" }] }], error: undefined }),
    });
    const opencl = workers.status()[1];
    workers.close();
    expect(opencl).toMatchObject({ ready: true, clContextHealthy: true, devices: ["P: D (GPU)"] });
  });

  it("asks the real OpenCL loader (CI installs PoCL and builds the probe, so a context must exist there)", () => {
    const probe = probeOpenCl();
    expect(typeof probe.contextHealthy).toBe("boolean");
    if (probe.contextHealthy) expect(probe.platforms.some((p) => p.devices.length > 0)).toBe(true);
    else expect(probe.error).toEqual(expect.any(String));
    if (process.env.CI) expect(probe).toMatchObject({ contextHealthy: true });
  });
});
