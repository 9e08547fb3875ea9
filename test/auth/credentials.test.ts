// Authorization header parsing and the login throttle, as pure units.
import { describe, expect, it } from "vitest";
import { parseAuthorization } from "../../src/auth/credentials.ts";
import { createLoginThrottle } from "../../src/auth/login-throttle.ts";
import { AppError } from "../../src/errors/app-error.ts";

describe("parseAuthorization", () => {
  it("reads JWTs and personal keys in every form clients send", () => {
    expect(parseAuthorization("Bearer aaa.bbb.ccc")).toEqual({ ok: true, value: { kind: "jwt", token: "aaa.bbb.ccc" } });
    expect(parseAuthorization("PersonalKey ID:SECRET")).toEqual({ ok: true, value: { kind: "key", keyId: "ID", secret: "SECRET" } });
    expect(parseAuthorization("Bearer ID:SECRET")).toEqual({ ok: true, value: { kind: "key", keyId: "ID", secret: "SECRET" } });
    expect(parseAuthorization(undefined)).toEqual({ ok: true, value: undefined });
  });

  it("refuses malformed headers as UNAUTHENTICATED", () => {
    for (const header of ["Basic dXNlcjpwYXNz", "Bearer", "PersonalKey nocolon", "Bearer a b", "PersonalKey :secret"]) {
      expect(parseAuthorization(header)).toMatchObject({ ok: false, code: "UNAUTHENTICATED" });
    }
  });
});

describe("login throttle", () => {
  it("lets free attempts through, then delays with growing waits, then blocks until the window ends", () => {
    let now = 0;
    const throttle = createLoginThrottle({ freeAttempts: 2, windowSeconds: 60, maxDelayMs: 1000, blockAfter: 5 }, () => now);
    const delays: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      delays.push(throttle.delayFor("a"));
      throttle.recordFailure("a");
    }
    expect(delays).toEqual([0, 0, 250, 500, 1000]);
    expect(() => throttle.delayFor("a")).toThrow(AppError);
    expect(throttle.delayFor("b")).toBe(0);
    now = 61_000;
    expect(throttle.delayFor("a")).toBe(0);
  });

  it("forgets an address after a successful login", () => {
    const throttle = createLoginThrottle({ freeAttempts: 0, windowSeconds: 60, maxDelayMs: 1000, blockAfter: 5 });
    throttle.recordFailure("a");
    expect(throttle.delayFor("a")).toBeGreaterThan(0);
    throttle.recordSuccess("a");
    expect(throttle.delayFor("a")).toBe(0);
  });
});
