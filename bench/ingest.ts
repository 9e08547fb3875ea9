// bench/ingest: uploads edge tables over HTTP until the file is valid, against nodejs-polars reading the same bytes.
// Run: node bench/ingest.ts [rows...]   (default 1000000 5000000). Prints one table of times, ratios and peak memory.
import { mkdtemp, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { edgeTable, type Format, peakRss, polarsFloor, resetPeak, stageTimings, startBenchServer, writeAs } from "./lib.ts";

const sizes = process.argv
  .slice(2)
  .map(Number)
  .filter((n) => n > 0);
const ROWS = sizes.length > 0 ? sizes : [1_000_000, 5_000_000];
const FORMATS: Format[] = ["csv", "parquet", "arrow"];

const work = await mkdtemp(path.join(os.tmpdir(), "bench-ingest-"));
const bench = await startBenchServer(path.join(work, "data"));
const pid = bench.server.child.pid ?? 0;
const lines: string[] = [];
try {
  for (const rows of ROWS) {
    const frame = edgeTable(rows);
    const arrowBytes = frame.writeIPC().length;
    for (const format of FORMATS) {
      const file = writeAs(frame, work, format);
      const bytes = (await stat(file)).size;
      const floorMs = polarsFloor(file, format);
      const created = await bench.json("/api/v2/files/", {
        method: "POST",
        headers: { ...bench.auth, "content-type": "application/json" },
        body: JSON.stringify({ file_type: format }),
      });
      resetPeak(pid);
      const start = performance.now();
      const record = await bench.upload(`/api/v2/upload/files/${created.file_id}?erase=true`, file);
      const endToEnd = performance.now() - start;
      if (record.is_valid !== true) throw new Error(`${format} ${rows}: not valid: ${JSON.stringify(record.errors)}`);
      const peak = peakRss(pid);
      lines.push(
        [
          rows.toLocaleString("en-US"),
          format,
          `${(bytes / 2 ** 20).toFixed(0)} MiB`,
          `${floorMs.toFixed(0)} ms`,
          `${endToEnd.toFixed(0)} ms`,
          `${(endToEnd / floorMs).toFixed(2)}x`,
          `${(peak / 2 ** 20).toFixed(0)} MiB`,
          `${(peak / arrowBytes).toFixed(2)}x`,
        ].join(" | "),
      );
      await rm(file);
    }
  }
} finally {
  for (const line of stageTimings(bench.server)) console.log(line);
  await bench.server.stop("SIGTERM");
  await rm(work, { recursive: true, force: true });
}
console.log(`ingest benchmark, ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}`);
console.log("| rows | format | file | polars floor | end to end (HTTP) | ratio | server peak RSS | peak / Arrow size |");
console.log("|---|---|---|---|---|---|---|---|");
for (const line of lines) console.log(`| ${line} |`);
