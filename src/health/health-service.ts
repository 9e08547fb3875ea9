// Health of each component the spec names, from real checks: database, Redis, static files, compute.
import { access } from "node:fs/promises";
import type { ComputeWorkers, WorkerStatus } from "../compute/workers.ts";
import type { Db } from "../store/prisma.ts";
import type { RedisClients } from "../store/redis.ts";

export const HEALTH_COMPONENTS = [
  "EXTERNAL_PROXY",
  "PROXY",
  "CONTENT",
  "VIZ_PRIMARY",
  "VIZ_CPU",
  "VIZ_GPU",
  "WORKERS",
  "VIZ_WEB",
  "PIVOT",
  "SESSIONS",
] as const;
export type HealthComponent = (typeof HEALTH_COMPONENTS)[number];

export type HealthCheck = { name: string; healthy: boolean; detail: string; latencyMs: number };
export type HealthReport = { component: HealthComponent; healthy: boolean; checks: HealthCheck[]; workers: WorkerStatus[] | undefined };

type CheckName = "database" | "redis" | "static" | "cpuWorker" | "gpuWorker" | "anyWorker";

const PLAN: Record<HealthComponent, readonly CheckName[]> = {
  EXTERNAL_PROXY: ["database", "static"],
  PROXY: ["static", "database"],
  CONTENT: ["database"],
  VIZ_PRIMARY: ["database", "redis", "anyWorker"],
  VIZ_CPU: ["cpuWorker"],
  VIZ_GPU: ["gpuWorker"],
  WORKERS: ["anyWorker"],
  VIZ_WEB: ["static"],
  PIVOT: ["database"],
  SESSIONS: ["database", "redis"],
};

export type HealthService = ReturnType<typeof createHealthService>;

export function createHealthService(deps: { db: Db; redis: RedisClients | undefined; workers: ComputeWorkers; staticIndex: string }) {
  async function timed(name: string, run: () => Promise<string>): Promise<HealthCheck> {
    const start = performance.now();
    try {
      const detail = await run();
      return { name, healthy: true, detail, latencyMs: round(performance.now() - start) };
    } catch (error) {
      return {
        name,
        healthy: false,
        detail: error instanceof Error ? error.message : String(error),
        latencyMs: round(performance.now() - start),
      };
    }
  }

  function workerCheck(name: string, workers: WorkerStatus[], pick: (w: WorkerStatus) => boolean): HealthCheck {
    const ready = workers.filter((w) => pick(w) && w.ready);
    const candidates = workers.filter(pick);
    // Which backend compute runs on, and why (COMPUTE_BACKEND, and what the OpenCL probe found).
    const backend = deps.workers.backend();
    const uses = `compute backend ${backend.backend}: ${backend.reason}`;
    return {
      name,
      healthy: ready.length > 0,
      detail:
        ready.length > 0
          ? `${ready.length} worker(s) ready; ${uses}`
          : `${candidates.map((w) => `${w.id}: ${w.detail}`).join("; ")}; ${uses}`,
      latencyMs: 0,
    };
  }

  const checks: Record<CheckName, (workers: WorkerStatus[]) => Promise<HealthCheck>> = {
    database: () =>
      timed("database", async () => {
        await deps.db.$queryRawUnsafe("SELECT 1");
        return "round trip ok";
      }),
    redis: () =>
      timed("redis", async () => {
        if (!deps.redis) return "not configured (in-process pub/sub)";
        await deps.redis.ping(2_000);
        return "PONG";
      }),
    static: () =>
      timed("static", async () => {
        await access(deps.staticIndex);
        return "web assets present";
      }),
    cpuWorker: async (workers) => workerCheck("cpuWorker", workers, (w) => w.backend === "cpu"),
    gpuWorker: async (workers) => workerCheck("gpuWorker", workers, (w) => w.backend === "opencl"),
    anyWorker: async (workers) => workerCheck("anyWorker", workers, () => true),
  };

  async function check(component: HealthComponent): Promise<HealthReport> {
    const plan = PLAN[component];
    const needsWorkers = plan.some((name) => name.endsWith("Worker"));
    const workers = needsWorkers ? deps.workers.status() : [];
    const results = await Promise.all(plan.map((name) => checks[name](workers)));
    return {
      component,
      healthy: results.every((r) => r.healthy),
      checks: results,
      workers: needsWorkers ? workers : undefined,
    };
  }

  return { check };
}

function round(ms: number): number {
  return Math.round(ms * 100) / 100;
}
