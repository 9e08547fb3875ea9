// JWT signing keys rotate without signing anyone out: the key id in the header, the old key verifies for the grace
// period and not after, tokens without a key id verify with the legacy secret; through the CLI and the server alike.
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { decodeProtectedHeader, SignJWT } from "jose";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createJwtKeys, KEYRING_FILE } from "../../src/auth/jwt-keys.ts";
import { createTokenIssuer } from "../../src/auth/tokens.ts";
import { main as cli } from "../../src/cli/main.ts";
import { loadConfig } from "../../src/config/config.ts";
import { isAppError } from "../../src/errors/app-error.ts";
import { ADMIN, createTestGateway, type TestGateway } from "../helpers/gateway.ts";

const LEGACY = new TextEncoder().encode("legacy-secret-legacy-secret-legacy-secret");
const login = { userId: 7, username: "u", loginAt: Math.floor(Date.now() / 1000), keyId: undefined, org: undefined };

async function codeOf(work: Promise<unknown>): Promise<string> {
  try {
    await work;
    return "OK";
  } catch (error) {
    return isAppError(error) ? error.code : `unexpected ${String(error)}`;
  }
}

describe("the keyring", () => {
  const dirs: string[] = [];
  afterEach(async () => {
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });
  async function keyring(graceSeconds: number) {
    const dir = await mkdtemp(path.join(tmpdir(), "jwt-keys-"));
    dirs.push(dir);
    let offset = 0;
    const keys = createJwtKeys({ dataDir: dir, legacySecret: LEGACY, graceSeconds, now: () => Date.now() / 1000 + offset });
    const issuer = createTokenIssuer({ keys, ttlSeconds: 3600, refreshWindowSeconds: 86_400 });
    return { dir, keys, issuer, advance: (seconds: number) => (offset += seconds) };
  }

  it("signs with the legacy secret (no kid) until the first rotation, then with the new key's id", async () => {
    const { keys, issuer } = await keyring(600);
    const before = (await issuer.issue(login)).token;
    expect(decodeProtectedHeader(before).kid).toBeUndefined();
    const kid = await keys.rotate();
    const after = (await issuer.issue(login)).token;
    expect(decodeProtectedHeader(after).kid).toBe(kid);
    expect((await issuer.verify(after)).userId).toBe(7);
    expect((await issuer.verify(before)).userId).toBe(7);
  });

  it("keeps a replaced key verifying for the grace period, and not after", async () => {
    const { keys, issuer, advance } = await keyring(600);
    await keys.rotate();
    const old = (await issuer.issue(login)).token;
    const legacy = await new SignJWT({ username: "u", auth_time: login.loginAt })
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setIssuer("graphviz-gateway")
      .setSubject("7")
      .setIssuedAt()
      .setExpirationTime("1h")
      .sign(LEGACY);
    const second = await keys.rotate();
    const fresh = (await issuer.issue(login)).token;
    expect(decodeProtectedHeader(fresh).kid).toBe(second);
    advance(590);
    expect(await codeOf(issuer.verify(old))).toBe("OK");
    expect(await codeOf(issuer.verify(legacy))).toBe("OK");
    advance(20); // past the grace period of both replaced keys
    expect(await codeOf(issuer.verify(old))).toBe("UNAUTHENTICATED");
    expect(await codeOf(issuer.verify(legacy))).toBe("UNAUTHENTICATED");
    expect(await codeOf(issuer.verify(fresh))).toBe("OK");
    // The next rotation drops the keys past their grace period from the file.
    await keys.rotate();
    expect((await keys.list()).map((k) => k.kid)).not.toContain(decodeProtectedHeader(old).kid);
  });

  it("refuses unknown key ids and keys of the wrong kind, and keeps the file to its owner", async () => {
    const { dir, keys, issuer } = await keyring(600);
    await keys.rotate();
    const token = (await issuer.issue(login)).token;
    const [, payload, signature] = token.split(".");
    const header = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
    expect(await codeOf(issuer.verify(`${header({ alg: "HS256", kid: "nope" })}.${payload}.${signature}`))).toBe("UNAUTHENTICATED");
    expect(await codeOf(issuer.verify(`${header({ alg: "HS256", kid: 5 })}.${payload}.${signature}`))).toBe("UNAUTHENTICATED");
    expect(await codeOf(issuer.verify(`${header({ alg: "none" })}.${payload}.`))).toBe("UNAUTHENTICATED");
    expect((await stat(path.join(dir, KEYRING_FILE))).mode & 0o077).toBe(0);
  });

  it("a second instance on the same DATA_DIR verifies the new key's tokens and signs with it", async () => {
    const { dir, keys, issuer } = await keyring(600);
    const other = createTokenIssuer({
      keys: createJwtKeys({ dataDir: dir, legacySecret: LEGACY, graceSeconds: 600 }),
      ttlSeconds: 3600,
      refreshWindowSeconds: 86_400,
    });
    await other.issue(login); // reads the keyring now (none yet)
    const kid = await keys.rotate();
    expect((await other.verify((await issuer.issue(login)).token)).userId).toBe(7);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(decodeProtectedHeader((await other.issue(login)).token).kid).toBe(kid);
  });

  it("rotates at start only when the signing key is older than asked", async () => {
    const { keys, advance } = await keyring(600);
    const first = await keys.rotateIfOlderThan(30);
    expect(first).toBeDefined(); // the legacy secret: always
    expect(await keys.rotateIfOlderThan(30)).toBeUndefined();
    advance(31 * 86_400);
    expect(await keys.rotateIfOlderThan(30)).toBeDefined();
  });
});

describe("rotation on a running server, through the CLI", () => {
  let t: TestGateway;
  beforeAll(async () => {
    t = await createTestGateway("sqlite", { JWT_KEY_GRACE_SECONDS: "3" });
  });
  afterAll(async () => t?.close());

  it("keeps signed-in users signed in; their old tokens stop after the grace period", async () => {
    const before = await t.login();
    expect(decodeProtectedHeader(before).kid).toBeUndefined();
    const quiet = console.log;
    console.log = () => {};
    try {
      expect(await cli(["jwt", "rotate"], loadConfig(t.env))).toBe(0);
    } finally {
      console.log = quiet;
    }
    const me = async (token: string) => (await t.graphql<{ caller: { username: string } }>("{ caller { username } }", {}, token)).body;
    expect((await me(before)).data?.caller.username).toBe(ADMIN.username);
    await new Promise((resolve) => setTimeout(resolve, 1100)); // the server sees the new keyring
    const after = await t.login();
    expect(decodeProtectedHeader(after).kid).toMatch(/^k/);
    const refreshed = await t.json<{ token: string }>("/api-token-refresh/", { method: "POST", json: { token: before } });
    expect(refreshed.status).toBe(200);
    expect(decodeProtectedHeader(refreshed.body.token).kid).toBe(decodeProtectedHeader(after).kid);
    await new Promise((resolve) => setTimeout(resolve, 3000)); // past JWT_KEY_GRACE_SECONDS
    expect((await me(before)).errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
    expect((await me(after)).data?.caller.username).toBe(ADMIN.username);
  });
});
