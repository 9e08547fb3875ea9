// The sso commands of the operator command line, against the database of a running gateway: a provider added there
// (its secret encrypted with the key the gateway derives too) signs users in; update and remove take effect; list
// never prints the secret; bad input exits non-zero with a clear message.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { main } from "../../src/cli/main.ts";
import { loadConfig } from "../../src/config/config.ts";
import { Agent, CLIENT, startWorld, type World } from "./sso-world.ts";

describe("sso commands", () => {
  let world: World;

  beforeAll(async () => {
    world = await startWorld("sqlite");
    await world.services.db.organization.create({ data: { slug: "acme", name: "Acme" } });
  }, 60_000);

  afterAll(async () => {
    await world?.close();
  });

  async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
    const out: string[] = [];
    const err: string[] = [];
    const log = vi.spyOn(console, "log").mockImplementation((line: unknown) => void out.push(String(line)));
    const error = vi.spyOn(console, "error").mockImplementation((line: unknown) => void err.push(String(line)));
    try {
      const code = await main(argv, loadConfig({ ...world.env, LOG_LEVEL: "silent" }));
      return { code, out: out.join("\n"), err: err.join("\n") };
    } finally {
      log.mockRestore();
      error.mockRestore();
    }
  }

  /** A sign-in with `login` through provider `name`; answers the callback's status. */
  async function signIn(name: string, login: string): Promise<number> {
    const agent = new Agent();
    const reached = await agent.follow(`${world.base}/sso/oidc/login/${name}/`);
    if (reached.url.origin !== world.idp.issuer) return reached.response?.status ?? 0;
    const back = await agent.signInAtProvider(
      reached.response as Response,
      reached.url,
      login,
      (url) => url.pathname === "/sso/oidc/callback/",
    );
    return (await agent.request(back.url.href)).status;
  }

  it("adds a provider whose encrypted secret the gateway can use, lists it without the secret, updates and removes it", async () => {
    const added = await cli(
      "sso",
      "add",
      "--name",
      "acme-sso",
      "--display-name",
      "Acme SSO",
      "--org",
      "acme",
      "--issuer",
      world.idp.issuer,
      "--client-id",
      CLIENT.id,
      "--client-secret",
      CLIENT.secret,
    );
    expect(added.err).toBe("");
    expect(added.code).toBe(0);
    expect(added.out).toContain("added SSO provider acme-sso (organization acme)");
    expect(await signIn("acme-sso", "alice")).toBe(303);

    const listed = await cli("sso", "list");
    expect(listed.out).toBe(["acme-sso", "Acme SSO", "acme", world.idp.issuer, CLIENT.id, "(any domain)"].join("\t"));
    expect(listed.out).not.toContain(CLIENT.secret);

    expect((await cli("sso", "update", "--name", "acme-sso", "--domains", "other.org")).code).toBe(0);
    expect(await signIn("acme-sso", "alice")).toBe(403);

    // A wrong secret is stored as given: the provider then refuses the code exchange (401).
    expect((await cli("sso", "update", "--name", "acme-sso", "--domains", "", "--client-secret", "wrong-secret")).code).toBe(0);
    expect(await signIn("acme-sso", "alice")).toBe(401);

    expect((await cli("sso", "remove", "--name", "acme-sso")).code).toBe(0);
    expect(await signIn("acme-sso", "alice")).toBe(404);
  });

  it("takes the secret from SSO_CLIENT_SECRET", async () => {
    process.env.SSO_CLIENT_SECRET = CLIENT.secret;
    try {
      const added = await cli("sso", "add", "--name", "site", "--issuer", world.idp.issuer, "--client-id", CLIENT.id);
      expect(added.code).toBe(0);
      expect(added.out).toContain("(site-wide)");
    } finally {
      delete process.env.SSO_CLIENT_SECRET;
    }
    expect(await signIn("site", "alice")).toBe(303);
  });

  it("exits non-zero with a clear message on bad input", async () => {
    const missing = await cli("sso", "add", "--name", "x");
    expect(missing.code).toBe(2);
    expect(missing.err).toContain("--issuer");
    const badIssuer = await cli("sso", "add", "--name", "x", "--issuer", "ftp://idp", "--client-id", "a", "--client-secret", "b");
    expect(badIssuer.code).toBe(2);
    expect(badIssuer.err).toContain("issuer must be an https URL");
    const noOrg = await cli(
      "sso",
      "add",
      "--name",
      "x",
      "--org",
      "nowhere",
      "--issuer",
      "https://idp.example.com",
      "--client-id",
      "a",
      "--client-secret",
      "b",
    );
    expect(noOrg.code).toBe(1);
    expect(noOrg.err).toContain('no organization "nowhere"');
    expect((await cli("sso", "remove", "--name", "nope")).code).toBe(1);
    expect((await cli("sso", "frobnicate")).code).toBe(2);
  });
});
