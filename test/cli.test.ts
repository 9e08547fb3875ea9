// The operator command line: users and keys, with the key's last printed line usable as a credential.
import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { main } from "../src/cli/main.ts";
import { loadConfig } from "../src/config/config.ts";
import { createTestDatabase, type TestDatabase } from "./helpers/databases.ts";
import { createTestGateway, type TestGateway } from "./helpers/gateway.ts";
import { ROOT } from "./helpers/server-process.ts";

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

  it("takes a new user's password from stdin or USER_PASSWORD, so it never shows on the command line", async () => {
    // The real command with a pipe into it.
    const piped = spawnSync(process.execPath, ["src/cli/main.ts", "user", "create", "--username", "piped", "--password-stdin"], {
      cwd: ROOT,
      input: "piped-password-1\nignored\n",
      encoding: "utf8",
      env: { ...process.env, ...db.env, ENV_FILE: "", LOG_LEVEL: "silent" },
    });
    expect(piped.status, piped.stderr).toBe(0);
    process.env.USER_PASSWORD = "env-password-1";
    try {
      expect((await capture(["user", "create", "--username", "envuser"], db.env)).code).toBe(0);
    } finally {
      delete process.env.USER_PASSWORD;
    }
    const onLine = await capture(["user", "create", "--username", "online", "--password", "online-password-1"], db.env);
    expect(onLine.code).toBe(0);
    expect(onLine.err.join("\n")).toContain("visible to other users of this machine");
    const none = await capture(["user", "create", "--username", "nopass"], db.env);
    expect(none.code).toBe(2);
    expect(none.err.join("\n")).toContain("a password is required");

    await gw?.close();
    gw = await createTestGateway("sqlite", { ...db.env });
    for (const [username, password] of [
      ["piped", "piped-password-1"],
      ["envuser", "env-password-1"],
      ["online", "online-password-1"],
    ]) {
      const login = await gw.request("/api-token-auth/", { method: "POST", json: { username, password } });
      expect(login.status, username).toBe(200);
    }
  }, 120_000);

  it("refuses bad usage with exit code 2", async () => {
    expect((await capture(["user", "create", "--username", "x"], db.env)).code).toBe(2);
    expect((await capture(["frobnicate", "now"], db.env)).code).toBe(2);
  });
});
