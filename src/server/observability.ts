// Around every HTTP answer: a request id (the caller's X-Request-Id when safe, else a new one) echoed back, one access
// log line (method, route pattern, status, duration, request id, user id: never the path's or query's values, nor
// headers), the request metrics, and GET /metrics for Prometheus behind METRICS_TOKEN.
import { createHash, timingSafeEqual } from "node:crypto";
import type { Logger } from "./logger.ts";
import type { Metrics } from "./metrics.ts";
import { requestIdFrom, runInRequestScope } from "./request-scope.ts";
import type { RoutePattern } from "./route-pattern.ts";

export type ObservabilityOptions = {
  logger: Logger;
  metrics: Metrics;
  routePattern: RoutePattern;
  /** METRICS_TOKEN: the bearer token /metrics asks for; unset, /metrics is off (404). */
  metricsToken: string | undefined;
};

const digest = (text: string) => createHash("sha256").update(text).digest();

function errorAnswer(status: number, code: string, message: string, extra: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ error: { code, message } }), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "x-content-type-options": "nosniff", ...extra },
  });
}

async function serveMetrics(request: Request, options: ObservabilityOptions): Promise<Response> {
  if (options.metricsToken === undefined) return errorAnswer(404, "NOT_FOUND", "metrics are off: set METRICS_TOKEN to serve them");
  if (request.method !== "GET" && request.method !== "HEAD")
    return errorAnswer(405, "METHOD_NOT_ALLOWED", "use GET", { allow: "GET, HEAD" });
  const given = /^Bearer\s+(.+)$/i.exec(request.headers.get("authorization") ?? "")?.[1]?.trim() ?? "";
  if (!timingSafeEqual(digest(given), digest(options.metricsToken))) {
    return errorAnswer(401, "UNAUTHENTICATED", "metrics need Authorization: Bearer <METRICS_TOKEN>", { "www-authenticate": "Bearer" });
  }
  const { registry } = options.metrics;
  return new Response(request.method === "HEAD" ? null : await registry.metrics(), {
    headers: { "content-type": registry.contentType, "cache-control": "no-store", "x-content-type-options": "nosniff" },
  });
}

/** Wraps the gateway's handler with request ids, access logs, request metrics and /metrics. */
export function withObservability<E>(
  handler: (request: Request, env: E) => Promise<Response>,
  options: ObservabilityOptions,
): (request: Request, env: E) => Promise<Response> {
  const { logger, metrics, routePattern } = options;
  return (request, env) => {
    const started = performance.now();
    const scope: { requestId: string; userId?: number } = { requestId: requestIdFrom(request.headers) };
    const route = routePattern(request.method, new URL(request.url).pathname);
    return runInRequestScope(scope, async () => {
      let answer: Response;
      try {
        answer = route === "/metrics" ? await serveMetrics(request, options) : await handler(request, env);
      } catch (error) {
        if (request.signal.aborted) {
          // The caller went away mid-request (its body cut short): nobody to answer, nothing broken here.
          answer = new Response(null, { status: 499 });
        } else {
          logger.error("unexpected error", { error: error instanceof Error ? error.stack : String(error) });
          answer = errorAnswer(500, "INTERNAL", `internal error (request ${scope.requestId})`);
        }
      }
      const seconds = (performance.now() - started) / 1000;
      metrics.observeRequest(request.method, route, answer.status, seconds);
      logger.info("request", {
        method: request.method,
        route,
        status: answer.status,
        ms: Math.round(seconds * 10_000) / 10,
        requestId: scope.requestId,
        ...(scope.userId !== undefined ? { userId: scope.userId } : {}),
      });
      if (answer.status === 101) return answer; // a WebSocket upgrade (Deno)
      try {
        answer.headers.set("x-request-id", scope.requestId);
        return answer;
      } catch {
        // Immutable headers (a fetched or static Response): copy them.
        const headers = new Headers(answer.headers);
        headers.set("x-request-id", scope.requestId);
        return new Response(answer.body, { status: answer.status, statusText: answer.statusText, headers });
      }
    });
  };
}
