// createTestGateway: an in-process gateway on a fresh database, called through fetch(new Request(...)).
import { loadConfig } from "../../src/config/config.ts";
import { createGateway, type Gateway } from "../../src/server/gateway.ts";
import { createTestDatabase, type Provider } from "./databases.ts";

export const ADMIN = { username: "admin", password: "admin-password-1" };

export type TestGateway = {
  gateway: Gateway;
  env: Record<string, string>;
  request(path: string, init?: RequestInit & { json?: unknown; address?: string }): Promise<Response>;
  json<T = Record<string, unknown>>(
    path: string,
    init?: RequestInit & { json?: unknown; address?: string },
  ): Promise<{ status: number; body: T; headers: Headers }>;
  graphql<T = Record<string, unknown>>(
    query: string,
    variables?: Record<string, unknown>,
    token?: string,
  ): Promise<{ status: number; body: { data?: T; errors?: { message: string; extensions?: { code?: string } }[] } }>;
  login(username?: string, password?: string): Promise<string>;
  /** Creates each user (password `<name>-password`) as the admin; answers their tokens by name. */
  users(...names: string[]): Promise<Record<string, string>>;
  close(): Promise<void>;
};

export async function createTestGateway(provider: Provider, extraEnv: Record<string, string> = {}): Promise<TestGateway> {
  const database = await createTestDatabase(provider);
  const env = {
    ...database.env,
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? "silent",
    ...extraEnv,
  };
  const gateway = await createGateway(loadConfig(env));

  const request: TestGateway["request"] = (path, init = {}) => {
    const { json, address, ...rest } = init;
    const headers = new Headers(rest.headers);
    if (json !== undefined && !headers.has("content-type")) headers.set("content-type", "application/json");
    const body = json !== undefined ? JSON.stringify(json) : rest.body;
    return gateway.fetch(new Request(`http://gateway.test${path}`, { ...rest, headers, ...(body !== undefined ? { body } : {}) }), {
      clientAddress: address ?? "127.0.0.1",
    });
  };

  const json: TestGateway["json"] = async (path, init) => {
    const response = await request(path, init);
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : {}) as never, headers: response.headers };
  };

  const graphql: TestGateway["graphql"] = async (query, variables, token) => {
    const response = await request("/graphql", {
      method: "POST",
      json: { query, variables },
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    return { status: response.status, body: (await response.json()) as never };
  };

  const login: TestGateway["login"] = async (username = ADMIN.username, password = ADMIN.password) => {
    const { status, body } = await json<{ token: string }>("/api-token-auth/", { method: "POST", json: { username, password } });
    if (status !== 200) throw new Error(`login failed: ${status} ${JSON.stringify(body)}`);
    return body.token;
  };

  const users: TestGateway["users"] = async (...names) => {
    const admin = await login();
    const tokens: Record<string, string> = {};
    for (const username of names) {
      await graphql(
        `mutation($i: CreateUserInput!) { createUser(input: $i) { id } }`,
        { i: { username, password: `${username}-password` } },
        admin,
      );
      tokens[username] = await login(username, `${username}-password`);
    }
    return tokens;
  };

  return {
    gateway,
    env,
    request,
    json,
    graphql,
    login,
    users,
    async close() {
      await gateway.close();
      await database.drop();
    },
  };
}
