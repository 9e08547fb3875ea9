// bench/mcp: latency of the /mcp tool endpoint on a 1M-edge dataset: query_graph (shape of a 1-hop chain, and nodes of
// a 2-hop chain) and create_collection, with 1, 16 and 64 concurrent clients, each on its own transport session with a
// personal key, while the owner's page (a graphql-ws subscription with the page's own document: each change event
// answers the session's revision and its collections) keeps the session open. Prints p50, p99 and calls/s.
// Every call asks a question never asked before in the run (a window of node ids that moves from call to call, all
// windows the same width, so every question is of the same size); the answer cache is shown by a row of its own,
// last, asking one question again and again. The load average is printed before and after, and each row's server CPU
// per call (main thread and workers, from /proc) beside its wall-clock figures. Each row times its calls with the load
// standing at that many clients (see standing(); BENCH_BURST=1 starts them all at once instead, ramp included). The
// bench's own heap is collected
// before each row, so that no collection of its setup's garbage (the 1M-edge table it built) pauses its clients inside
// a timed row (one such pause, 89 ms, was seen in a 64-client row's p99).
// Run: node bench/mcp.ts [edges] [calls per client at 16 clients]   (defaults 1000000 and 40; 1 client makes 3x as
// many calls, 64 clients half as many each). BENCH_CASES=shape (or nodes, collection, cache) runs those rows only;
// BENCH_BURST=1 as above.
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { Agent, type IncomingHttpHeaders, request } from "node:http";
import os from "node:os";
import path from "node:path";
import v8 from "node:v8";
import vm from "node:vm";
import { createClient } from "graphql-ws";
import { CHANGED_SUBSCRIPTION } from "../web/src/live-updates.ts";
import { edgeTable, startBenchServer, writeAs } from "./lib.ts";
import { loadAverageLine } from "./load-average.ts";

const EDGES = Number(process.argv[2] ?? 1_000_000);
v8.setFlagsFromString("--expose-gc");
/** A full collection of the bench's own heap (not the server's). */
const collectGarbage = vm.runInNewContext("gc") as () => void;
/** BENCH_BURST=1: each row's clients start all at once (see burst()); by default the load is standing (see standing()). */
const BURST = process.env.BENCH_BURST === "1";
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

type Call = (name: string, args: Record<string, unknown>) => Promise<number>;
type Make = () => [string, Record<string, unknown>];
type Row = { latencies: number[]; seconds: number; answered: number; cpuMs: number };

/**
 * The load standing: every client calls again as soon as it is answered. Timed are the first `perClient` x clients
 * calls started once every client has been answered once (each client's first call, on a transport session of its
 * own, is untimed), and the clients go on calling, untimed, until the last timed call is answered: every timed call
 * meets the full load, none the ramp-up of all clients starting at once nor the ramp-down of clients finishing.
 * Calls/s and server CPU per call count every call answered between the first timed call's start and the last timed
 * call's answer.
 */
async function standing(callers: Call[], make: Make, perClient: number): Promise<Row> {
  const total = perClient * callers.length;
  const latencies: number[] = [];
  let ready = 0;
  let started = 0;
  let answeredInWindow = 0;
  let windowStart = 0;
  let windowEnd = 0;
  let cpuBefore = 0;
  let cpuAfter = 0;
  await Promise.all(
    callers.map(async (call) => {
      let first = true;
      while (latencies.length < total) {
        const timed = windowStart > 0 && started < total;
        if (timed) started++;
        const ms = await call(...make());
        if (windowStart > 0 && windowEnd === 0) answeredInWindow++;
        if (timed) {
          latencies.push(ms);
          if (latencies.length === total) {
            windowEnd = performance.now();
            cpuAfter = serverCpuMs();
          }
        }
        if (first) {
          first = false;
          if (++ready === callers.length) {
            cpuBefore = serverCpuMs();
            windowStart = performance.now();
          }
        }
      }
    }),
  );
  return { latencies, seconds: (windowEnd - windowStart) / 1000, answered: answeredInWindow, cpuMs: cpuAfter - cpuBefore };
}

/**
 * BENCH_BURST=1: the clients start together. Each makes one untimed call, all at once; once all are answered, all
 * start their timed calls at the same moment and stop after `perClient` each (the ramp-up and ramp-down are timed).
 */
async function burst(callers: Call[], make: Make, perClient: number): Promise<Row> {
  await Promise.all(callers.map((call) => call(...make())));
  const latencies: number[] = [];
  const cpuBefore = serverCpuMs();
  const start = performance.now();
  await Promise.all(
    callers.map(async (call) => {
      for (let i = 0; i < perClient; i++) latencies.push(await call(...make()));
    }),
  );
  return { latencies, seconds: (performance.now() - start) / 1000, answered: latencies.length, cpuMs: serverCpuMs() - cpuBefore };
}

