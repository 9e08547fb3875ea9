// bench/dataset: a dataset from an N-edge parquet file, by the files route and by the direct route, until it lists with
// its counts, against nodejs-polars reading the same file in-process (the ingest floor).
// Run: node bench/dataset.ts [rows] [trials]   (defaults 5000000 and 3). Each trial on a freshly started server, with
// the floor read just before it (interleaved, so both see the same machine); the table shows the first trial apart
// (usually the slowest: an assistant's first upload is one), the best of the trials, and all of them; the load
// average is printed before and after.
import { mkdtemp, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pl from "nodejs-polars";
import { edgeTable, stageTimings, startBenchServer, writeAs } from "./lib.ts";
import { loadAverageLine } from "./load-average.ts";

const ROWS = Number(process.argv[2] ?? 5_000_000);
const TRIALS = Math.max(2, Number(process.argv[3] ?? 3));
const work = await mkdtemp(path.join(os.tmpdir(), "bench-dataset-"));

const datasetBody = (extra: Record<string, unknown>) => ({
  name: "bench",
  metadata: {},
  node_encodings: { bindings: {} },
  edge_encodings: { bindings: { source: "src", destination: "dst", edge_weight: "weight" } },
  ...extra,
});

type Trial = { floor: number; files: number; upload: number; direct: number };

/** The floor: nodejs-polars reading the file in this process, once. */
function floorOnce(file: string): number {
  const start = performance.now();
  const frame = pl.scanParquet(file).collectSync();
  if (frame.height !== ROWS) throw new Error(`floor read ${frame.height} rows, not ${ROWS}`);
  return performance.now() - start;
}

/** Both routes on a fresh server: milliseconds until each dataset lists with its counts. */
async function trial(file: string, timings: string[]): Promise<Trial> {
  const floor = floorOnce(file);
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
    return { floor, files, upload, direct: performance.now() - start };
  } finally {
    timings.push(...stageTimings(bench.server));
    await bench.server.stop("SIGTERM");
    await rm(path.join(work, "data"), { recursive: true, force: true });
  }
}

const loadLine = loadAverageLine();
const lines: string[] = [];
const timings: string[] = [];
try {
  const file = writeAs(edgeTable(ROWS), work, "parquet");
  const mib = ((await stat(file)).size / 2 ** 20).toFixed(0);
  const trials: Trial[] = [];
  for (let i = 0; i < TRIALS; i += 1) trials.push(await trial(file, timings));
  const [first] = trials as [Trial, ...Trial[]];
  const best = (pick: (t: Trial) => number) => Math.min(...trials.map(pick));
  const all = (pick: (t: Trial) => number) => trials.map((t) => pick(t).toFixed(0)).join(", ");
  const floor = best((t) => t.floor);
  const uploadOf = (t: Trial) => `upload ${t.upload.toFixed(0)} ms + dataset ${(t.files - t.upload).toFixed(0)} ms`;
  const bestFiles = trials.reduce((a, b) => (b.files < a.files ? b : a));
  lines.push(
    [
      ROWS.toLocaleString("en-US"),
      `${mib} MiB`,
      "polars floor (scanParquet, in-process)",
      `${first.floor.toFixed(0)} ms`,
      `${floor.toFixed(0)} ms`,
      all((t) => t.floor),
      "",
      "",
    ].join(" | "),
  );
  for (const [route, pick] of [
    [`files route (file, upload, dataset; first: ${uploadOf(first)}; best: ${uploadOf(bestFiles)})`, (t: Trial) => t.files],
    ["direct route (dataset, edges/parquet)", (t: Trial) => t.direct],
  ] as const) {
    lines.push(
      [
        ROWS.toLocaleString("en-US"),
        `${mib} MiB`,
        route,
        `${pick(first).toFixed(0)} ms`,
        `${best(pick).toFixed(0)} ms`,
        all(pick),
        `${(pick(first) / first.floor).toFixed(2)}x`,
        `${(best(pick) / floor).toFixed(2)}x`,
      ].join(" | "),
    );
  }
} finally {
  for (const line of timings) console.log(line);
  await rm(work, { recursive: true, force: true });
}
console.log(
  `dataset benchmark, ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}, ${TRIALS} trials`,
);
console.log(loadLine());
console.log("| edges | parquet | until listed with counts | first trial | best | all trials | first / its floor | best / best floor |");
console.log("|---|---|---|---:|---:|---|---:|---:|");
for (const line of lines) console.log(`| ${line} |`);
