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

  it("never contain cookies, single-use link tokens, SSO client secrets or the passwords of new users", async () => {
    lines.length = 0;
    const seen: string[] = [];
    const form = (fields: Record<string, string>) => ({
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString(),
    });
    const cookieOf = (answer: Response) => (answer.headers.get("set-cookie") ?? "").split(";")[0]?.split("=")[1] ?? "";
    // A browser sign-in, then the cookie on GraphQL and on the page.
    const signIn = await call("/login", form({ username: "root", password: "very-secret-password", next: "/" }));
    const cookie = cookieOf(signIn);
    expect(cookie.length).toBeGreaterThan(10);
    seen.push(cookie);
    const withCookie = { cookie: `${(signIn.headers.get("set-cookie") ?? "").split(";")[0]}` };
    await call("/graphql", json({ query: "{ me { username } }" }, withCookie));
    const { token } = (await (await call("/api-token-auth/", json({ username: "root", password: "very-secret-password" }))).json()) as {
      token: string;
    };
    const auth = { authorization: `Bearer ${token}` };
    // New users' passwords, accepted and refused, and a variable of the wrong type carrying one.
    const create = "mutation($i: CreateUserInput!) { createUser(input: $i) { id } }";
    await call("/graphql", json({ query: create, variables: { i: { username: "viewer", password: "viewer-secret-password" } } }, auth));
    await call("/graphql", json({ query: create, variables: { i: { username: "viewer", password: "dup-secret-password" } } }, auth));
    await call("/graphql", json({ query: create, variables: { i: { username: 7, password: "typed-secret-password" } } }, auth));
    await call("/graphql", json({ query: create, variables: { i: { username: "short", password: "x1" } } }, auth));
    seen.push("viewer-secret-password", "dup-secret-password", "typed-secret-password");
    // An SSO provider whose issuer cannot be reached: the failure is logged, its client secret is not.
    await call(
      "/graphql",
      json(
        {
          query: "mutation($i: SsoProviderInput!) { createSsoProvider(input: $i) { name } }",
          variables: { i: { name: "corp", issuer: "http://127.0.0.1:1/", clientId: "gw", clientSecret: "sso-client-secret-value" } },
        },
        auth,
      ),
    );
    seen.push("sso-client-secret-value");
    // An upload and a dataset, then a single-use link opened by a browser.
    const file = (await (await call("/api/v2/files/", json({ file_type: "csv" }, auth))).json()) as { file_id: string };
    await call(`/api/v2/upload/files/${file.file_id}`, { method: "POST", headers: auth, body: "s,d\na,b\n" });
    const dataset = (await (
      await call(
        "/api/v2/upload/datasets/",
        json(
          {
            name: "g",
            metadata: {},
            node_encodings: { bindings: {} },
            edge_encodings: { bindings: { source: "s", destination: "d" } },
            edge_files: [file.file_id],
          },
          auth,
        ),
      )
    ).json()) as { data: { dataset_id: string } };
    const link = (await (
      await call(`/api/v2/generate/single-use-url/?username=viewer&dataset_id=${dataset.data.dataset_id}`, { headers: auth })
    ).json()) as { single_use_url: string };
    const sst = new URL(link.single_use_url).searchParams.get("sst") ?? "";
    expect(sst.length).toBeGreaterThan(10);
    seen.push(sst);
    const opened = await call(`/magic-login/?sst=${sst}`, {});
    seen.push(cookieOf(opened));
    await call(`/magic-login/?sst=${sst}`, {}); // used once: refused, and logged as such
    // The tool endpoint with the bearer token.
    await call(
      "/mcp",
      json(
        {
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
        },
        { ...auth, accept: "application/json, text/event-stream" },
      ),
    );
    seen.push(token, token.split(".")[2] ?? token);
    const all = lines.join("\n");
    expect(lines.length).toBeGreaterThan(0);
    for (const secretValue of seen.filter(Boolean)) expect(all).not.toContain(secretValue);
  });
});
