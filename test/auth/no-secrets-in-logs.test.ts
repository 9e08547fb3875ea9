// Nothing logs a password, a token or a key secret, even at debug level and on failures.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/config.ts";
import { createGateway, type Gateway } from "../../src/server/gateway.ts";
import { createLogger } from "../../src/server/logger.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";

describe("logs", () => {
  const lines: string[] = [];
  let db: TestDatabase;
  let gateway: Gateway;
  const call = (path: string, init: RequestInit) => gateway.fetch(new Request(`http://t${path}`, init), { clientAddress: "127.0.0.1" });
  const json = (body: unknown, headers: Record<string, string> = {}) => ({
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

  beforeAll(async () => {
    db = await createTestDatabase("sqlite");
    const config = loadConfig({ ...db.env, ADMIN_USERNAME: "root", ADMIN_PASSWORD: "very-secret-password", LOG_LEVEL: "debug" });
    gateway = await createGateway(config, { logger: createLogger("debug", (line) => lines.push(line)) });
  });
  afterAll(async () => {
    await gateway?.close();
    await db?.drop();
  });

  it("never contain passwords, tokens or key secrets", async () => {
    const login = await call("/api-token-auth/", json({ username: "root", password: "very-secret-password" }));
    const { token } = (await login.json()) as { token: string };
    await call("/api-token-auth/", json({ username: "root", password: "wrong-secret-password" }));
    const key = await call(
      "/graphql",
      json({ query: "mutation { createPersonalKey { secret credential } }" }, { authorization: `Bearer ${token}` }),
    );
    const { secret, credential } = ((await key.json()) as { data: { createPersonalKey: { secret: string; credential: string } } }).data
      .createPersonalKey;
    await call("/api/v2/auth/pkey/jwt/", { method: "POST", headers: { authorization: `PersonalKey ${credential}` } });
    await call("/api/v2/auth/pkey/jwt/", { method: "POST", headers: { authorization: `PersonalKey ${credential}x` } });
    await call("/api-token-refresh/", json({ token }));
    await call("/api-token-verify/", json({ token: `${token}x` }));
    const all = lines.join("\n");
    expect(lines.length).toBeGreaterThan(0);
    for (const secretValue of ["very-secret-password", "wrong-secret-password", token, secret, token.split(".")[2] ?? token]) {
      expect(all).not.toContain(secretValue);
    }
  });
});
