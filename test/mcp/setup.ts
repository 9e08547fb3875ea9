// A real HTTP gateway for the tool endpoint tests: alice owns a session on a small graph and has it open (her page's
// subscription marks her present), bob may view it, carol may not; personal keys for each.
import { createClient } from "graphql-ws";
import { loadConfig } from "../../src/config/config.ts";
import { startNodeServer } from "../../src/server/node.ts";
import { createTestDatabase } from "../helpers/databases.ts";
import { csvEdgeDataset } from "../helpers/datasets.ts";
import { ADMIN, type TestGateway } from "../helpers/gateway.ts";

export type McpWorld = {
  /** The server's environment (its DATA_DIR and database), for the command line. */
  env: Record<string, string>;
  url: string;
  base: string;
  sessionId: string;
  datasetId: string;
  /** A path of 40 edges (41 nodes), for row limits. */
  longSessionId: string;
  tokens: Record<"alice" | "bob" | "carol" | "admin", string>;
  keys: Record<"alice" | "bob", string>;
  gql<T = Record<string, unknown>>(
    query: string,
    variables: Record<string, unknown>,
    token: string,
  ): Promise<{ data?: T; errors?: { message: string }[] }>;
  /** Opens the owner's page subscription (marks alice present); returns a function that closes it. */
  openOwnerPage(sessionId?: string): Promise<() => Promise<void>>;
  close(): Promise<void>;
};

/** 5 people, 6 edges: a->b->c->d, e->a, b->e; people carry kind and age. */
const EDGES = "s,d,weight,rel\na,b,1.5,knows\nb,c,2.5,knows\nc,d,3.5,likes\ne,a,4.5,likes\nb,e,5.5,knows\nd,d,0.5,self\n";

export async function createMcpWorld(extraEnv: Record<string, string> = {}): Promise<McpWorld> {
  const database = await createTestDatabase("sqlite");
  const env = {
    ...database.env,
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? "silent",
    PORT: "0",
    HOST: "127.0.0.1",
    SHUTDOWN_GRACE_MS: "200",
    ...extraEnv,
  };
  const running = await startNodeServer(loadConfig(env));
  const base = `http://127.0.0.1:${running.port}`;

  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${base}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
    return (await response.json()) as Record<string, unknown>;
  };
  const gql: McpWorld["gql"] = async (query, variables, token) =>
    (await post("/graphql", { query, variables }, { authorization: `Bearer ${token}` })) as never;
  const login = async (username: string, password: string) => String((await post("/api-token-auth/", { username, password })).token);

  const admin = await login(ADMIN.username, ADMIN.password);
  // alice and bob share an organization; carol does not.
  for (const [username, org] of [
    ["alice", "team"],
    ["bob", "team"],
    ["carol", undefined],
  ] as const) {
    const input = { username, password: `${username}-password`, ...(org ? { org } : {}) };
    await gql(`mutation($i: CreateUserInput!) { createUser(input: $i) { id } }`, { i: input }, admin);
  }
  const tokens = {
    admin,
    alice: await login("alice", "alice-password"),
    bob: await login("bob", "bob-password"),
    carol: await login("carol", "carol-password"),
  };
  const keyOf = async (token: string) => {
    const made = await gql<{ createPersonalKey: { credential: string } }>(
      `mutation { createPersonalKey(name: "mcp") { credential } }`,
      {},
      token,
    );
    return made.data?.createPersonalKey.credential ?? "";
  };
  const keys = { alice: await keyOf(tokens.alice), bob: await keyOf(tokens.bob) };

  // The dataset helper speaks to an in-process gateway; give it the same shape over real HTTP.
  const viaHttp = {
    json: async (path: string, init: { method: string; headers: Record<string, string>; json: unknown }) => {
      const response = await fetch(`${base}${path}`, {
        method: init.method,
        headers: { "content-type": "application/json", ...init.headers },
        body: JSON.stringify(init.json),
      });
      return { status: response.status, body: await response.json(), headers: response.headers };
    },
    request: (path: string, init: { method: string; headers: Record<string, string>; body: string }) => fetch(`${base}${path}`, init),
  } as unknown as TestGateway;
  const datasetId = await csvEdgeDataset(viaHttp, tokens.alice, EDGES);
  await gql(`mutation($d: ID!) { shareDataset(datasetId: $d, mode: "organization") }`, { d: datasetId }, tokens.alice);
  const opened = await gql<{ openVizSession: { id: string } }>(
    `mutation($d: ID!) { openVizSession(datasetId: $d) { id } }`,
    { d: datasetId },
    tokens.alice,
  );
  const sessionId = opened.data?.openVizSession.id ?? "";
  const path = Array.from({ length: 40 }, (_, i) => `n${i},n${i + 1},${i},next`).join("\n");
  const longDataset = await csvEdgeDataset(viaHttp, tokens.alice, `s,d,weight,rel\n${path}\n`);
  await gql(`mutation($d: ID!) { shareDataset(datasetId: $d, mode: "organization") }`, { d: longDataset }, tokens.alice);
  const longOpened = await gql<{ openVizSession: { id: string } }>(
    `mutation($d: ID!) { openVizSession(datasetId: $d) { id } }`,
    { d: longDataset },
    tokens.alice,
  );
  const longSessionId = longOpened.data?.openVizSession.id ?? "";

  async function openOwnerPage(id = sessionId): Promise<() => Promise<void>> {
    const client = createClient({
      url: `ws://127.0.0.1:${running.port}/graphql`,
      connectionParams: { authorization: `Bearer ${tokens.alice}` },
    });
    const stop = client.subscribe(
      { query: `subscription($id: ID!) { vizSessionChanged(id: $id) { kind } }`, variables: { id } },
      { next: () => {}, error: () => {}, complete: () => {} },
    );
    // Wait until the subscription has marked the owner present.
    for (let i = 0; i < 100; i++) {
      const seen = await gql<{ vizSession: { ownerAvailable: boolean } }>(
        `query($id: ID!) { vizSession(id: $id) { ownerAvailable } }`,
        { id },
        tokens.alice,
      );
      if (seen.data?.vizSession.ownerAvailable) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return async () => {
      stop();
      await client.dispose();
    };
  }

  return {
    env,
    url: `${base}/mcp`,
    base,
    sessionId,
    datasetId,
    longSessionId,
    tokens,
    keys,
    gql,
    openOwnerPage,
    async close() {
      await running.stop("test");
      await database.drop();
    },
  };
}
