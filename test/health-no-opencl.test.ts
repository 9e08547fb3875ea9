// A machine without OpenCL (the loader pointed at nothing): the gateway starts, compute runs on the CPU backend, and
// the health routes say so and why, even with COMPUTE_BACKEND=opencl asked for.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestGateway, type TestGateway } from "./helpers/gateway.ts";

type HealthBody = {
  status: string;
  failing?: string[];
  checks: Record<string, { ok: boolean; detail: string }>;
  workers?: { id: string; backend: string; ready: boolean; clContextHealthy: boolean; detail: string }[];
};

describe("health without OpenCL", () => {
  let gw: TestGateway;
  beforeAll(async () => {
    // This file runs in its own process, and the OpenCL loader is opened on first use: point it at nothing first.
    process.env.OPENCL_LIBRARY = "/nonexistent/libOpenCL.so.1";
    process.env.COMPUTE_BACKEND = "opencl";
    gw = await createTestGateway("sqlite", { COMPUTE_BACKEND: "opencl" });
  });
  afterAll(() => gw?.close());

  it("reports the CPU worker ready and compute on it, the OpenCL worker down with the loader's reason", async () => {
    const { status, body } = await gw.json<HealthBody>("/check-workers");
    expect(status).toBe(200);
    const cpu = body.workers?.find((w) => w.backend === "cpu");
    const opencl = body.workers?.find((w) => w.backend === "opencl");
    expect(cpu).toMatchObject({ ready: true, detail: expect.stringContaining("falling back to the CPU kernels") });
    expect(opencl).toMatchObject({
      ready: false,
      clContextHealthy: false,
      detail: "no OpenCL loader at OPENCL_LIBRARY=/nonexistent/libOpenCL.so.1",
    });
    expect(
      Object.values(body.checks)
        .map((c) => c.detail)
        .join(" "),
    ).toContain("compute backend cpu: COMPUTE_BACKEND=opencl, but OpenCL cannot run here");
  });

  it("answers 503 on the GPU route naming gpuWorker, 200 on the CPU route", async () => {
    const gpu = await gw.json<HealthBody>("/vizsvc-gpu/secondary/gpu/health");
    expect(gpu.status).toBe(503);
    expect(gpu.body.failing).toEqual(["gpuWorker"]);
    expect(gpu.body.checks.gpuWorker?.detail).toContain("no OpenCL loader");
    const cpu = await gw.json<HealthBody>("/vizsvc-gpu/secondary/cpu/health");
    expect(cpu.status).toBe(200);
  });
});
