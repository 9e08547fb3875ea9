// The operator's forced logout from the command line (`user logout --username U`) against a running gateway's
// database and Redis: the gateway, which caches principals for a minute, refuses the user's token at once.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { main } from "../../src/cli/main.ts";
import { loadConfig } from "../../src/config/config.ts";
import { createTestGateway, type TestGateway } from "../helpers/gateway.ts";

async function cli(argv: string[], env: Record<string, string>): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const log = vi.spyOn(console, "log").mockImplementation((line: unknown) => void out.push(String(line)));
  const error = vi.spyOn(console, "error").mockImplementation((line: unknown) => void err.push(String(line)));
  try {
    return { code: await main(argv, loadConfig({ ...env, LOG_LEVEL: "silent" })), out, err };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}

describe("user logout on the command line (Postgres, Redis)", () => {
  let gw: TestGateway;

  beforeAll(async () => {
    gw = await createTestGateway("postgres", { REDIS_URL: "redis://127.0.0.1:6379", AUTH_CACHE_SECONDS: "60" });
  }, 60_000);
  afterAll(async () => {
    await gw?.close();
  });

  it("ends the user's tokens on the running gateway at once, and names an unknown user", async () => {
    const { guest = "" } = await gw.users("guest");
    const me = async () => (await gw.graphql("{ me { username } }", {}, guest)).status;
    expect(await me()).toBe(200);
    const done = await cli(["user", "logout", "--username", "guest"], gw.env);
    expect(done.code).toBe(0);
    expect(done.out.join("\n")).toContain("logged out user guest");
    expect(await me()).toBe(401);

    const unknown = await cli(["user", "logout", "--username", "nobody"], gw.env);
    expect(unknown.code).not.toBe(0);
    expect(unknown.err.join("\n")).toContain("nobody");
  });
});
