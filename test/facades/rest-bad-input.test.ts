// Bad input on the REST and page routes answers a 4xx naming the problem (issue 18): multipart headers on a JSON
// body, undecodable paths, expired tokens on graph.html, bodies nested too deep, and authentication before body rules.
import { randomBytes } from "node:crypto";
import { decodeJwt, decodeProtectedHeader, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestGateway, type TestGateway } from "../helpers/gateway.ts";

const JWT_SECRET = randomBytes(32).toString("base64url");
let t: TestGateway;
let admin: string;

beforeAll(async () => {
  t = await createTestGateway("sqlite", { JWT_SECRET });
  admin = await t.login();
});
afterAll(async () => t?.close());

/** The admin's token as the server signs it, but expired an hour ago. */
async function expiredToken(): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ ...decodeJwt(admin), iat: now - 7200, exp: now - 3600 })
    .setProtectedHeader(decodeProtectedHeader(admin) as { alg: string })
    .sign(new TextEncoder().encode(JWT_SECRET));
}

describe("JSON routes sent other content types", () => {
  it("multipart/form-data with a JSON body is a 400, with or without a boundary", async () => {
    for (const type of ["multipart/form-data; boundary=xyz", "multipart/form-data", "multipart/form-data; boundary="]) {
      const { status, body } = await t.json<{ error: { code: string } }>("/api/v2/files/", {
        method: "POST",
        headers: { "content-type": type, authorization: `Bearer ${admin}` },
        body: JSON.stringify({ file_type: "csv" }),
      });
      expect(status, type).toBe(400);
      expect(body.error.code).toBe("INVALID_INPUT");
    }
    const login = await t.json("/api-token-auth/", {
      method: "POST",
      headers: { "content-type": "multipart/form-data; boundary=b" },
      body: "{}",
    });
    expect(login.status).toBe(400);
  });

  it("a body nested 20,000 deep is a 400 naming the limit", async () => {
    const deep = `{"file_type":"csv","name":${"[".repeat(20_000)}1${"]".repeat(20_000)}}`;
    const { status, body } = await t.json<{ error: { code: string; details: { limit: number } } }>("/api/v2/files/", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${admin}` },
      body: deep,
    });
    expect(status).toBe(400);
    expect(body.error.code).toBe("INVALID_INPUT");
    expect(body.error.details.limit).toBeGreaterThan(0);
  });
});

describe("paths", () => {
  it("a page path that is not UTF-8 once decoded is a 404, not a crash", async () => {
    for (const path of ["/graph/%ff%fe", "/graph/assets/%c0%af", "/graphiql/%e0%80", "/favicon.svg%ff", "/%ff"]) {
      const response = await t.request(path);
      expect(response.status, path).toBeGreaterThanOrEqual(400);
      expect(response.status, path).toBeLessThan(500);
    }
  });
});

describe("graph.html", () => {
  it("with an expired (correctly signed) token sends the browser to sign in", async () => {
    const expired = await expiredToken();
    const check = await t.graphql("{ caller { id } }", {}, expired);
    expect(check.body.errors?.[0]?.extensions?.code).toBe("TOKEN_EXPIRED");
    const response = await t.request("/graph/graph.html?dataset=abc", {
      headers: { authorization: `Bearer ${expired}` },
      redirect: "manual",
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toMatch(/^\/login\?next=/);
  });
});

describe("authentication before body rules", () => {
  it("anonymous and expired callers get a 401, not the body's validation details", async () => {
    const expired = await expiredToken();
    const callers: Record<string, string>[] = [{}, { authorization: `Bearer ${expired}` }, { authorization: "Bearer junk" }];
    for (const headers of callers) {
      const { status, body } = await t.json<{ error: { code: string; details?: unknown } }>("/api/v2/files/", {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify({ file_type: 42, unknown: true }),
      });
      expect(status).toBe(401);
      expect(JSON.stringify(body)).not.toMatch(/file_type/);
    }
    const broken = await t.json("/api/v2/upload/datasets/", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{not json",
    });
    expect(broken.status).toBe(401);
  });

  it("a signed-in caller gets the validation details; login routes give them to everyone", async () => {
    const mine = await t.json<{ error: { code: string } }>("/api/v2/files/", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${admin}` },
      body: JSON.stringify({ file_type: 42 }),
    });
    expect(mine.status).toBe(400);
    expect(mine.body.error.code).toBe("INVALID_INPUT");
    const login = await t.json<{ error: { code: string } }>("/api-token-auth/", { method: "POST", json: { username: 5 } });
    expect(login.status).toBe(400);
  });
});
