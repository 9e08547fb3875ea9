// bench/load: the service under steady load. 64 concurrent clients (split over REST, GraphQL and /mcp tool calls) for
// 60 s with autocannon, while rounds of 20 parallel uploads by 4 users run beside them. Prints, per surface, requests
// per second, p50 / p99 latency and errors (connection errors, timeouts, non-2xx answers), the uploads' count, p99 and
// errors, and the server's memory (its RSS plus its parser processes') averaged over the first and the last ten
// seconds and per ten-second window, and its live V8 heap (what a full collection keeps: the self sizes of a heap
// snapshot, taken through --heapsnapshot-signal) after the setup and again after the load. Every request is checked;
// the run fails (exit 1) on any error.
// Before the measured window the same load runs for --warmup seconds (default 60; not measured, but its errors count):
// the server's heaps, code and allocator arenas grow to their working size in the first minute or two, and memory
// flat over the measured window then means nothing accumulates.
// Run: node bench/load.ts [--seconds 60] [--warmup 60] [--connections 64] [--uploads 20] [--upload-rows 20000] [--rate-limits]
//        [--only rest|graphql|mcp]   (every connection on one surface: which one holds memory)
// BENCH_SERVER_LOG=<file> keeps the server's log lines (one per request).
// (--rate-limits keeps the default RATE_LIMIT_* limits, which a single load generator's address soon reaches; without
// it they are off, so the figures are the service's throughput).
import { readFileSync, writeFileSync } from "node:fs";
import { mkdir, mkdtemp, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { createClient } from "graphql-ws";
import { startServer } from "../test/helpers/server-process.ts";

const { values: flags } = parseArgs({
  options: {
    seconds: { type: "string", default: "60" },
    warmup: { type: "string", default: "60" },
    connections: { type: "string", default: "64" },
    uploads: { type: "string", default: "20" },
    "upload-rows": { type: "string", default: "20000" },
    "rate-limits": { type: "boolean", default: false },
    only: { type: "string" },
  },
});
const SECONDS = Number(flags.seconds);
const WARMUP = Number(flags.warmup);
const CONNECTIONS = Number(flags.connections);
const UPLOADS = Number(flags.uploads);
const UPLOAD_ROWS = Number(flags["upload-rows"]);
const USERS = 4;
if (
  ![SECONDS, CONNECTIONS, UPLOADS, UPLOAD_ROWS].every((n) => Number.isInteger(n) && n > 0) ||
  !(Number.isInteger(WARMUP) && WARMUP >= 0)
) {
  console.error("--seconds, --connections, --uploads and --upload-rows take positive integers, --warmup one not below 0");
  process.exit(2);
}

const METRICS_TOKEN = "bench-load-metrics-token";
const work = await mkdtemp(path.join(os.tmpdir(), "bench-load-"));
const noLimits = Object.fromEntries(
  ["LOGIN", "UPLOAD", "QUERY"].flatMap((kind) =>
    [`RATE_LIMIT_${kind}_PER_ADDRESS`, `RATE_LIMIT_${kind}_PER_ACCOUNT`].map((name) => [name, "0"]),
  ),
);
const snapshots = path.join(work, "snapshots");
await mkdir(snapshots);
const server = await startServer({
  // SIGUSR2 writes a heap snapshot (after a full collection) into the snapshots folder: the live heap, garbage left out.
  NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --heapsnapshot-signal=SIGUSR2 --diagnostic-dir=${snapshots}`.trim(),
  DATA_DIR: path.join(work, "data"),
  ADMIN_USERNAME: "bench",
  ADMIN_PASSWORD: "bench-password",
  LOG_LEVEL: "info", // as in production: one access log line per request
  METRICS_TOKEN,
  ...(flags["rate-limits"] ? {} : noLimits),
});
const base = server.url;

async function call(url: string, init: RequestInit & { token?: string } = {}): Promise<Record<string, unknown>> {
  const headers = new Headers(init.headers);
  if (init.token) headers.set("authorization", `Bearer ${init.token}`);
  const answer = await fetch(`${base}${url}`, { ...init, headers });
  const text = await answer.text();
  if (!answer.ok) throw new Error(`${init.method ?? "GET"} ${url}: ${answer.status} ${text.slice(0, 300)}`);
  return (text ? JSON.parse(text) : {}) as Record<string, unknown>;
}
const jsonBody = (body: unknown) => ({ method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
const login = async (username: string, password: string) =>
  String((await call("/api-token-auth/", jsonBody({ username, password }))).token);
async function gql<T>(token: string, query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const answer = await call("/graphql", { ...jsonBody({ query, variables }), token });
  if (answer.errors) throw new Error(JSON.stringify(answer.errors));
  return answer.data as T;
}

/** An edge CSV: `rows` edges over rows/10 nodes, a weight and a label. */
function edgesCsv(rows: number, seed: number): string {
  let state = seed;
  const next = () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state;
  };
  const lines = ["s,d,weight,label"];
  for (let i = 0; i < rows; i += 1)
    lines.push(`${next() % (rows / 10)},${next() % (rows / 10)},${(next() / 2 ** 32).toFixed(6)},e${next() % 1000}`);
  return `${lines.join("\n")}\n`;
}

async function uploadFile(token: string, csv: string): Promise<string> {
  const file = await call("/api/v2/files/", { ...jsonBody({ file_type: "csv" }), token });
  await call(`/api/v2/upload/files/${file.file_id}`, { method: "POST", body: csv, token });
  return String(file.file_id);
}

/** Resident memory of the server alone and of its children (parser processes), from /proc. */
function serverRss(pid: number): { server: number; children: number } {
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {}
  const rss = (p: number) => {
    try {
      return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${p}/status`, "utf8"))?.[1] ?? 0) * 1024;
    } catch {
      return 0;
    }
  };
  return { server: rss(pid), children: children.reduce((sum, p) => sum + rss(p), 0) };
}

