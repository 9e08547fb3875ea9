// Test world for single sign-on: the gateway listening on a port, a real OpenID Connect provider (oidc-provider) in
// process with a few accounts, and a small cookie-keeping user agent that follows redirects and fills the
// provider's login form as a browser would.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";
import { loadConfig } from "../../src/config/config.ts";
import { startNodeServer } from "../../src/server/node.ts";
import { createTestDatabase, type Provider as DbProvider } from "../helpers/databases.ts";

export const ADMIN = { username: "admin", password: "admin-password-1" };
export const CLIENT = { id: "graph-gateway", secret: "a-client-secret-that-is-long-enough" };

/** The provider's accounts: the login typed into its form is the subject. */
export const IDP_ACCOUNTS: Record<string, { email: string; email_verified: boolean; name: string; preferred_username?: string }> = {
  alice: { email: "alice@example.com", email_verified: true, name: "Alice Example", preferred_username: "alice" },
  bob: { email: "bob@example.com", email_verified: true, name: "Bob Impostor", preferred_username: "bob" },
  mallory: { email: "mallory@evil.test", email_verified: true, name: "Mallory" },
  unverified: { email: "carol@example.com", email_verified: false, name: "Carol" },
};

export type Idp = { issuer: string; close(): Promise<void> };

export async function startIdp(redirectUris: string[]): Promise<Idp> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT.id,
        client_secret: CLIENT.secret,
        redirect_uris: redirectUris,
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_post",
      },
    ],
    pkce: { required: () => true },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name", "preferred_username"] },
    cookies: { keys: ["test-cookie-key-0123456789"] },
    features: { devInteractions: { enabled: true } },
    async findAccount(_ctx, id) {
      const account = IDP_ACCOUNTS[id];
      if (!account) return undefined;
      return { accountId: id, claims: async () => ({ sub: id, ...account }) };
    },
    // Consent is taken as given: the test drives the login form only.
    async loadExistingGrant(ctx) {
      const accountId = ctx.oidc.session?.accountId;
      if (!accountId || !ctx.oidc.client) return undefined;
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId });
      grant.addOIDCScope("openid email profile");
      await grant.save();
      return grant;
    },
  });
  server.on("request", provider.callback());
  return {
    issuer,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type World = {
  base: string;
  /** The gateway's database and data folder settings, for the command line against the same records. */
  env: Record<string, string>;
  idp: Idp;
  // biome-ignore lint/suspicious/noExplicitAny: the gateway's services, for setting up and inspecting records.
  services: any;
  adminToken: string;
  graphql<T = Record<string, unknown>>(
    query: string,
    variables?: Record<string, unknown>,
    token?: string,
  ): Promise<{ data?: T; errors?: { message: string; extensions?: { code?: string } }[] }>;
  close(): Promise<void>;
};

/** The gateway (on a free port) and an identity provider that knows the gateway's callback. */
export async function startWorld(db: DbProvider): Promise<World> {
  const database = await createTestDatabase(db);
  const config = loadConfig({
    ...database.env,
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? "silent",
    PORT: "0",
    HOST: "127.0.0.1",
    COOKIE_SECURE: "false",
  });
  const node = await startNodeServer(config);
  const base = `http://127.0.0.1:${node.port}`;
  const idp = await startIdp([`${base}/sso/oidc/callback/`]);
  const graphql: World["graphql"] = async (query, variables, token) => {
    const response = await fetch(`${base}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ query, variables }),
    });
    return (await response.json()) as never;
  };
  const login = await fetch(`${base}/api-token-auth/`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(ADMIN),
  });
  const adminToken = ((await login.json()) as { token: string }).token;
  return {
    base,
    env: database.env,
    idp,
    services: node.gateway.services,
    adminToken,
    graphql,
    async close() {
      await idp.close();
      await node.stop("test");
      await database.drop();
    },
  };
}

export const CREATE_PROVIDER = `mutation($input: SsoProviderInput!) {
  createSsoProvider(input: $input) { id name displayName organization issuer clientId allowedDomains loginUrl } }`;

/** A browser stand-in: keeps cookies per host, follows redirects, and can stop before a URL. */
export class Agent {
  readonly jar = new Map<string, Map<string, string>>();
  /** Every URL requested, in order. */
  readonly visited: string[] = [];

  private store(url: URL, response: Response): void {
    const cookies = this.jar.get(url.host) ?? new Map<string, string>();
    for (const line of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = line.split(";");
      const at = pair.indexOf("=");
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a));
      if (expired || value === "") cookies.delete(name);
      else cookies.set(name, value);
    }
    this.jar.set(url.host, cookies);
  }

  cookie(host: string, name: string): string | undefined {
    return this.jar.get(host)?.get(name);
  }

  async request(url: string, init: RequestInit = {}): Promise<Response> {
    const target = new URL(url);
    const headers = new Headers(init.headers);
    const cookies = [...(this.jar.get(target.host) ?? new Map<string, string>())].map(([k, v]) => `${k}=${v}`).join("; ");
    if (cookies) headers.set("cookie", cookies);
    this.visited.push(target.href);
    const response = await fetch(target, { ...init, headers, redirect: "manual" });
    this.store(target, response);
    return response;
  }

  /** Requests `url` and follows redirects; stops (without requesting it) at a URL `stop` accepts. */
  async follow(url: string, init: RequestInit = {}, stop: (url: URL) => boolean = () => false): Promise<{ response?: Response; url: URL }> {
    let current = new URL(url);
    let response = await this.request(current.href, init);
    for (let hops = 0; hops < 20 && response.status >= 300 && response.status < 400; hops += 1) {
      const next = new URL(response.headers.get("location") ?? "", current);
      await response.body?.cancel();
      if (stop(next)) return { url: next };
      current = next;
      response = await this.request(current.href);
    }
    return { response, url: current };
  }

  /** On the provider's login page: submits its form as `login`, then follows until `stop` (or the end). */
  async signInAtProvider(page: Response, pageUrl: URL, login: string, stop?: (url: URL) => boolean) {
    const html = await page.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (!action) throw new Error(`no login form at ${pageUrl.href}: ${html.slice(0, 300)}`);
    const form = new URLSearchParams({ prompt: "login", login, password: "any-password" });
    return this.follow(
      new URL(action, pageUrl).href,
      { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: form.toString() },
      stop,
    );
  }
}
