// Each HTTP request's id and, once its credential is read, its user: kept along the request's async work, so the
// access log line and every log line written while serving the request can name them.
import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";

export type RequestScope = { requestId: string; userId?: number };

const storage = new AsyncLocalStorage<RequestScope>();

/** Runs `work` with `scope` as the current request's. */
export function runInRequestScope<T>(scope: RequestScope, work: () => T): T {
  return storage.run(scope, work);
}

/** The request being served, if any (none outside a request: start-up, timers, WebSocket messages). */
export function currentRequestScope(): RequestScope | undefined {
  return storage.getStore();
}

/** Records who the current request acts for (the first credential read wins). */
export function noteRequestUser(userId: number | undefined): void {
  const scope = storage.getStore();
  if (scope !== undefined && scope.userId === undefined && userId !== undefined) scope.userId = userId;
}

/** A caller's id may be 1 to 128 of these: letters, digits and `._:-` (anything else could forge log lines). */
const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The request's `X-Request-Id` when it is safe to log and echo; otherwise a fresh UUID. */
export function requestIdFrom(headers: Headers): string {
  const given = headers.get("x-request-id")?.trim();
  return given !== undefined && SAFE_ID.test(given) ? given : randomUUID();
}
