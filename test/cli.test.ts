// The operator command line: users and keys, with the key's last printed line usable as a credential.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { main } from "../src/cli/main.ts";
import { loadConfig } from "../src/config/config.ts";
import { createTestDatabase, type TestDatabase } from "./helpers/databases.ts";
import { createTestGateway, type TestGateway } from "./helpers/gateway.ts";

async function capture(argv: string[], env: Record<string, string>): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const log = vi.spyOn(console, "log").mockImplementation((line: unknown) => void out.push(String(line)));
  const error = vi.spyOn(console, "error").mockImplementation((line: unknown) => void err.push(String(line)));
  try {
    const code = await main(argv, loadConfig({ ...env, LOG_LEVEL: "silent" }));
    return { code, out, err };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}

describe("cli", () => {
  let db: TestDatabase;
  let gw: TestGateway;

  beforeAll(async () => {
    db = await createTestDatabase("sqlite");
  });
  afterAll(async () => {
    await gw?.close();
    await db?.drop();
  });

  it("creates and lists users", async () => {
    const created = await capture(
      ["user", "create", "--username", "ops", "--password", "ops-password", "--email", "ops@example.com", "--admin", "--org", "acme"],
      db.env,
    );
    expect(created.code).toBe(0);
    const listed = await capture(["user", "list"], db.env);
    expect(listed.out.join("\n")).toMatch(/ops\tops@example\.com\tadmin\tactive/);
    const duplicate = await capture(["user", "create", "--username", "ops", "--password", "ops-password"], db.env);
    expect(duplicate.code).toBe(1);
  });

  it("creates a key whose last line is KEY_ID:KEY_SECRET, and revokes it", async () => {
    const created = await capture(["key", "create", "--username", "ops"], db.env);
    expect(created.code).toBe(0);
    const credential = created.out.at(-1) ?? "";
    expect(credential).toMatch(/^[A-Z0-9]+:[A-Za-z0-9_-]+$/);

    gw = await createTestGateway("sqlite", { ...db.env });
    const exchange = () =>
      gw.request("/api/v2/auth/pkey/jwt/", { method: "POST", headers: { authorization: `PersonalKey ${credential}` } });
    expect((await exchange()).status).toBe(200);
    const revoked = await capture(["key", "revoke", "--id", credential.split(":")[0] ?? ""], db.env);
    expect(revoked.code).toBe(0);
    // Another process revoked it: this gateway notices within its auth cache TTL (30 s default, 0 here).
    await gw.close();
    gw = await createTestGateway("sqlite", { ...db.env, AUTH_CACHE_SECONDS: "0" });
    expect((await exchange()).status).toBe(401);
  });

  it("refuses bad usage with exit code 2", async () => {
    expect((await capture(["user", "create", "--username", "x"], db.env)).code).toBe(2);
    expect((await capture(["frobnicate", "now"], db.env)).code).toBe(2);
  });
});
