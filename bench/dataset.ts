// bench/dataset: a dataset from an N-edge parquet file, by the files route and by the direct route, until it lists with
// its counts, against nodejs-polars reading the same file in-process (the ingest floor).
// Run: node bench/dataset.ts [rows]   (default 5000000). Three trials, each on a freshly started server; the table shows
// the best of three for each route (all three in brackets), like the floor's best of three.
import { mkdtemp, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { edgeTable, polarsFloor, stageTimings, startBenchServer, writeAs } from "./lib.ts";

const ROWS = Number(process.argv[2] ?? 5_000_000);
const TRIALS = 3;
const work = await mkdtemp(path.join(os.tmpdir(), "bench-dataset-"));

const datasetBody = (extra: Record<string, unknown>) => ({
  name: "bench",
  metadata: {},
  node_encodings: { bindings: {} },
  edge_encodings: { bindings: { source: "src", destination: "dst", edge_weight: "weight" } },
  ...extra,
});

type Trial = { files: number; upload: number; direct: number };

/** Both routes on a fresh server: milliseconds until each dataset lists with its counts. */
async function trial(file: string, timings: string[]): Promise<Trial> {
  const bench = await startBenchServer(path.join(work, "data"));
  const json = (body: unknown) => ({
    method: "POST",
    headers: { ...bench.auth, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const counted = async (id: string) => {
    const list = await bench.json("/api/v2/datasets/?limit=1000", { headers: bench.auth });
    const found = (list.results as Record<string, unknown>[]).find((d) => d.dataset_id === id);
    if (found?.edge_count !== ROWS) throw new Error(`dataset ${id} lists ${String(found?.edge_count)} edges, not ${ROWS}`);
  };
  try {
    let start = performance.now();
    const created = await bench.json("/api/v2/files/", json({ file_type: "parquet" }));
    await bench.upload(`/api/v2/upload/files/${created.file_id}?erase=true`, file);
    const upload = performance.now() - start;
    const viaFile = await bench.json("/api/v2/upload/datasets/", json(datasetBody({ edge_files: [created.file_id] })));
    await counted((viaFile.data as { dataset_id: string }).dataset_id);
    const files = performance.now() - start;

    start = performance.now();
    const direct = await bench.json("/api/v2/upload/datasets/", json(datasetBody({})));
    const id = (direct.data as { dataset_id: string }).dataset_id;
    await bench.upload(`/api/v2/upload/datasets/${id}/edges/parquet`, file);
    await counted(id);
    return { files, upload, direct: performance.now() - start };
  } finally {
    timings.push(...stageTimings(bench.server));
    await bench.server.stop("SIGTERM");
    await rm(path.join(work, "data"), { recursive: true, force: true });
  }
}

const lines: string[] = [];
const timings: string[] = [];
try {
  const file = writeAs(edgeTable(ROWS), work, "parquet");
  const mib = ((await stat(file)).size / 2 ** 20).toFixed(0);
  const floor = polarsFloor(file, "parquet");
  const trials: Trial[] = [];
  for (let i = 0; i < TRIALS; i += 1) trials.push(await trial(file, timings));
  const bestFiles = trials.reduce((a, b) => (b.files < a.files ? b : a));
  const all = (pick: (t: Trial) => number) => trials.map((t) => pick(t).toFixed(0)).join(", ");
  const split = `upload ${bestFiles.upload.toFixed(0)} ms + dataset ${(bestFiles.files - bestFiles.upload).toFixed(0)} ms`;
  for (const [route, ms, each] of [
    [`files route (file, upload, dataset; best: ${split})`, bestFiles.files, all((t) => t.files)],
    ["direct route (dataset, edges/parquet)", Math.min(...trials.map((t) => t.direct)), all((t) => t.direct)],
  ] as const) {
    lines.push(
      [
        ROWS.toLocaleString("en-US"),
        `${mib} MiB`,
        route,
        `${floor.toFixed(0)} ms`,
        `${ms.toFixed(0)} ms (${each})`,
        `${(ms / floor).toFixed(2)}x`,
      ].join(" | "),
    );
  }
} finally {
  for (const line of timings) console.log(line);
  await rm(work, { recursive: true, force: true });
}
console.log(`dataset benchmark, ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}`);
console.log("| edges | parquet | route | polars floor (best of 3) | until listed with counts: best (all three) | ratio |");
console.log("|---|---|---|---|---|---|");
for (const line of lines) console.log(`| ${line} |`);