/** The server's V8 heap in use, from its own /metrics. */
async function serverHeap(): Promise<number> {
  const text = await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  return Number(/^nodejs_heap_size_used_bytes (\S+)$/m.exec(text)?.[1] ?? Number.NaN);
}

/** The server's live heap: a heap snapshot's self sizes summed (V8 collects garbage before it writes one). */
async function liveHeap(pid: number): Promise<number> {
  const before = new Set(await readdir(snapshots).catch(() => [] as string[]));
  process.kill(pid, "SIGUSR2");
  for (let tries = 0; tries < 600; tries += 1) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const names = (await readdir(snapshots).catch(() => [] as string[])).filter((n) => !before.has(n) && n.endsWith(".heapsnapshot"));
    const name = names[0];
    if (!name) continue;
    const file = path.join(snapshots, name);
    let snapshot: { snapshot: { meta: { node_fields: string[] } }; nodes: number[] };
    try {
      snapshot = JSON.parse(readFileSync(file, "utf8"));
    } catch {
      continue; // still being written
    }
    await rm(file);
    const fields = snapshot.snapshot.meta.node_fields;
    const at = fields.indexOf("self_size");
    let total = 0;
    for (let i = at; i < snapshot.nodes.length; i += fields.length) total += snapshot.nodes[i] as number;
    return total;
  }
  throw new Error("the server wrote no heap snapshot within 60 s");
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;
};
const mib = (bytes: number) => (bytes / 1024 ** 2).toFixed(0);

/** Means over each ten one-second samples. */
function decades<T extends Record<string, number>>(samples: T[]): T[] {
  const out: T[] = [];
  for (let at = 0; at + 10 <= samples.length; at += 10) {
    const part = samples.slice(at, at + 10);
    const keys = Object.keys(part[0] ?? {}) as (keyof T)[];
    out.push(Object.fromEntries(keys.map((k) => [k, part.reduce((sum, m) => sum + (m[k] as number), 0) / part.length])) as T);
  }
  return out;
}

