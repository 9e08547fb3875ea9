// Single sign-on failures, each a clear error with its status: a callback with a wrong or unknown state (403/400),
// a replayed state (409), an expired one (401 TOKEN_EXPIRED), the provider down (503), a user refused by domain
// (403), a provider that refuses the user (401), unknown providers (404). Run on Postgres (sso-flow runs on SQLite).
import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Agent, CLIENT, CREATE_PROVIDER, startWorld, type World } from "./sso-world.ts";

type ErrorBody = { success: false; error: { code: string; message: string; details?: Record<string, unknown> } };

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("single sign-on failures", () => {
  let world: World;

  beforeAll(async () => {
    world = await startWorld("postgres");
    await world.services.db.organization.create({ data: { slug: "partner", name: "Partner" } });
    const common = { clientId: CLIENT.id, clientSecret: CLIENT.secret };
    for (const input of [
      { name: "corp", issuer: world.idp.issuer, ...common },
      { name: "partner-idp", organization: "partner", issuer: world.idp.issuer, allowedDomains: ["Example.com"], ...common },
      { name: "down", issuer: `http://127.0.0.1:${await closedPort()}`, ...common },
    ]) {
      const created = await world.graphql(CREATE_PROVIDER, { input }, world.adminToken);
      expect(created.errors).toBeUndefined();
    }
  }, 60_000);

  afterAll(async () => {
    await world?.close();
  });

  /** Starts a browser sign-in and stops at the provider's login page. */
  async function atProvider(agent: Agent, start = "/sso/oidc/login/corp/") {
    const reached = await agent.follow(`${world.base}${start}`);
    expect(reached.url.origin).toBe(world.idp.issuer);
    const authUrl = agent.visited.find((url) => url.includes("code_challenge=")) ?? "";
    return { ...reached, state: new URL(authUrl).searchParams.get("state") ?? "" };
  }

  /** Signs in at the provider and stops before the gateway's callback; answers the callback URL. */
  async function callbackOf(agent: Agent, page: { response?: Response; url: URL }, login: string): Promise<string> {
    const stopped = await agent.signInAtProvider(
      page.response as Response,
      page.url,
      login,
      (url) => url.pathname === "/sso/oidc/callback/",
    );
    expect(stopped.url.pathname).toBe("/sso/oidc/callback/");
    expect(stopped.url.searchParams.get("code")).not.toBeNull();
    return stopped.url.href;
  }

  it("refuses a callback whose state this browser did not start (403), and an unknown state (400)", async () => {
    const starter = new Agent();
    const page = await atProvider(starter);
    const callback = await callbackOf(starter, page, "alice");
    // Another browser (no state cookie) brings the callback: login CSRF refused.
    const stranger = await new Agent().request(callback);
    expect(stranger.status).toBe(403);
    expect(await stranger.text()).toContain("not started in this browser");
    // A state the gateway never issued.
    const forged = new URL(callback);
    forged.searchParams.set("state", "forged-state-value");
    const unknown = await starter.request(forged.href);
    expect(unknown.status).toBe(400);
    expect(await unknown.text()).toContain("unknown sign-in state");
    const none = await starter.request(`${world.base}/sso/oidc/callback/?code=abc`);
    expect(none.status).toBe(400);
  });

  it("refuses a replayed state (409): the callback URL works once", async () => {
    const agent = new Agent();
    const page = await atProvider(agent);
    const callback = await callbackOf(agent, page, "alice");
    const stateCookie = agent.cookie(new URL(world.base).host, "gw_sso_state");
    const first = await agent.request(callback);
    expect(first.status).toBe(303);
    expect(agent.cookie(new URL(world.base).host, "gw_session")).toBeDefined();
    // Replayed with the state cookie put back (an attacker holding both).
    const replay = await fetch(callback, { headers: { cookie: `gw_sso_state=${stateCookie}` }, redirect: "manual" });
    expect(replay.status).toBe(409);
    expect(await replay.text()).toContain("already used");
  });

  it("refuses an expired state: at the callback and when collecting the JWT (401 TOKEN_EXPIRED)", async () => {
    const agent = new Agent();
    const page = await atProvider(agent);
    const callback = await callbackOf(agent, page, "alice");
    await world.services.db.ssoLogin.updateMany({ where: { status: "pending" }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const late = await agent.request(callback);
    expect(late.status).toBe(401);
    expect(await late.text()).toContain("expired");
    const jwt = await fetch(`${world.base}/sso/oidc/jwt/${page.state}/`);
    expect(jwt.status).toBe(401);
    expect(((await jwt.json()) as ErrorBody).error.code).toBe("TOKEN_EXPIRED");
  });

  it("answers 503 when the provider cannot be reached, as a redirect and for pygraphistry", async () => {
    const browser = await fetch(`${world.base}/sso/oidc/login/down/`, { redirect: "manual" });
    expect(browser.status).toBe(503);
    const body = (await browser.json()) as ErrorBody;
    expect(body.error.code).toBe("UNAVAILABLE");
    expect(body.error.message).toContain("cannot be reached");
    const notebook = await fetch(`${world.base}/sso/oidc/login/down/`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "client-type=pygraphistry",
    });
    expect(notebook.status).toBe(503);
    expect(await world.services.db.ssoLogin.count({ where: { provider: { name: "down" } } })).toBe(0);
  });

  it("answers 503 when the provider goes down between the redirect and the callback", async () => {
    const { startIdp } = await import("./sso-world.ts");
    const flaky = await startIdp([`${world.base}/sso/oidc/callback/`]);
    const created = await world.graphql(
      CREATE_PROVIDER,
      { input: { name: "flaky", issuer: flaky.issuer, clientId: CLIENT.id, clientSecret: CLIENT.secret } },
      world.adminToken,
    );
    expect(created.errors).toBeUndefined();
    const agent = new Agent();
    const reached = await agent.follow(`${world.base}/sso/oidc/login/flaky/`);
    const callback = await agent.signInAtProvider(
      reached.response as Response,
      reached.url,
      "alice",
      (url) => url.pathname === "/sso/oidc/callback/",
    );
    await flaky.close();
    const response = await agent.request(callback.url.href);
    expect(response.status).toBe(503);
    expect(await response.text()).toContain("cannot be reached");
  });

  it("refuses a user whose e-mail domain is not allowed (403), and an unverified e-mail (403); no account is made", async () => {
    const before = await world.services.db.user.count();
    for (const [login, reason] of [
      ["mallory", "e-mail domain &#34;evil.test&#34; is not allowed"],
      ["unverified", "only verified e-mail addresses"],
    ] as const) {
      const agent = new Agent();
      const page = await atProvider(agent, "/sso/oidc/login/partner-idp/");
      const callback = await callbackOf(agent, page, login);
      const refused = await agent.request(callback);
      expect(refused.status).toBe(403);
      expect(await refused.text()).toContain(reason);
      expect(agent.cookie(new URL(world.base).host, "gw_session")).toBeUndefined();
      // The notebook waiting on that state hears that the sign-in failed.
      const jwt = await fetch(`${world.base}/sso/oidc/jwt/${page.state}/`);
      expect(jwt.status).toBe(401);
    }
    expect(await world.services.db.user.count()).toBe(before);
    // alice@example.com is in the allowed domain (compared without case) and becomes a member of the organization.
    const agent = new Agent();
    const page = await atProvider(agent, "/sso/oidc/login/partner-idp/");
    const ok = await agent.request(await callbackOf(agent, page, "alice"));
    expect(ok.status).toBe(303);
    const jwt = (await (await fetch(`${world.base}/sso/oidc/jwt/${page.state}/`)).json()) as {
      data: { active_organization: { slug: string } };
    };
    expect(jwt.data.active_organization.slug).toBe("partner");
  });

  it("answers 401 when the provider refuses the sign-in (error=access_denied)", async () => {
    const agent = new Agent();
    const page = await atProvider(agent);
    const denied = await agent.request(
      `${world.base}/sso/oidc/callback/?error=access_denied&state=${page.state}&iss=${encodeURIComponent(world.idp.issuer)}`,
    );
    expect(denied.status).toBe(401);
    expect(await denied.text()).toContain("access_denied");
  });

  it("answers 404 for unknown providers and organizations, 400 when a site-wide choice is ambiguous", async () => {
    for (const path of ["/sso/oidc/login/nope/", "/api/v2/o/partner/sso/oidc/login/corp/", "/api/v2/o/nowhere/sso/oidc/login/"]) {
      const response = await fetch(`${world.base}${path}`, { redirect: "manual" });
      expect(response.status, path).toBe(404);
      expect(((await response.json()) as ErrorBody).error.code).toBe("NOT_FOUND");
    }
    // Several site-wide providers (corp, down, flaky): the bare site-wide route asks for a name.
    const ambiguous = await fetch(`${world.base}/api/v2/g/sso/oidc/login`, { redirect: "manual" });
    expect(ambiguous.status).toBe(400);
    expect(((await ambiguous.json()) as ErrorBody).error.message).toContain("several SSO providers");
  });

  it("purges sign-in records a day after they expired, when the next sign-in starts", async () => {
    const provider = await world.services.db.ssoProvider.findUnique({ where: { name: "corp" } });
    const old = { providerId: provider.id, codeVerifier: "v", nonce: "n", redirectUri: `${world.base}/sso/oidc/callback/` };
    await world.services.db.ssoLogin.create({ data: { id: "stale", ...old, expiresAt: new Date(Date.now() - 25 * 3600_000) } });
    await world.services.db.ssoLogin.create({ data: { id: "recent", ...old, expiresAt: new Date(Date.now() - 3600_000) } });
    expect((await fetch(`${world.base}/sso/oidc/login/corp/`, { redirect: "manual" })).status).toBe(302);
    expect(await world.services.db.ssoLogin.findUnique({ where: { id: "stale" } })).toBeNull();
    expect(await world.services.db.ssoLogin.findUnique({ where: { id: "recent" } })).not.toBeNull();
  });
});
