// Which errors count as "the database is unavailable" (503) and which stay what they are: the shapes Prisma 7, its pg
// and libsql adapters, and node-postgres produce.
import { describe, expect, it } from "vitest";
import { AppError } from "../../src/errors/app-error.ts";
import { asDatabaseUnavailable, isDatabaseUnavailable } from "../../src/errors/unavailable.ts";

const prisma = (code: string, meta: Record<string, unknown> = {}) =>
  Object.assign(new Error("Invalid `prisma.file.findFirst()` invocation"), { name: "PrismaClientKnownRequestError", code, meta });
const adapter = (cause: Record<string, unknown>) => Object.assign(new Error(String(cause.kind)), { name: "DriverAdapterError", cause });

describe("database-unavailable errors", () => {
  it.each([
    ["P1001 cannot reach the server", prisma("P1001")],
    ["P1017 server closed the connection", prisma("P1017")],
    ["P2024 timed out fetching a connection from the pool", prisma("P2024")],
    ["P2010 raw query over an unreachable server", prisma("P2010", { driverAdapterError: adapter({ kind: "DatabaseNotReachable" }) })],
    ["an adapter's ConnectionClosed", adapter({ kind: "ConnectionClosed" })],
    ["libsql's SQLITE_BUSY (SocketTimeout)", adapter({ kind: "SocketTimeout" })],
    ["57P01 admin shutdown", prisma("P2010", { driverAdapterError: adapter({ kind: "postgres", code: "57P01" }) })],
    ["57P03 cannot connect now", adapter({ kind: "postgres", code: "57P03" })],
    ["08006 connection failure", adapter({ kind: "postgres", code: "08006" })],
    ["53300 too many connections", adapter({ kind: "TooManyConnections" })],
    ["node-postgres: Connection terminated unexpectedly", new Error("Connection terminated unexpectedly")],
    ["pg-pool: timeout exceeded when trying to connect", new Error("timeout exceeded when trying to connect")],
    ["a socket ECONNREFUSED", Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" })],
    ["wrapped as a cause", new Error("outer", { cause: new Error("Connection terminated unexpectedly") })],
    ["wrapped in a GraphQL error", Object.assign(new Error("x"), { name: "GraphQLError", originalError: prisma("P1001") })],
  ])("%s is UNAVAILABLE with a Retry-After", (_label, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
    const mapped = asDatabaseUnavailable(error);
    expect(mapped?.code).toBe("UNAVAILABLE");
    expect(mapped?.status).toBe(503);
    expect(mapped?.details?.retryAfterSeconds).toBeGreaterThan(0);
  });

  it.each([
    ["a unique violation (P2002)", prisma("P2002")],
    ["a missing record (P2025)", prisma("P2025")],
    ["a Postgres syntax error", adapter({ kind: "postgres", code: "42601" })],
    ["an AppError", new AppError("NOT_FOUND", "no file")],
    ["a plain bug", new TypeError("cannot read properties of undefined")],
    ["not an error", "Connection terminated"],
    ["null", null],
  ])("%s is not", (_label, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
    expect(asDatabaseUnavailable(error)).toBeUndefined();
  });

  it("a cycle of causes ends", () => {
    const a = new Error("a");
    const b = new Error("b", { cause: a });
    Object.assign(a, { cause: b });
    expect(isDatabaseUnavailable(a)).toBe(false);
  });
});
