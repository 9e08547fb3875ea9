// Compute settings given to the gateway's configuration (as from .env, not the process environment) reach the health
// workers and every thread the process starts later (those threads read their copy of process.env).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configuredBackend } from "../../src/compute/compute-pool.ts";
import { createTestGateway, type TestGateway } from "../helpers/gateway.ts";

type HealthBody = { checks: Record<string, { ok: boolean; detail: string }> };

describe("compute settings from the configuration", () => {
  let gw: TestGateway;
  beforeAll(async () => {
    for (const name of ["COMPUTE_BACKEND", "COMPUTE_WORKERS", "COMPUTE_THREADS"]) delete process.env[name];
    gw = await createTestGateway("sqlite", { COMPUTE_BACKEND: "cpu", COMPUTE_WORKERS: "3", COMPUTE_THREADS: "2" });
  });
  afterAll(() => gw?.close());

  it("are what this process and its later threads read", () => {
    expect(process.env.COMPUTE_BACKEND).toBe("cpu");
    expect(process.env.COMPUTE_WORKERS).toBe("3");
    expect(process.env.COMPUTE_THREADS).toBe("2");
    expect(configuredBackend()).toBe("cpu");
  });

  it("are what the health routes report", async () => {
    const { body } = await gw.json<HealthBody>("/check-workers");
    const details = Object.values(body.checks)
      .map((c) => c.detail)
      .join(" ");
    expect(details).toContain("compute backend cpu");
  });
});
