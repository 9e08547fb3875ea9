// Single sign-on over HTTP against a real OpenID Connect provider (oidc-provider, in process): the browser flow
// (redirect, provider login, callback, session cookie, back to `next`), the JWT for a state answered once, linking by
// the provider's subject (never by e-mail), organization membership, and pygraphistry's call sequence.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Agent, CLIENT, CREATE_PROVIDER, startWorld, type World } from "./sso-world.ts";

const ME = "query { me { id username email } }";

describe("single sign-on with OpenID Connect", () => {
  let world: World;
  let gatewayHost = "";

  beforeAll(async () => {
    world = await startWorld("sqlite");
    gatewayHost = new URL(world.base).host;
    await world.services.db.organization.create({ data: { slug: "acme", name: "Acme" } });
    const common = { issuer: world.idp.issuer, clientId: CLIENT.id, clientSecret: CLIENT.secret };
    for (const input of [
      { name: "corp", displayName: "Corp login", ...common },
      { name: "acme-idp", displayName: "Acme", organization: "acme", ...common },
    ]) {
      const created = await world.graphql(CREATE_PROVIDER, { input }, world.adminToken);
      expect(created.errors).toBeUndefined();
    }
  }, 60_000);

  afterAll(async () => {
    await world?.close();
  });

  /** The browser flow up to the gateway's redirect to `next`; answers the agent and where it was sent. */
  async function browserSignIn(login: string, start: string) {
    const agent = new Agent();
    const atProvider = await agent.follow(`${world.base}${start}`);
    expect(atProvider.url.origin).toBe(world.idp.issuer);
    expect(atProvider.response?.status).toBe(200);
    const back = await agent.signInAtProvider(
      atProvider.response as Response,
      atProvider.url,
      login,
      (url) => url.origin === world.base && url.pathname !== "/sso/oidc/callback/",
    );
    return { agent, back };
  }

  async function meWithCookie(agent: Agent) {
    const response = await fetch(`${world.base}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie: `gw_session=${agent.cookie(gatewayHost, "gw_session")}` },
      body: JSON.stringify({ query: ME }),
    });
    return ((await response.json()) as { data: { me: { id: number; username: string; email: string } | null } }).data.me;
  }

  it("redirects to the provider with code + PKCE (S256), state and nonce", async () => {
    const response = await fetch(`${world.base}/api/v2/g/sso/oidc/login`, { redirect: "manual" });
    expect(response.status).toBe(302);
    const auth = new URL(response.headers.get("location") ?? "");
    expect(auth.origin).toBe(world.idp.issuer);
    expect(auth.searchParams.get("response_type")).toBe("code");
    expect(auth.searchParams.get("code_challenge_method")).toBe("S256");
    expect(auth.searchParams.get("code_challenge")).toMatch(/^[\w-]{43}$/);
    expect(auth.searchParams.get("state")).toMatch(/^[\w-]{20,}$/);
    expect(auth.searchParams.get("nonce")).toMatch(/^[\w-]{20,}$/);
    expect(auth.searchParams.get("redirect_uri")).toBe(`${world.base}/sso/oidc/callback/`);
    // The state cookie ties the callback to this browser.
    expect(response.headers.get("set-cookie")).toContain(`gw_sso_state=${auth.searchParams.get("state")}`);
  });

  it("signs a browser in: account created from the provider's subject, session cookie set, back to next", async () => {
    const { agent, back } = await browserSignIn("alice", "/api/v2/g/sso/oidc/login?next=/account%3Ftab%3Dkeys");
    expect(back.url.href).toBe(`${world.base}/account?tab=keys`);
    const me = await meWithCookie(agent);
    expect(me?.username).toBe("alice");
    expect(me?.email).toBe("alice@example.com");
    const identity = await world.services.db.ssoIdentity.findFirst({ where: { subject: "alice" } });
    expect(identity?.userId).toBe(me?.id);

    // The same subject again is the same account.
    const again = await browserSignIn("alice", "/sso/oidc/login/corp/");
    expect(again.back.url.href).toBe(`${world.base}/`);
    expect((await meWithCookie(again.agent))?.id).toBe(me?.id);
    // An off-site next is refused: the browser goes home.
    const offsite = await browserSignIn("alice", "/sso/oidc/login/corp/?next=//evil.test/x");
    expect(offsite.back.url.href).toBe(`${world.base}/`);
  });

  it("never links by e-mail: a local user with the provider's e-mail stays apart", async () => {
    const local = await world.services.users.create({ username: "bob", password: "bob-password-1", email: "bob@example.com" });
    const { agent } = await browserSignIn("bob", "/sso/oidc/login/corp/");
    const me = await meWithCookie(agent);
    expect(me?.id).not.toBe(local.id);
    expect(me?.username).toBe("bob-2");
  });

  it("answers the JWT of a state once, then 409; an unknown state is 404", async () => {
    const agent = new Agent();
    const atProvider = await agent.follow(`${world.base}/sso/oidc/login/acme-idp/`);
    const state = new URL(agent.visited[1] ?? "").searchParams.get("state") ?? "";
    expect(state).not.toBe("");
    const pending = await fetch(`${world.base}/sso/oidc/jwt/${state}/`);
    expect(pending.status).toBe(202);
    expect(await pending.json()).toMatchObject({ status: "PENDING" });
    await agent.signInAtProvider(
      atProvider.response as Response,
      atProvider.url,
      "alice",
      (url) => url.origin === world.base && url.pathname === "/",
    );

    const first = await fetch(`${world.base}/sso/oidc/jwt/${state}/`);
    expect(first.status).toBe(200);
    const body = (await first.json()) as { status: string; data: { token: string; active_organization: { slug: string } } };
    expect(body.status).toBe("OK");
    expect(body.data.active_organization.slug).toBe("acme");
    const verified = await fetch(`${world.base}/api-token-verify/`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token: body.data.token }),
    });
    expect(verified.status).toBe(200);
    // The organization's provider made the user a member of it.
    const me = await world.graphql<{ me: { id: number } }>(ME, {}, body.data.token);
    const membership = await world.services.db.membership.findFirst({
      where: { userId: me.data?.me.id, organization: { slug: "acme" } },
    });
    expect(membership?.role).toBe("member");

    const second = await fetch(`${world.base}/sso/oidc/jwt/${state}/`);
    expect(second.status).toBe(409);
    expect(((await second.json()) as { error: { code: string } }).error.code).toBe("CONFLICT");
    const unknown = await fetch(`${world.base}/sso/oidc/jwt/not-a-state/`);
    expect(unknown.status).toBe(404);
  });

  it("replays pygraphistry's sequence: POST client-type=pygraphistry, poll jwt while pending, then token and org", async () => {
    const form = { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "client-type=pygraphistry" };
    const started = await fetch(`${world.base}/api/v2/o/acme/sso/oidc/login/`, form);
    expect(started.status).toBe(200);
    const { status, data } = (await started.json()) as { status: string; data: { state: string; auth_url: string } };
    expect(status).toBe("OK");
    expect(new URL(data.auth_url).origin).toBe(world.idp.issuer);

    const jwtUrl = `${world.base}/api/v2/o/sso/oidc/jwt/${data.state}/`;
    const waiting = await fetch(jwtUrl);
    expect(waiting.status).toBe(202);
    expect(((await waiting.json()) as { status: string }).status).toBe("PENDING");

    // The user opens auth_url in a browser that did not start the sign-in (no state cookie): that is allowed here.
    const browser = new Agent();
    const atProvider = await browser.follow(data.auth_url);
    const done = await browser.signInAtProvider(atProvider.response as Response, atProvider.url, "alice");
    expect(done.url.pathname).toBe("/sso/oidc/callback/");
    expect(done.response?.status).toBe(200);
    expect(await done.response?.text()).toContain("go back to your notebook");
    // The notebook gets the token; the browser that opened auth_url is not signed in by it.
    expect(browser.cookie(gatewayHost, "gw_session")).toBeUndefined();

    const answered = await fetch(jwtUrl);
    expect(answered.status).toBe(200);
    const body = (await answered.json()) as { status: string; data: { token: string; active_organization: { slug: string } } };
    expect(body.status).toBe("OK");
    expect(body.data.active_organization.slug).toBe("acme");
    expect((await world.graphql<{ me: { username: string } }>(ME, {}, body.data.token)).data?.me.username).toBe("alice");
    expect((await fetch(jwtUrl)).status).toBe(409);

    // The per-provider and site-wide variants answer the same shape.
    for (const path of ["/api/v2/o/acme/sso/oidc/login/acme-idp/", "/api/v2/g/sso/oidc/login/"]) {
      const other = await fetch(`${world.base}${path}`, form);
      expect(other.status).toBe(200);
      expect(((await other.json()) as { data: { state: string; auth_url: string } }).data.auth_url).toContain("code_challenge=");
    }
  });

  it("lists the providers publicly (for the sign-in page) and their settings to admins only, never the secret", async () => {
    const open = await world.graphql<{ ssoProviders: unknown[] }>("{ ssoProviders { name displayName loginUrl organization } }");
    expect(open.data?.ssoProviders).toEqual([
      { name: "acme-idp", displayName: "Acme", loginUrl: "/sso/oidc/login/acme-idp/", organization: "acme" },
      { name: "corp", displayName: "Corp login", loginUrl: "/sso/oidc/login/corp/", organization: null },
    ]);
    const settings = await world.graphql<{ ssoProviderSettings: Record<string, unknown>[] }>(
      "{ ssoProviderSettings { name issuer clientId allowedDomains } }",
      {},
      world.adminToken,
    );
    expect(settings.data?.ssoProviderSettings[0]).toMatchObject({ name: "acme-idp", clientId: CLIENT.id });
    expect(JSON.stringify(settings)).not.toContain(CLIENT.secret);
    const row = await world.services.db.ssoProvider.findUnique({ where: { name: "corp" } });
    expect(row.clientSecretEnc).not.toContain(CLIENT.secret);
    expect(row.clientSecretEnc).toMatch(/^v1:/);

    await world.services.users.create({ username: "plain", password: "plain-password-1" });
    const plain = (
      (await (
        await fetch(`${world.base}/api-token-auth/`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ username: "plain", password: "plain-password-1" }),
        })
      ).json()) as { token: string }
    ).token;
    const refused = await world.graphql("{ ssoProviderSettings { name } }", {}, plain);
    expect(refused.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    const create = await world.graphql(
      CREATE_PROVIDER,
      { input: { name: "mine", issuer: world.idp.issuer, clientId: "x", clientSecret: "y" } },
      plain,
    );
    expect(create.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
  });

  it("checks provider settings: https issuer (http only on localhost), domains, unique names, known organization", async () => {
    const base = { clientId: "x", clientSecret: "y" };
    const cases: [Record<string, unknown>, string][] = [
      [{ name: "a", issuer: "http://idp.example.com", ...base }, "INVALID_INPUT"],
      [{ name: "a", issuer: "not a url", ...base }, "INVALID_INPUT"],
      [{ name: "a b", issuer: "https://idp.example.com", ...base }, "INVALID_INPUT"],
      [{ name: "a", issuer: "https://idp.example.com", allowedDomains: ["not a domain"], ...base }, "INVALID_INPUT"],
      [{ name: "corp", issuer: "https://idp.example.com", ...base }, "CONFLICT"],
      [{ name: "a", issuer: "https://idp.example.com", organization: "nowhere", ...base }, "NOT_FOUND"],
    ];
    for (const [input, code] of cases) {
      const result = await world.graphql(CREATE_PROVIDER, { input }, world.adminToken);
      expect(result.errors?.[0]?.extensions?.code, JSON.stringify(input)).toBe(code);
    }
    expect(await world.services.db.ssoProvider.count()).toBe(2);
  });

  it("lets admins change and remove a provider over GraphQL (the secret may be replaced, never read)", async () => {
    const created = await world.graphql(
      CREATE_PROVIDER,
      { input: { name: "temp", issuer: world.idp.issuer, clientId: CLIENT.id, clientSecret: CLIENT.secret } },
      world.adminToken,
    );
    expect(created.errors).toBeUndefined();
    const updated = await world.graphql<{ updateSsoProvider: { displayName: string; allowedDomains: string[] } }>(
      `mutation($input: SsoProviderUpdate!) { updateSsoProvider(name: "temp", input: $input) { displayName allowedDomains } }`,
      { input: { displayName: "Temporary", allowedDomains: ["@Example.com", "example.org"], clientSecret: "replaced-secret" } },
      world.adminToken,
    );
    expect(updated.data?.updateSsoProvider).toEqual({ displayName: "Temporary", allowedDomains: ["example.com", "example.org"] });
    const row = await world.services.db.ssoProvider.findUnique({ where: { name: "temp" } });
    expect(row.clientSecretEnc).not.toContain("replaced-secret");
    const removed = await world.graphql<{ deleteSsoProvider: boolean }>(
      'mutation { deleteSsoProvider(name: "temp") }',
      {},
      world.adminToken,
    );
    expect(removed.data?.deleteSsoProvider).toBe(true);
    const again = await world.graphql('mutation { deleteSsoProvider(name: "temp") }', {}, world.adminToken);
    expect(again.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    expect((await fetch(`${world.base}/sso/oidc/login/temp/`, { redirect: "manual" })).status).toBe(404);
  });
});
