// Who manages SSO providers, over GraphQL and the command line: site admins every one; an organization's owners and
// admins that organization's only (not site-wide ones, not another organization's); its members and outsiders none.
// And the failures of pygraphistry's SSO routes in its own shape, {"status":"ERR","message":...}, at the usual status.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { main } from "../../src/cli/main.ts";
import { loadConfig } from "../../src/config/config.ts";
import { Agent, CLIENT, CREATE_PROVIDER, startWorld, type World } from "./sso-world.ts";

const SETTINGS = "{ ssoProviderSettings { name organization } }";
const UPDATE = `mutation($n: String!) { updateSsoProvider(name: $n, input: { displayName: "Renamed" }) { name displayName } }`;
const DELETE = `mutation($n: String!) { deleteSsoProvider(name: $n) }`;

describe("SSO providers managed by organization owners and admins", () => {
  let world: World;
  const tokens: Record<string, string> = {};

  /** Organization admins register https issuers (the test's own provider, http on localhost, is for site admins). */
  const HTTPS_ISSUER = "https://idp.acme.example";
  const input = (name: string, organization?: string, issuer = HTTPS_ISSUER) => ({
    input: { name, issuer, clientId: CLIENT.id, clientSecret: CLIENT.secret, ...(organization ? { organization } : {}) },
  });
  const codeOf = (answer: { errors?: { extensions?: { code?: string } }[] }) => answer.errors?.[0]?.extensions?.code;

  beforeAll(async () => {
    world = await startWorld("sqlite");
    const admin = world.adminToken;
    for (const username of ["owner", "orgadmin", "member", "rival"]) {
      const made = await world.graphql(
        `mutation($i: CreateUserInput!) { createUser(input: $i) { id } }`,
        { i: { username, password: `${username}-password` } },
        admin,
      );
      expect(made.errors).toBeUndefined();
      const login = await fetch(`${world.base}/api-token-auth/`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ username, password: `${username}-password` }),
      });
      tokens[username] = ((await login.json()) as { token: string }).token;
    }
    // acme: owner, an admin and a member; rival-org: rival is its owner (an admin, but of another organization).
    await world.graphql(`mutation { createOrganization(slug: "acme") { slug } }`, {}, tokens.owner);
    await world.graphql(`mutation { createOrganization(slug: "rival-org") { slug } }`, {}, tokens.rival);
    for (const [username, role] of [
      ["orgadmin", "ADMIN"],
      ["member", "MEMBER"],
    ])
      expect(
        (
          await world.graphql(
            `mutation($u: String!, $r: OrganizationRole!) { setOrganizationMember(slug: "acme", username: $u, role: $r) { role } }`,
            { u: username, r: role },
            tokens.owner,
          )
        ).errors,
      ).toBeUndefined();
    for (const [name, organization] of [
      ["site-idp", undefined],
      ["rival-idp", "rival-org"],
    ] as const)
      expect((await world.graphql(CREATE_PROVIDER, input(name, organization), world.adminToken)).errors).toBeUndefined();
  }, 60_000);

  afterAll(async () => {
    await world?.close();
  });

  it("lets an organization's admin and owner add, list, change and remove its providers over GraphQL", async () => {
    const created = await world.graphql<{ createSsoProvider: { name: string; organization: string } }>(
      CREATE_PROVIDER,
      input("acme-admin-idp", "acme"),
      tokens.orgadmin,
    );
    expect(created.errors).toBeUndefined();
    expect(created.data?.createSsoProvider.organization).toBe("acme");
    expect((await world.graphql(CREATE_PROVIDER, input("acme-owner-idp", "acme"), tokens.owner)).errors).toBeUndefined();

    // Their settings list: acme's providers only, not the site's or rival-org's.
    const listed = await world.graphql<{ ssoProviderSettings: { name: string; organization: string | null }[] }>(
      SETTINGS,
      {},
      tokens.orgadmin,
    );
    expect(listed.data?.ssoProviderSettings.map((p) => p.name).sort()).toEqual(["acme-admin-idp", "acme-owner-idp"]);
    const all = await world.graphql<{ ssoProviderSettings: { name: string }[] }>(SETTINGS, {}, world.adminToken);
    expect(all.data?.ssoProviderSettings.map((p) => p.name)).toEqual(expect.arrayContaining(["site-idp", "rival-idp", "acme-admin-idp"]));

    const renamed = await world.graphql<{ updateSsoProvider: { displayName: string } }>(UPDATE, { n: "acme-owner-idp" }, tokens.orgadmin);
    expect(renamed.data?.updateSsoProvider.displayName).toBe("Renamed");
    expect((await world.graphql(DELETE, { n: "acme-owner-idp" }, tokens.owner)).data).toEqual({ deleteSsoProvider: true });
    // The site admin points it at the test's provider (http on localhost): it signs people in, into acme.
    const pointed = await world.graphql(
      `mutation($n: String!, $i: String!) { updateSsoProvider(name: $n, input: { issuer: $i }) { name } }`,
      { n: "acme-admin-idp", i: world.idp.issuer },
      world.adminToken,
    );
    expect(pointed.errors).toBeUndefined();
    const reached = await new Agent().follow(`${world.base}/sso/oidc/login/acme-admin-idp/`);
    expect(reached.url.origin).toBe(world.idp.issuer);
  });

  it("keeps organization admins to https issuers: http on localhost would reach this machine's own services", async () => {
    const local = await world.graphql(CREATE_PROVIDER, input("x-local", "acme", "http://127.0.0.1:6379"), tokens.orgadmin);
    expect(codeOf(local)).toBe("INVALID_INPUT");
    const repointed = await world.graphql(
      `mutation($n: String!, $i: String!) { updateSsoProvider(name: $n, input: { issuer: $i }) { name } }`,
      { n: "acme-admin-idp", i: "http://localhost:8080" },
      tokens.orgadmin,
    );
    expect(codeOf(repointed)).toBe("INVALID_INPUT");
  });

  it("refuses site-wide providers and other organizations' to organization admins, and every provider to members and outsiders", async () => {
    // An organization admin: not site-wide, not another organization's.
    expect(codeOf(await world.graphql(CREATE_PROVIDER, input("x-site"), tokens.orgadmin))).toBe("FORBIDDEN");
    expect(codeOf(await world.graphql(CREATE_PROVIDER, input("x-site-local", undefined, world.idp.issuer), tokens.orgadmin))).toBe(
      "FORBIDDEN",
    );
    expect(codeOf(await world.graphql(CREATE_PROVIDER, input("x-rival", "rival-org"), tokens.orgadmin))).toBe("FORBIDDEN");
    expect(codeOf(await world.graphql(UPDATE, { n: "site-idp" }, tokens.orgadmin))).toBe("FORBIDDEN");
    expect(codeOf(await world.graphql(UPDATE, { n: "rival-idp" }, tokens.orgadmin))).toBe("FORBIDDEN");
    expect(codeOf(await world.graphql(DELETE, { n: "rival-idp" }, tokens.orgadmin))).toBe("FORBIDDEN");
    // Another organization's admin (rival owns rival-org) cannot touch acme's.
    expect(codeOf(await world.graphql(CREATE_PROVIDER, input("x-acme", "acme"), tokens.rival))).toBe("FORBIDDEN");
    expect(codeOf(await world.graphql(DELETE, { n: "acme-admin-idp" }, tokens.rival))).toBe("FORBIDDEN");
    // A plain member manages nothing, and sees no settings.
    expect(codeOf(await world.graphql(CREATE_PROVIDER, input("x-member", "acme"), tokens.member))).toBe("FORBIDDEN");
    expect(codeOf(await world.graphql(UPDATE, { n: "acme-admin-idp" }, tokens.member))).toBe("FORBIDDEN");
    expect(codeOf(await world.graphql(SETTINGS, {}, tokens.member))).toBe("FORBIDDEN");
    expect(codeOf(await world.graphql(SETTINGS, {}))).toBe("UNAUTHENTICATED");
    // Nothing of it happened.
    const names = (await world.graphql<{ ssoProviderSettings: { name: string; displayName: string }[] }>(SETTINGS, {}, world.adminToken))
      .data?.ssoProviderSettings;
    expect(names?.map((p) => p.name)).not.toEqual(expect.arrayContaining(["x-site"]));
    expect(names?.filter((p) => p.name.startsWith("x-"))).toEqual([]);
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

  it("does the same from the command line with --as USERNAME", async () => {
    const common = ["--issuer", HTTPS_ISSUER, "--client-id", CLIENT.id, "--client-secret", CLIENT.secret];
    const added = await cli("sso", "add", "--as", "orgadmin", "--name", "acme-cli-idp", "--org", "acme", ...common);
    expect(added).toMatchObject({ code: 0 });
    expect(added.out).toContain("acme-cli-idp");
    const listed = await cli("sso", "list", "--as", "orgadmin");
    expect(listed.code).toBe(0);
    expect(listed.out).toContain("acme-cli-idp");
    expect(listed.out).not.toContain("site-idp");
    expect(listed.out).not.toContain("rival-idp");
    expect(listed.out).not.toContain(CLIENT.secret);
    expect((await cli("sso", "update", "--as", "owner", "--name", "acme-cli-idp", "--display-name", "CLI")).code).toBe(0);

    const refused = await cli("sso", "add", "--as", "member", "--name", "x-cli", "--org", "acme", ...common);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain("owners and admins");
    expect((await cli("sso", "add", "--as", "orgadmin", "--name", "x-cli-site", ...common)).code).toBe(1);
    expect((await cli("sso", "remove", "--as", "rival", "--name", "acme-cli-idp")).code).toBe(1);
    expect((await cli("sso", "list", "--as", "member")).code).toBe(1);
    expect((await cli("sso", "list", "--as", "nobody")).code).toBe(1);

    expect((await cli("sso", "remove", "--as", "orgadmin", "--name", "acme-cli-idp")).code).toBe(0);
    // Without --as the command line is the site's operator.
    const site = await cli("sso", "list");
    expect(site.out).toContain("site-idp");
    expect(site.out).not.toContain("acme-cli-idp");
  });
});

