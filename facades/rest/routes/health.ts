// Health routes (spec 4.7): one GraphQL health query per component, 200 or 503.
import { HEALTH } from "../operations.ts";
import type { RestRoute, Shaped } from "../route-types.ts";

const COMPONENT_PATHS: [string, string][] = [
  ["/health/", "EXTERNAL_PROXY"],
  ["/healthz", "PROXY"],
  ["/ht/", "CONTENT"],
  ["/vizsvc-gpu/primary/health", "VIZ_PRIMARY"],
  ["/vizsvc-gpu/secondary/cpu/health", "VIZ_CPU"],
  ["/vizsvc-gpu/secondary/gpu/health", "VIZ_GPU"],
  ["/check-workers", "WORKERS"],
  ["/vizsvc-viz/health", "VIZ_WEB"],
  ["/pivot/health", "PIVOT"],
  ["/vizsvc-sessions/health", "SESSIONS"],
];

type HealthData = {
  component: string;
  healthy: boolean;
  checks: { name: string; healthy: boolean; detail: string; latencyMs: number }[];
  workers: { id: string; backend: string; ready: boolean; clContextHealthy: boolean; detail: string; devices: string[] }[] | null;
};

/** 200 when every check passes, else 503 naming the failing parts. */
function healthBody(data: HealthData): Shaped {
  const failing = data.checks.filter((c) => !c.healthy).map((c) => c.name);
  return {
    status: data.healthy ? 200 : 503,
    headers: { "cache-control": "no-store" },
    body: {
      status: data.healthy ? "ok" : "unhealthy",
      component: data.component.toLowerCase(),
      failing,
      checks: Object.fromEntries(data.checks.map((c) => [c.name, { ok: c.healthy, detail: c.detail, latency_ms: c.latencyMs }])),
      ...(data.workers ? { workers: data.workers.map((w) => ({ ...w, devices: w.devices })) } : {}),
    },
  };
}

export const HEALTH_ROUTES: readonly RestRoute[] = COMPONENT_PATHS.map(
  ([path, component]): RestRoute => ({
    path,
    methods: ["GET"],
    document: HEALTH,
    variables: () => ({ component }),
    shape: (data) => healthBody(data.health),
  }),
);
