// The fuzzing suites' world: an in-process gateway with a user, a file, a dataset and a live session, and the one
// property every answer must hold: a status below 500, no stack trace, no file path, and an answer within the limits.
import { expect } from "vitest";
import { csvEdgeDataset } from "../helpers/datasets.ts";
import { createTestGateway, type TestGateway } from "../helpers/gateway.ts";

/** One seed for every suite, so a failure replays; raise FUZZ_RUNS (a multiplier) to search further. */
export const FUZZ_SEED = 18;
export const runs = (n: number) => Math.max(1, Math.round(n * Number(process.env.FUZZ_RUNS ?? "1")));

/** The longest any one answer may take: past the limits below (on a loaded CI machine too), far below a hang. */
const ANSWER_WITHIN_MS = 30_000;

export type FuzzWorld = {
  t: TestGateway;
  admin: string;
  user: string;
  fileId: string;
  datasetId: string;
  sessionId: string;
  close(): Promise<void>;
};

const EDGES = "s,d,w,kind\na,b,1.5,x\nb,c,2,y\nc,a,0.5,x\nc,d,3,y\nd,d,1,x\n";

export async function createFuzzWorld(): Promise<FuzzWorld> {
  // Time limits a tiny graph never reaches once warm, even on a loaded machine: a 504 here would be a real hang.
  const t = await createTestGateway("sqlite", { GFQL_TIMEOUT_MS: "20000", MCP_TOOL_TIMEOUT_MS: "20000", PARSE_TIMEOUT_SECONDS: "20" });
  const admin = await t.login();
  const user = (await t.users("fuzzer")).fuzzer as string;
  const datasetId = await csvEdgeDataset(t, user, EDGES);
  const file = await t.json<{ file_id: string }>("/api/v2/files/", {
    method: "POST",
    headers: { authorization: `Bearer ${user}` },
    json: { file_type: "csv" },
  });
  const session = await t.graphql<{ openVizSession: { id: string } }>(
    "mutation($d: ID!) { openVizSession(datasetId: $d) { id } }",
    { d: datasetId },
    user,
  );
  const sessionId = session.body.data?.openVizSession.id as string;
  expect(sessionId).toBeTruthy();
  // The first query starts the GFQL worker (polars loads in it): warm it before anything is timed.
  const warm = await t.graphql("query($d: ID!) { gfql(datasetId: $d, query: []) { nodeCount } }", { d: datasetId }, user);
  expect(warm.body.errors).toBeUndefined();
  return { t, admin, user, fileId: file.body.file_id, datasetId, sessionId, close: () => t.close() };
}

/** A stack frame ("    at fn (file.ts:1:2)") or a path on this machine in an answer. */
const LEAKS = [
  /\n\s+at \S/,
  /\bat \S+ \([^)]*:\d+:\d+\)/,
  /file:\/\//,
  /node_modules/,
  /\/work\/main|\/home\/|\/usr\/lib\//,
  /\.(ts|js|mjs|cjs):\d+/,
];

export type Answer = { status: number; text: string; headers: Headers };

/**
 * Sends the request to the in-process gateway and checks the property: never a 5xx, never a stack trace or a file
 * path, never longer than ANSWER_WITHIN_MS. Answers what came back for further checks.
 */
export async function probe(world: FuzzWorld, request: Request, label = ""): Promise<Answer> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ANSWER_WITHIN_MS} ms: ${label}`)), ANSWER_WITHIN_MS);
  });
  try {
    const response = await Promise.race([world.t.gateway.fetch(request, { clientAddress: "127.0.0.1" }), hang]);
    const text = await Promise.race([response.text(), hang]);
    const where = `${request.method} ${request.url} ${label} -> ${response.status} ${text.slice(0, 300)}`;
    expect(response.status, where).toBeLessThan(500);
    for (const leak of LEAKS) expect(text, where).not.toMatch(leak);
    return { status: response.status, text, headers: response.headers };
  } finally {
    clearTimeout(timer);
  }
}

/** After a suite: the service still answers its health check. */
export async function expectHealthy(world: FuzzWorld): Promise<void> {
  const response = await world.t.request("/healthz");
  expect(response.status).toBe(200);
  const graphql = await world.t.graphql("{ caller { id } }", {}, world.user);
  expect(graphql.status).toBe(200);
}

/**
 * Opens the user's page on the session as graph.html does (a subscription, here over SSE in process), so that the
 * tool endpoint finds its owner present; answers how to close it.
 */
export async function openOwnerPage(world: FuzzWorld): Promise<() => Promise<void>> {
  const response = await world.t.gateway.fetch(
    new Request("http://gateway.test/graphql", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/event-stream", authorization: `Bearer ${world.user}` },
      body: JSON.stringify({ query: "subscription($id: ID!) { vizSessionChanged(id: $id) { kind } }", variables: { id: world.sessionId } }),
    }),
    { clientAddress: "127.0.0.1" },
  );
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  void reader.read().catch(() => {});
  for (let i = 0; i < 100; i += 1) {
    const seen = await world.t.graphql<{ vizSession: { ownerAvailable: boolean } }>(
      "query($id: ID!) { vizSession(id: $id) { ownerAvailable } }",
      { id: world.sessionId },
      world.user,
    );
    if (seen.body.data?.vizSession.ownerAvailable) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return async () => {
    await reader.cancel().catch(() => {});
  };
}