describe("pygraphistry's SSO routes answer failures in its shape", () => {
  let world: World;
  type Failure = { status?: string; message?: string; error?: { code: string }; success?: boolean };

  beforeAll(async () => {
    world = await startWorld("sqlite");
    await world.services.db.organization.create({ data: { slug: "acme", name: "Acme" } });
    const common = { issuer: world.idp.issuer, clientId: CLIENT.id, clientSecret: CLIENT.secret };
    expect(
      (await world.graphql(CREATE_PROVIDER, { input: { name: "acme-idp", organization: "acme", ...common } }, world.adminToken)).errors,
    ).toBeUndefined();
  }, 60_000);

  afterAll(async () => {
    await world?.close();
  });

  const pygraphistry = {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "client-type=pygraphistry",
  };

  async function failure(path: string, init: RequestInit = {}): Promise<{ status: number; body: Failure }> {
    const response = await fetch(`${world.base}${path}`, { redirect: "manual", ...init });
    return { status: response.status, body: (await response.json()) as Failure };
  }

  function expectErr(answer: { status: number; body: Failure }, status: number, code: string): void {
    expect(answer.status).toBe(status);
    expect(answer.body.status).toBe("ERR");
    expect(typeof answer.body.message).toBe("string");
    expect(answer.body.message?.length).toBeGreaterThan(0);
    expect(answer.body.error?.code).toBe(code);
  }

  it("answers {status: ERR, message} on the api/v2/g and api/v2/o login routes, with the same statuses as before", async () => {
    // No site-wide provider is configured: 404, whether posted by pygraphistry or opened by a browser.
    expectErr(await failure("/api/v2/g/sso/oidc/login/", pygraphistry), 404, "NOT_FOUND");
    expectErr(await failure("/api/v2/g/sso/oidc/login"), 404, "NOT_FOUND");
    expectErr(await failure("/api/v2/o/no-such-org/sso/oidc/login/", pygraphistry), 404, "NOT_FOUND");
    expectErr(await failure("/api/v2/o/acme/sso/oidc/login/no-such-idp/", pygraphistry), 404, "NOT_FOUND");
    // A body that is not what the route takes: 400, still in pygraphistry's shape.
    expectErr(
      await failure("/api/v2/o/acme/sso/oidc/login/", { method: "POST", headers: { "content-type": "application/json" }, body: "[1]" }),
      400,
      "INVALID_INPUT",
    );
  });

  it("answers {status: ERR, message} from the JWT routes: unknown state 404, collected twice 409", async () => {
    expectErr(await failure("/sso/oidc/jwt/no-such-state/"), 404, "NOT_FOUND");
    expectErr(await failure("/api/v2/o/sso/oidc/jwt/no-such-state/"), 404, "NOT_FOUND");

    const started = (await (await fetch(`${world.base}/api/v2/o/acme/sso/oidc/login/`, pygraphistry)).json()) as {
      data: { state: string; auth_url: string };
    };
    const browser = new Agent();
    const atProvider = await browser.follow(started.data.auth_url);
    await browser.signInAtProvider(atProvider.response as Response, atProvider.url, "alice");
    const jwt = `/api/v2/o/sso/oidc/jwt/${started.data.state}/`;
    const first = await fetch(`${world.base}${jwt}`);
    expect(first.status).toBe(200);
    expect(((await first.json()) as { status: string }).status).toBe("OK");
    expectErr(await failure(jwt), 409, "CONFLICT");
  });

  it("answers {status: ERR, message} to a pygraphistry POST on the organization route, and the common shape to a browser there", async () => {
    expectErr(await failure("/sso/oidc/login/no-such-idp/", pygraphistry), 404, "NOT_FOUND");
    const browser = await failure("/sso/oidc/login/no-such-idp/");
    expect(browser.status).toBe(404);
    expect(browser.body.success).toBe(false);
    expect(browser.body.error?.code).toBe("NOT_FOUND");
    expect(browser.body.status).toBeUndefined();
  });
});
