// bench/layout-stream: a live session layout run until stopped, streamed to one page-less WebSocket client: frames
// delivered per second, bytes per frame, layout iterations per second, time from START to the first frame, at 100k
// and 1M nodes of a sparse graph (a ring plus as many random chords: 2 edges per node, every node connected). Two
// layouts: cuGraph ForceAtlas2 (frames can come no faster than its iterations) and a linear-time spectral layout
// (layout-stream-spectral.ts, a step in milliseconds), whose rate is the stream's own capacity.
// Run: node bench/layout-stream.ts [--nodes 100000,1000000] [--seconds 10]; COMPUTE_BACKEND=cpu|opencl picks the
// server's backend (default auto: OpenCL where a device works).
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pl from "nodejs-polars";
import WebSocket from "ws";
import { decodeHeader, type FrameHeader } from "../src/sessions/layout-frame.ts";
import { startBenchServer } from "./lib.ts";

// The spectral fixture is loaded by the server (startBenchServer passes this process's environment on).
process.env.COMPUTE_EXTRA_ALGORITHMS = new URL("./layout-stream-spectral.ts", import.meta.url).pathname;
const LAYOUTS = ["force_atlas2", "bench_spectral"] as const;

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? (process.argv[at + 1] ?? fallback) : fallback;
}

const SIZES = option("nodes", "100000,1000000").split(",").map(Number);
const SECONDS = Number(option("seconds", "10"));
const work = await mkdtemp(path.join(os.tmpdir(), "bench-layout-stream-"));

/** A ring over n nodes plus n seeded random chords (no self-loops), as a parquet edge file. */
function sparseGraph(n: number): string {
  const src = new Int32Array(2 * n);
  const dst = new Int32Array(2 * n);
  let seed = 42;
  const next = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed;
  };
  for (let i = 0; i < n; i++) {
    src[i] = i;
    dst[i] = (i + 1) % n;
  }
  for (let k = n; k < 2 * n; k++) {
    const a = next() % n;
    let b = next() % n;
    if (b === a) b = (a + 1 + (next() % (n - 1))) % n;
    src[k] = a;
    dst[k] = b;
  }
  const file = path.join(work, `edges-${n}.parquet`);
  pl.DataFrame([pl.Series("src", src, pl.Int32), pl.Series("dst", dst, pl.Int32)]).writeParquet(file);
  return file;
}

type Result = {
  layout: string;
  nodes: number;
  edges: number;
  backend: string;
  firstFrameMs: number;
  frames: number;
  seconds: number;
  bytesPerFrame: number;
  iterationsPerSecond: number;
};

async function measure(n: number): Promise<Result[]> {
  const file = sparseGraph(n);
  const bench = await startBenchServer(path.join(work, "data"));
  const post = (url: string, body: unknown) =>
    bench.json(url, { method: "POST", headers: { ...bench.auth, "content-type": "application/json" }, body: JSON.stringify(body) });
  const gql = async (query: string, variables: Record<string, unknown>) => {
    const answer = (await post("/graphql", { query, variables })) as { data?: Record<string, Record<string, unknown>>; errors?: unknown };
    if (answer.errors || !answer.data) throw new Error(JSON.stringify(answer.errors));
    return answer.data;
  };
  try {
    const created = await post("/api/v2/files/", { file_type: "parquet" });
    await bench.upload(`/api/v2/upload/files/${created.file_id}?erase=true`, file);
    const dataset = await post("/api/v2/upload/datasets/", {
      name: `stream-${n}`,
      metadata: {},
      node_encodings: { bindings: {} },
      edge_encodings: { bindings: { source: "src", destination: "dst" } },
      edge_files: [created.file_id],
    });
    const datasetId = (dataset.data as { dataset_id: string }).dataset_id;
    const results: Result[] = [];
    for (const layout of LAYOUTS) results.push(await stream(layout, datasetId));
    return results;
  } finally {
    await bench.server.stop("SIGTERM");
    await rm(path.join(work, "data"), { recursive: true, force: true });
  }

  async function stream(layout: string, datasetId: string): Promise<Result> {
    const session = String((await gql("mutation($d: ID!) { openVizSession(datasetId: $d) { id } }", { d: datasetId })).openVizSession?.id);

    const ws = new WebSocket(`${bench.server.url.replace("http", "ws")}/graph/data/${session}/layout/stream`, { headers: bench.auth });
    await new Promise((resolve, reject) => {
      ws.once("open", resolve);
      ws.once("error", reject);
    });
    const frames: { at: number; bytes: number; header: FrameHeader }[] = [];
    ws.on("message", (data: Buffer) => {
      const header = decodeHeader(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
      if (!header) throw new Error("not a frame");
      frames.push({ at: performance.now(), bytes: data.byteLength, header });
    });
    const control = `mutation($s: ID!, $a: SessionLayoutAction!, $l: JSON) { controlSessionLayout(sessionId: $s, action: $a, layout: $l) { state } }`;
    const started = performance.now();
    // max_iter 0: a live layout runs until stopped.
    await gql(control, { s: session, a: "START", l: { libraries: ["cugraph"], alg: layout, params: { max_iter: 0 } } });
    while (frames.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    const first = frames[0] as (typeof frames)[number];
    await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
    const window = frames.filter((f) => f.at > first.at);
    const last = window.at(-1) ?? first;
    const seconds = (last.at - first.at) / 1000;
    await gql(control, { s: session, a: "STOP" });
    ws.close();
    return {
      layout,
      nodes: n,
      edges: 2 * n,
      backend: process.env.COMPUTE_BACKEND ?? "auto",
      firstFrameMs: first.at - started,
      frames: window.length,
      seconds,
      bytesPerFrame: first.bytes,
      iterationsPerSecond: seconds > 0 ? (last.header.iteration - first.header.iteration) / seconds : 0,
    };
  }
}

const rows: Result[] = [];
try {
  for (const n of SIZES) rows.push(...(await measure(n)));
} finally {
  await rm(work, { recursive: true, force: true });
}
console.log(`\nLive layout stream: ForceAtlas2 until stopped, one WebSocket client, ${SECONDS} s per size`);
console.log("| layout | nodes | edges | backend | START to first frame | frames/s | bytes/frame | iterations/s |");
console.log("|---|---:|---:|---|---:|---:|---:|---:|");
for (const r of rows) {
  const fps = r.seconds > 0 ? r.frames / r.seconds : 0;
  console.log(
    `| ${r.layout} | ${r.nodes.toLocaleString("en")} | ${r.edges.toLocaleString("en")} | ${r.backend} | ${(r.firstFrameMs / 1000).toFixed(2)} s | ${fps.toFixed(1)} | ${r.bytesPerFrame.toLocaleString("en")} | ${r.iterationsPerSecond.toFixed(1)} |`,
  );
}
