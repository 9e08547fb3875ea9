// Health reports of the components the spec's health routes name.

import type { WorkerStatus } from "../../src/compute/workers.ts";
import { HEALTH_COMPONENTS, type HealthCheck, type HealthReport } from "../../src/health/health-service.ts";
import { builder } from "../builder.ts";

const HealthComponentEnum = builder.enumType("HealthComponent", { values: HEALTH_COMPONENTS });

const HealthCheckRef = builder.objectRef<HealthCheck>("HealthCheck").implement({
  fields: (t) => ({
    name: t.exposeString("name"),
    healthy: t.exposeBoolean("healthy"),
    detail: t.exposeString("detail"),
    latencyMs: t.exposeFloat("latencyMs"),
  }),
});

const ComputeWorker = builder.objectRef<WorkerStatus>("ComputeWorker").implement({
  fields: (t) => ({
    id: t.exposeString("id"),
    backend: t.exposeString("backend"),
    ready: t.exposeBoolean("ready"),
    clContextHealthy: t.exposeBoolean("clContextHealthy"),
    detail: t.exposeString("detail"),
    devices: t.exposeStringList("devices"),
  }),
});

const HealthReportRef = builder.objectRef<HealthReport>("HealthReport").implement({
  fields: (t) => ({
    component: t.field({ type: HealthComponentEnum, resolve: (r) => r.component }),
    healthy: t.exposeBoolean("healthy"),
    checks: t.field({ type: [HealthCheckRef], resolve: (r) => r.checks }),
    workers: t.field({ type: [ComputeWorker], nullable: true, resolve: (r) => r.workers ?? null }),
  }),
});

builder.queryFields((t) => ({
  health: t.field({
    type: HealthReportRef,
    description: "Runs the real checks behind one health route; needs no credentials.",
    args: { component: t.arg({ type: HealthComponentEnum, required: true }) },
    resolve: (_root, args, ctx) => ctx.services.health.check(args.component),
  }),
}));
