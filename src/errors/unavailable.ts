// Database-unavailable failures (Postgres down, connections cut, pool exhausted) as the one UNAVAILABLE AppError (503).
import { AppError } from "./app-error.ts";

/** Seconds a caller is told to wait before retrying (Retry-After). */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** Prisma's codes for "cannot reach / lost / timed out waiting for the database" (P1001, P1002, P1008, P1017, P2024, P2037). */
const PRISMA_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024", "P2037"]);
/** The pg driver adapter's error kinds for the same (@prisma/adapter-pg convertDriverError). */
const ADAPTER_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections"]);
/** Socket errors of a connection to the database. */
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENETUNREACH"]);
/**
 * Postgres SQLSTATEs: class 08 (connection exception), 57P01-57P03 (admin shutdown, crash shutdown, cannot connect
 * now), 53300 (too many connections).
 */
const SQLSTATE = /^(08[0-9A-Z]{3}|57P0[123]|53300)$/;
/** Messages of node-postgres (pg, pg-pool) when a connection dies or cannot be had; they carry no code. */
const PG_MESSAGES =
  /^(Connection terminated|Connection ended unexpectedly|Client has encountered a connection error|timeout exceeded when trying to connect|terminating connection due to|the database system is (starting up|shutting down|in recovery mode))/;

type Loose = {
  name?: unknown;
  code?: unknown;
  errorCode?: unknown;
  kind?: unknown;
  originalCode?: unknown;
  message?: unknown;
  cause?: unknown;
  originalError?: unknown;
  meta?: { driverAdapterError?: unknown };
};

function says(value: Loose): boolean {
  if (typeof value.code === "string" && (PRISMA_CODES.has(value.code) || SOCKET_CODES.has(value.code) || SQLSTATE.test(value.code)))
    return true;
  if (typeof value.errorCode === "string" && PRISMA_CODES.has(value.errorCode)) return true;
  if (typeof value.kind === "string" && ADAPTER_KINDS.has(value.kind)) return true;
  if (value.kind === "postgres" && typeof value.code === "string" && SQLSTATE.test(value.code)) return true;
  if (typeof value.originalCode === "string" && SQLSTATE.test(value.originalCode)) return true;
  return typeof value.message === "string" && PG_MESSAGES.test(value.message);
}

/** Whether an error (or one it wraps: cause, originalError, Prisma's driverAdapterError) says the database is unreachable. */
export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length > 0 && seen.size < 16) {
    const current = queue.shift();
    if (current === null || typeof current !== "object" || seen.has(current)) continue;
    seen.add(current);
    const loose = current as Loose;
    if (loose instanceof AppError) return false;
    if (says(loose)) return true;
    queue.push(loose.cause, loose.originalError, loose.meta?.driverAdapterError);
  }
  return false;
}

/** The UNAVAILABLE error a database outage is answered with (503, Retry-After), or undefined for any other error. */
export function asDatabaseUnavailable(error: unknown): AppError | undefined {
  if (!isDatabaseUnavailable(error)) return undefined;
  return new AppError("UNAVAILABLE", "the database is unavailable; retry shortly", {
    details: { component: "database", retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS },
    cause: error,
  });
}
