// bench/dataset: a dataset from an N-edge parquet file, by the files route and by the direct route, until it lists with
// its counts, against nodejs-polars reading the same file in-process (the ingest floor).
// Run: node bench/dataset.ts [rows]   (default 5000000).
import { mkdtemp, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { edgeTable, polarsFloor, stageTimings, startBenchServer, writeAs } from "./lib.ts";

const ROWS = Number(process.argv[2] ?? 5_000_000);
const work = await mkdtemp(path.join(os.tmpdir(), "bench-dataset-"));
const bench = await startBenchServer(path.join(work, "data"));
const json = (body: unknown) => ({
  method: "POST",
  headers: { ...bench.auth, "content-type": "application/json" },
  body: JSON.stringify(body),
});
const datasetBody = (extra: Record<string, unknown>) => ({
  name: "bench",
  metadata: {},
  node_encodings: { bindings: {} },
  edge_encodings: { bindings: { source: "src", destination: "dst", edge_weight: "weight" } },
  ...extra,
});

async function counted(id: string): Promise<void> {
  const list = await bench.json("/api/v2/datasets/?limit=1000", { headers: bench.auth });
  const found = (list.results as Record<string, unknown>[]).find((d) => d.dataset_id === id);
  if (found?.edge_count !== ROWS) throw new Error(`dataset ${id} lists ${String(found?.edge_count)} edges, not ${ROWS}`);
}

const lines: string[] = [];
try {
  const file = writeAs(edgeTable(ROWS), work, "parquet");
  const mib = ((await stat(file)).size / 2 ** 20).toFixed(0);
  const floor = polarsFloor(file, "parquet");

  let start = performance.now();
  const created = await bench.json("/api/v2/files/", json({ file_type: "parquet" }));
  await bench.upload(`/api/v2/upload/files/${created.file_id}?erase=true`, file);
  const uploaded = performance.now() - start;
  const viaFile = await bench.json("/api/v2/upload/datasets/", json(datasetBody({ edge_files: [created.file_id] })));
  await counted((viaFile.data as { dataset_id: string }).dataset_id);
  const filesRoute = performance.now() - start;
  // Where the files route's time goes: the file's upload and parse, then building the dataset from it.
  const split = `upload ${uploaded.toFixed(0)} ms + dataset ${(filesRoute - uploaded).toFixed(0)} ms`;

  start = performance.now();
  const direct = await bench.json("/api/v2/upload/datasets/", json(datasetBody({})));
  const id = (direct.data as { dataset_id: string }).dataset_id;
  await bench.upload(`/api/v2/upload/datasets/${id}/edges/parquet`, file);
  await counted(id);
  const directRoute = performance.now() - start;

  for (const [route, ms] of [
    [`files route (file, upload, dataset: ${split})`, filesRoute],
    ["direct route (dataset, edges/parquet)", directRoute],
  ] as const) {
    lines.push(
      [
        ROWS.toLocaleString("en-US"),
        `${mib} MiB`,
        route,
        `${floor.toFixed(0)} ms`,
        `${ms.toFixed(0)} ms`,
        `${(ms / floor).toFixed(2)}x`,
      ].join(" | "),
    );
  }
} finally {
  for (const line of stageTimings(bench.server)) console.log(line);
  await bench.server.stop("SIGTERM");
  await rm(work, { recursive: true, force: true });
}
console.log(`dataset benchmark, ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}`);
console.log("| edges | parquet | route | polars floor | until listed with counts | ratio |");
console.log("|---|---|---|---|---|---|");
for (const line of lines) console.log(`| ${line} |`);