/** A POST over a kept-alive connection with node:http: the benchmark's own clients should cost the machine little. */
const agent = new Agent({ keepAlive: true, maxSockets: 64 });
/** Requests sent again because a kept-alive connection was closed by the server as they went out (printed at the end). */
let resent = 0;
function post(
  headers: Record<string, string>,
  body: string,
  again = true,
): Promise<{ status: number; headers: IncomingHttpHeaders; text: string }> {
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
    req.on("error", (error: NodeJS.ErrnoException) => {
      // A reused connection reset: most likely the race node:http's documentation describes (the server closed the
      // pooled connection for idleness just as the request went out). Sent once more; anything else fails the run.
      if (again && req.reusedSocket && error.code === "ECONNRESET") {
        resent += 1;
        post(headers, body, false).then(resolve, reject);
      } else reject(error);
    });
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

/**
 * CPU the server process (its main thread and GFQL workers) spent, in ms, from /proc (Linux; NaN elsewhere): per
 * call, it tells what a call costs the server when other work on the machine stretches the wall-clock figures.
 */
const serverCpuMs = (): number => {
  try {
    const fields = readFileSync(`/proc/${bench.server.child.pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return Number.NaN;
  }
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
    // The page's own subscription (the session's revision and its collections after each change), as a real page
    // asks it with every change event.
    { query: CHANGED_SUBSCRIPTION, variables: { id: sessionId } },
    { next: () => {}, error: () => {}, complete: () => {} },
  );
  const { createPersonalKey } = await gql<{ createPersonalKey: { credential: string } }>(
    `mutation { createPersonalKey(name: "bench") { credential } }`,
  );
  await new Promise((resolve) => setTimeout(resolve, 300));

  // Each call asks a question never asked before in the run: ids in a window [s, s + width) whose start moves by a
  // prime stride modulo the id range (distinct for the first ~99,000 questions), so every question has the same size.
  const nodeIds = EDGES / 10;
  let asked = 0;
  const windowOf = (width: number) => {
    const s = (asked++ * 7919) % (nodeIds - 1000);
    return { type: "Between", lower: s, upper: s + width - 1 };
  };
  const oneHop = () =>
    JSON.stringify([
      { type: "Node", filter_dict: { node: windowOf(1000) } },
      { type: "Edge", direction: "forward", edge_match: { weight: { type: "GT", val: 0.5 } } },
      { type: "Node" },
    ]);
  const twoHop = () =>
    JSON.stringify([
      { type: "Node", filter_dict: { node: windowOf(100) } },
      { type: "Edge", direction: "forward", hops: 2 },
      { type: "Node" },
    ]);
  const repeated = JSON.stringify([
    { type: "Node", filter_dict: { node: { type: "Between", lower: nodeIds - 1000, upper: nodeIds - 1 } } },
    { type: "Edge", direction: "forward", edge_match: { weight: { type: "GT", val: 0.5 } } },
    { type: "Node" },
  ]);
  const cases: Array<[string, () => [string, Record<string, unknown>]]> = [
    ["query_graph shape, 1-hop chain", () => ["query_graph", { session_id: sessionId, gfql_operations: oneHop() }]],
    ["query_graph nodes, 2-hop chain", () => ["query_graph", { session_id: sessionId, gfql_operations: twoHop(), output_type: "nodes" }]],
    [
      "create_collection, 1-hop chain",
      () => ["create_collection", { session_id: sessionId, name: `c${asked}`, gfql_operations: oneHop(), node_color: "#ff8800" }],
    ],
    [
      "query_graph shape, one question repeated (the answer cache)",
      () => ["query_graph", { session_id: sessionId, gfql_operations: repeated }],
    ],
  ];
  const loadLine = loadAverageLine();

  lines.push(
    `| tool call (${(EDGES / 1e6).toFixed(1)}M edges) | clients | calls | p50 ms | p99 ms | calls/s | server CPU ms/call |`,
    "|---|---:|---:|---:|---:|---:|---:|",
  );
  // BENCH_CASES=shape,collection runs only the rows whose label holds one of the words (to profile one kind of call).
  const only = process.env.BENCH_CASES?.split(",").filter(Boolean);
  for (const [label, make] of cases.filter(([label]) => !only || only.some((word) => label.includes(word)))) {
    for (const clients of [1, 16, 64]) {
      const calls = clients === 1 ? CALLS_AT_16 * 3 : clients === 64 ? Math.max(1, Math.round(CALLS_AT_16 / 2)) : CALLS_AT_16;
      const callers = await Promise.all(Array.from({ length: clients }, () => assistant(createPersonalKey.credential)));
      collectGarbage();
      const { latencies, seconds, answered, cpuMs } = BURST ? await burst(callers, make, calls) : await standing(callers, make, calls);
      const cpuPerCall = cpuMs / answered;
      lines.push(
        `| ${label} | ${clients} | ${latencies.length} | ${percentile(latencies, 50).toFixed(1)} | ${percentile(latencies, 99).toFixed(1)} | ${(answered / seconds).toFixed(1)} | ${cpuPerCall.toFixed(2)} |`,
      );
      console.error(lines.at(-1));
    }
  }
  if (resent > 0) lines.push("", `${resent} requests sent again: a kept-alive connection was closed by the server as they went out`);
  lines.push("", `${loadLine()}; ${os.cpus().length} cores, node ${process.version}`);
  stopPage();
  await page.dispose();
} finally {
  await bench.server.stop();
  await rm(work, { recursive: true, force: true });
}
console.log(lines.join("\n"));
