// bench/mcp: latency of the /mcp tool endpoint on a 1M-edge dataset: query_graph (shape of a 1-hop chain, and nodes of
// a 2-hop chain) and create_collection, with 1 and 16 concurrent clients, each on its own transport session with a
// personal key, while the owner's page (a graphql-ws subscription) keeps the session open. Prints p50 and p99.
// Run: node bench/mcp.ts [edges] [calls per client at 16 clients]   (defaults 1000000 and 40).
import { mkdtemp, rm } from "node:fs/promises";
import { Agent, type IncomingHttpHeaders, request } from "node:http";
import os from "node:os";
import path from "node:path";
import { createClient } from "graphql-ws";
import { edgeTable, startBenchServer, writeAs } from "./lib.ts";

const EDGES = Number(process.argv[2] ?? 1_000_000);
const CALLS_AT_16 = Number(process.argv[3] ?? 40);
const work = await mkdtemp(path.join(os.tmpdir(), "bench-mcp-"));
const bench = await startBenchServer(path.join(work, "data"));
const url = `${bench.server.url}/mcp`;

const gql = async <T>(query: string, variables: Record<string, unknown> = {}) => {
  const answer = await bench.json("/graphql", {
    method: "POST",
    headers: { ...bench.auth, "content-type": "application/json" },
    body: JSON.stringify({ query, variables }),
  });
  if (answer.errors) throw new Error(JSON.stringify(answer.errors));
  return answer.data as T;
};

async function dataset(): Promise<string> {
  const file = writeAs(edgeTable(EDGES), work, "parquet");
  const json = (body: unknown) => ({
    method: "POST",
    headers: { ...bench.auth, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const created = await bench.json("/api/v2/files/", json({ file_type: "parquet" }));
  await bench.upload(`/api/v2/upload/files/${created.file_id}?erase=true`, file);
  const made = await bench.json(
    "/api/v2/upload/datasets/",
    json({
      name: "bench-mcp",
      metadata: {},
      node_encodings: { bindings: {} },
      edge_encodings: { bindings: { source: "src", destination: "dst" } },
      edge_files: [created.file_id],
    }),
  );
  return String((made.data as { dataset_id: string }).dataset_id);
}

/** A POST over a kept-alive connection with node:http: the benchmark's own clients should cost the machine little. */
const agent = new Agent({ keepAlive: true, maxSockets: 64 });
function post(headers: Record<string, string>, body: string): Promise<{ status: number; headers: IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: "POST", agent, headers: { ...headers, "content-length": String(Buffer.byteLength(body)) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString() }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** One assistant: its own transport session, sending tools/call as plain HTTP, as a lean client does. */
async function assistant(key: string) {
  const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
  const init = await post(
    headers,
    JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "1" } },
    }),
  );
  const session = String(init.headers["mcp-session-id"] ?? "");
  let id = 1;
  const callHeaders = { ...headers, "mcp-session-id": session, authorization: `Bearer ${key}`, "mcp-protocol-version": "2025-06-18" };
  return async (name: string, args: Record<string, unknown>): Promise<number> => {
    const start = performance.now();
    const response = await post(
      callHeaders,
      JSON.stringify({ jsonrpc: "2.0", id: id++, method: "tools/call", params: { name, arguments: args } }),
    );
    const body = JSON.parse(response.text) as { result?: { content: { text: string }[] }; error?: unknown };
    const elapsed = performance.now() - start;
    const text = body.result?.content[0]?.text ?? "";
    if (response.status !== 200 || body.error || text.startsWith('{"error"'))
      throw new Error(`${name}: ${response.status} ${response.text}`);
    return elapsed;
  };
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
};

const lines: string[] = [];
try {
  const datasetId = await dataset();
  const { openVizSession } = await gql<{ openVizSession: { id: string } }>(`mutation($d: ID!) { openVizSession(datasetId: $d) { id } }`, {
    d: datasetId,
  });
  const sessionId = openVizSession.id;
  const page = createClient({ url: `${bench.server.url.replace("http", "ws")}/graphql`, connectionParams: bench.auth });
  const stopPage = page.subscribe(
    { query: `subscription($id: ID!) { vizSessionChanged(id: $id) { kind } }`, variables: { id: sessionId } },
    { next: () => {}, error: () => {}, complete: () => {} },
  );
  const { createPersonalKey } = await gql<{ createPersonalKey: { credential: string } }>(
    `mutation { createPersonalKey(name: "bench") { credential } }`,
  );
  await new Promise((resolve) => setTimeout(resolve, 300));

  // Each call asks a different question (the threshold moves within the same range for 1 and 16 clients, so both
  // ask questions of the same size), so every call runs the engine; one row repeats a query to show the answer cache.
  const spread = (n: number) => (n < 0 ? -1 : n % 1000);
  const oneHop = (n: number) =>
    JSON.stringify([
      { type: "Node", filter_dict: { node: { type: "LT", val: 1000 + spread(n) } } },
      { type: "Edge", direction: "forward", edge_match: { weight: { type: "GT", val: 0.5 } } },
      { type: "Node" },
    ]);
  const twoHop = (n: number) =>
    JSON.stringify([
      { type: "Node", filter_dict: { node: { type: "LT", val: 100 + spread(n) } } },
      { type: "Edge", direction: "forward", hops: 2 },
      { type: "Node" },
    ]);
  const cases: Array<[string, (n: number) => [string, Record<string, unknown>]]> = [
    ["query_graph shape, 1-hop chain", (n) => ["query_graph", { session_id: sessionId, gfql_operations: oneHop(n) }]],
    [
      "query_graph shape, same query repeated (answer cache)",
      () => ["query_graph", { session_id: sessionId, gfql_operations: oneHop(-1) }],
    ],
    ["query_graph nodes, 2-hop chain", (n) => ["query_graph", { session_id: sessionId, gfql_operations: twoHop(n), output_type: "nodes" }]],
    [
      "create_collection, 1-hop chain",
      (n) => ["create_collection", { session_id: sessionId, name: `c${n}`, gfql_operations: oneHop(n), node_color: "#ff8800" }],
    ],
  ];

  lines.push(
    `| tool call (${(EDGES / 1e6).toFixed(1)}M edges) | clients | calls | p50 ms | p99 ms | calls/s |`,
    "|---|---:|---:|---:|---:|---:|",
  );
  for (const [label, make] of cases) {
    for (const clients of [1, 16]) {
      const calls = clients === 1 ? CALLS_AT_16 * 3 : CALLS_AT_16;
      const callers = await Promise.all(Array.from({ length: clients }, () => assistant(createPersonalKey.credential)));
      const [warm] = callers;
      if (warm) await warm(...make(-1));
      const latencies: number[] = [];
      let counter = clients * 1000;
      const start = performance.now();
      await Promise.all(
        callers.map(async (call) => {
          for (let i = 0; i < calls; i++) latencies.push(await call(...make(counter++)));
        }),
      );
      const seconds = (performance.now() - start) / 1000;
      lines.push(
        `| ${label} | ${clients} | ${latencies.length} | ${percentile(latencies, 50).toFixed(1)} | ${percentile(latencies, 99).toFixed(1)} | ${(latencies.length / seconds).toFixed(1)} |`,
      );
      console.error(lines.at(-1));
    }
  }
  stopPage();
  await page.dispose();
} finally {
  await bench.server.stop();
  await rm(work, { recursive: true, force: true });
}
console.log(lines.join("\n"));