let failed = false;
let stopPage = () => {};
try {
  // Setup: users, a dataset with a live session, a personal key and a tool-endpoint session.
  const admin = await login("bench", "bench-password");
  const tokens: string[] = [];
  for (let i = 0; i < USERS; i += 1) {
    const username = `loaduser${i}`;
    await gql(admin, "mutation($i: CreateUserInput!) { createUser(input: $i) { id } }", {
      i: { username, password: `${username}-password` },
    });
    tokens.push(await login(username, `${username}-password`));
  }
  const owner = tokens[0] as string;
  const edgeFile = await uploadFile(owner, edgesCsv(20_000, 7));
  const made = await call("/api/v2/upload/datasets/", {
    ...jsonBody({
      name: "load",
      metadata: {},
      node_encodings: { bindings: {} },
      edge_encodings: { bindings: { source: "s", destination: "d" } },
      edge_files: [edgeFile],
    }),
    token: owner,
  });
  const datasetId = String((made.data as { dataset_id: string }).dataset_id);
  const { openVizSession } = await gql<{ openVizSession: { id: string } }>(
    owner,
    "mutation($d: ID!) { openVizSession(datasetId: $d) { id } }",
    {
      d: datasetId,
    },
  );
  // The owner's page stays connected (a session whose owner left answers the tool endpoint 410).
  const page = createClient({ url: `${base.replace("http", "ws")}/graphql`, connectionParams: { authorization: `Bearer ${owner}` } });
  stopPage = page.subscribe(
    { query: "subscription($id: ID!) { vizSessionChanged(id: $id) { kind } }", variables: { id: openVizSession.id } },
    { next: () => {}, error: (error) => console.error("owner page:", error), complete: () => {} },
  );
  const { createPersonalKey } = await gql<{ createPersonalKey: { credential: string } }>(
    owner,
    'mutation { createPersonalKey(name: "load") { credential } }',
  );
  const mcpHeaders = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2025-06-18",
  };
  const init = await fetch(`${base}/mcp`, {
    method: "POST",
    headers: mcpHeaders,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench-load", version: "1" } },
    }),
  });
  const mcpSession = init.headers.get("mcp-session-id") ?? "";
  await init.text();
  if (!mcpSession) throw new Error(`no MCP session: ${init.status}`);

  const auth = { authorization: `Bearer ${owner}` };
  const gfql = JSON.stringify([
    { type: "Node", filter_dict: { node: { type: "Between", lower: 0, upper: 99 } } },
    { type: "Edge", direction: "forward", hops: 1 },
    { type: "Node" },
  ]);
  const ONLY = ["rest", "graphql", "mcp"].indexOf(flags.only ?? "");
  if (flags.only !== undefined && ONLY < 0) throw new Error("--only takes rest, graphql or mcp");
  const share = (n: number) => (ONLY >= 0 ? (n === ONLY ? CONNECTIONS : 0) : Math.floor(CONNECTIONS / 3) + (n < CONNECTIONS % 3 ? 1 : 0));
  const surfaces: { name: string; connections: number; requests: autocannon.Request[] }[] = [
    {
      name: "REST (files list, dataset)",
      connections: share(0),
      requests: [
        { method: "GET", path: "/api/v2/files/?page_size=20", headers: auth },
        { method: "GET", path: `/api/v2/upload/datasets/${datasetId}`, headers: auth },
      ],
    },
    {
      name: "GraphQL (dataset, session)",
      connections: share(1),
      requests: [
        {
          method: "POST",
          path: "/graphql",
          headers: { ...auth, "content-type": "application/json" },
          body: JSON.stringify({
            query: "query Load($d: ID!, $s: ID!) { dataset(id: $d) { id name } vizSession(id: $s) { id isOwner } }",
            variables: { d: datasetId, s: openVizSession.id },
          }),
        },
      ],
    },
    {
      name: "/mcp (query_graph, 1 hop)",
      connections: share(2),
      requests: [
        {
          method: "POST",
          path: "/mcp",
          headers: { ...mcpHeaders, "mcp-session-id": mcpSession, authorization: `Bearer ${createPersonalKey.credential}` },
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method: "tools/call",
            params: { name: "query_graph", arguments: { session_id: openVizSession.id, gfql_operations: gfql } },
          }),
        },
      ],
    },
  ];
  // A check of each surface's answer once, so the load measures working calls (not fast errors).
  for (const surface of surfaces)
    for (const request of surface.requests) {
      const answer = await fetch(`${base}${request.path}`, {
        method: request.method,
        headers: request.headers as Record<string, string>,
        ...(request.body ? { body: request.body as string } : {}),
      });
      const text = await answer.text();
      const body = JSON.parse(text) as { errors?: unknown; error?: unknown; result?: { isError?: boolean } };
      if (!answer.ok || body.errors || body.error || body.result?.isError)
        throw new Error(`${surface.name}: ${answer.status} ${text.slice(0, 300)}`);
    }

  // Upload payloads: one CSV per slot, different per user.
  const payloads = Array.from({ length: UPLOADS }, (_, i) => edgesCsv(UPLOAD_ROWS, 100 + i));
  const uploadMs: number[] = [];
  const uploadErrors: string[] = [];
  let uploading = true;
  const uploadLoop = (async () => {
    while (uploading) {
      await Promise.all(
        payloads.map(async (csv, i) => {
          const started = performance.now();
          try {
            await uploadFile(tokens[i % USERS] as string, csv);
            uploadMs.push(performance.now() - started);
          } catch (error) {
            uploadErrors.push((error as Error).message.slice(0, 200));
          }
        }),
      );
    }
  })();

  const pid = server.child.pid as number;
  const liveBefore = await liveHeap(pid);
  const active = surfaces.filter((surface) => surface.connections > 0);
  const runLoad = (seconds: number) =>
    Promise.all(
      active.map((surface) =>
        autocannon({
          url: base,
          connections: surface.connections,
          duration: seconds,
          requests: surface.requests,
          timeout: 30,
        }),
      ),
    );
  const warmup = WARMUP > 0 ? await runLoad(WARMUP) : [];
  const warmupErrors = warmup.reduce((sum, r) => sum + r.errors + r.non2xx + r.timeouts, 0);
  const warmupUploads = uploadMs.length;
  const memory: { server: number; children: number; heap: number }[] = [];
  const sampler = setInterval(() => {
    const rss = serverRss(pid);
    void serverHeap().then(
      (heap) => memory.push({ ...rss, heap }),
      () => memory.push({ ...rss, heap: Number.NaN }),
    );
  }, 1000);
  const loadBefore = os.loadavg()[0] ?? 0;
  uploadMs.length = 0;
  const results = await runLoad(SECONDS);
  clearInterval(sampler);
  const loadAfter = os.loadavg()[0] ?? 0;
  uploading = false;
  await uploadLoop;
  const liveAfter = await liveHeap(pid);

  const rows = [
    `load: ${CONNECTIONS} connections for ${SECONDS} s after ${WARMUP} s of warm-up (${warmup.reduce((sum, r) => sum + r.requests.total, 0)} requests, ${warmupUploads} uploads, ${warmupErrors} errors) (${active.map((s) => s.connections).join(" + ")}), ${UPLOADS} parallel uploads of ${UPLOAD_ROWS} rows by ${USERS} users; rate limits ${flags["rate-limits"] ? "on" : "off"}; load average ${loadBefore.toFixed(2)} -> ${loadAfter.toFixed(2)} on ${os.cpus().length} cores`,
    "",
    "| surface | clients | requests | req/s | p50 ms | p99 ms | errors | non-2xx | timeouts |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  let errors = warmupErrors;
  active.forEach((surface, i) => {
    const r = results[i] as autocannon.Result;
    errors += r.errors + r.non2xx + r.timeouts;
    rows.push(
      `| ${surface.name} | ${surface.connections} | ${r.requests.total} | ${r.requests.average.toFixed(0)} | ${r.latency.p50} | ${r.latency.p99} | ${r.errors} | ${r.non2xx} | ${r.timeouts} |`,
    );
  });
  errors += uploadErrors.length;
  rows.push(
    `| uploads (${UPLOAD_ROWS} rows, ${(Buffer.byteLength(payloads[0] ?? "") / 1024 ** 2).toFixed(1)} MiB each) | ${UPLOADS} | ${uploadMs.length} | ${(uploadMs.length / SECONDS).toFixed(2)} | ${percentile(uploadMs, 50).toFixed(0)} | ${percentile(uploadMs, 99).toFixed(0)} | ${uploadErrors.length} | | |`,
  );
  const window = Math.min(10, Math.floor(memory.length / 2));
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
  const change = (pick: (m: (typeof memory)[number]) => number) => {
    const first = mean(memory.slice(0, window).map(pick));
    const last = mean(memory.slice(-window).map(pick));
    return `${mib(first)} -> ${mib(last)} MiB (${(((last - first) / first) * 100).toFixed(1)}%)`;
  };
  rows.push(
    "",
    `memory, mean of the first ${window} vs the last ${window} one-second samples: server RSS ${change((m) => m.server)}, server V8 heap used ${change((m) => m.heap)}, parser processes RSS ${change((m) => m.children)}`,
    `server V8 heap live after a full collection (heap snapshot): ${mib(liveBefore)} MiB after the setup, ${mib(liveAfter)} MiB after the load (${(((liveAfter - liveBefore) / liveBefore) * 100).toFixed(1)}%)`,
    `memory per ten-second window (server RSS / V8 heap used / parser processes RSS, MiB): ${decades(memory)
      .map((m, i) => `${i * 10}-${i * 10 + 10} s ${mib(m.server)} / ${mib(m.heap)} / ${mib(m.children)}`)
      .join(", ")}`,
    `errors: ${errors}`,
  );
  if (uploadErrors.length > 0) rows.push(`upload errors (first 3): ${uploadErrors.slice(0, 3).join(" | ")}`);
  // Which answers failed, from the server's access log lines.
  const failures = new Map<string, number>();
  for (const line of server.logs.join("").split("\n")) {
    const match = /"msg":"request".*"route":"([^"]*)","status":(\d+)/.exec(line);
    if (match && Number(match[2]) >= 400) failures.set(`${match[1]} ${match[2]}`, (failures.get(`${match[1]} ${match[2]}`) ?? 0) + 1);
  }
  if (failures.size > 0) rows.push(`failed answers by route and status: ${[...failures].map(([k, n]) => `${k}: ${n}`).join(", ")}`);
  console.log(rows.join("\n"));
  if (process.env.BENCH_OUT) writeFileSync(process.env.BENCH_OUT, `${rows.join("\n")}\n`);
  failed = errors > 0;
} catch (error) {
  console.error(error);
  console.error(server.logs.join("").slice(-4000));
  failed = true;
} finally {
  stopPage();
  if (process.env.BENCH_SERVER_LOG) writeFileSync(process.env.BENCH_SERVER_LOG, server.logs.join(""));
  await server.stop();
  await rm(work, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
