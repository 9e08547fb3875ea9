// Prometheus metrics (prom-client), one registry per gateway: HTTP requests per route pattern, GraphQL operations,
// uploads (bytes, parse time), work queues (uploads waiting for a parser, GFQL queries, compute jobs) and the
// process's own (memory, CPU, event loop: prom-client's default metrics).
import { type DocumentNode, Kind, type OperationDefinitionNode } from "graphql";
import type { Plugin } from "graphql-yoga";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { UploadObserver } from "./services.ts";

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
const BYTES = [1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10];
/** Distinct GraphQL operation names kept as labels; later ones count as "other" (a client names its own). */
const MAX_OPERATION_NAMES = 200;

/** What the queue gauges read at each scrape. */
export type QueueReaders = {
  parse(): number;
  gfql(): { waiting: number; running: number };
  /** Compute jobs the database holds as QUEUED / RUNNING. */
  computeJobs(): Promise<{ queued: number; running: number }>;
};

export type Metrics = ReturnType<typeof createMetrics>;

export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];

  const requests = new Counter({
    name: "http_requests_total",
    help: "HTTP requests answered, by method, route pattern and status",
    labelNames: ["method", "route", "status"] as const,
    registers,
  });
  const requestSeconds = new Histogram({
    name: "http_request_duration_seconds",
    help: "Time to the answer's headers, by method and route pattern",
    labelNames: ["method", "route"] as const,
    buckets: SECONDS,
    registers,
  });
  const operations = new Counter({
    name: "graphql_operations_total",
    help: "GraphQL operations executed (from /graphql and the REST and /mcp facades), by name, type and outcome",
    labelNames: ["operation", "type", "outcome"] as const,
    registers,
  });
  const operationSeconds = new Histogram({
    name: "graphql_operation_duration_seconds",
    help: "GraphQL execution time, by operation name and type",
    labelNames: ["operation", "type"] as const,
    buckets: SECONDS,
    registers,
  });
  const uploadBytes = new Histogram({
    name: "upload_bytes",
    help: "Size of finished uploads as received, by kind (file, dataset)",
    labelNames: ["kind"] as const,
    buckets: BYTES,
    registers,
  });
  const parseSeconds = new Histogram({
    name: "upload_parse_duration_seconds",
    help: "Parse time of finished uploads, by kind (file, dataset)",
    labelNames: ["kind"] as const,
    buckets: SECONDS,
    registers,
  });

  const names = new Set<string>();
  function operationLabel(name: string | undefined): string {
    if (!name) return "anonymous";
    if (names.has(name)) return name;
    if (names.size >= MAX_OPERATION_NAMES || name.length > 64) return "other";
    names.add(name);
    return name;
  }

  /** Counts every operation the yoga envelop executes. */
  const graphqlPlugin: Plugin = {
    onExecute({ args }) {
      const started = performance.now();
      const definition = (args.document as DocumentNode).definitions.find(
        (d): d is OperationDefinitionNode =>
          d.kind === Kind.OPERATION_DEFINITION && (args.operationName == null || d.name?.value === args.operationName),
      );
      const operation = operationLabel(definition?.name?.value ?? args.operationName ?? undefined);
      const type = definition?.operation ?? "unknown";
      return {
        onExecuteDone({ result }) {
          const failed = "errors" in result && Array.isArray(result.errors) && result.errors.length > 0;
          operations.inc({ operation, type, outcome: failed ? "error" : "ok" });
          operationSeconds.observe({ operation, type }, (performance.now() - started) / 1000);
        },
      };
    },
  };

  const onUpload: UploadObserver = (kind, timings) => {
    if (typeof timings.bytes === "number") uploadBytes.observe({ kind }, timings.bytes);
    if (typeof timings.parseMs === "number") parseSeconds.observe({ kind }, timings.parseMs / 1000);
  };

  /** The queue gauges, read at each scrape. */
  function watchQueues(queues: QueueReaders): void {
    new Gauge({
      name: "upload_parse_queue_size",
      help: "Uploads waiting for a parser process",
      registers,
      collect() {
        this.set(queues.parse());
      },
    });
    new Gauge({
      name: "gfql_queries",
      help: "GFQL queries waiting for a worker thread (waiting) or handed to one (running)",
      labelNames: ["state"] as const,
      registers,
      collect() {
        const { waiting, running } = queues.gfql();
        this.set({ state: "waiting" }, waiting);
        this.set({ state: "running" }, running);
      },
    });
    new Gauge({
      name: "compute_jobs",
      help: "Compute jobs the database holds as queued or running (all instances)",
      labelNames: ["state"] as const,
      registers,
      async collect() {
        const { queued, running } = await queues.computeJobs();
        this.set({ state: "queued" }, queued);
        this.set({ state: "running" }, running);
      },
    });
  }

  function observeRequest(given: string, route: string, status: number, seconds: number): void {
    const method = METHODS.has(given) ? given : "other";
    requests.inc({ method, route, status: String(status) });
    requestSeconds.observe({ method, route }, seconds);
  }

  return { registry, graphqlPlugin, onUpload, watchQueues, observeRequest };
}
