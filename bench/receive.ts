// bench/receive: what any HTTP upload costs on this machine, without the service: a bare node:http server in its own
// process receives the same files the ingest benchmark uploads, once discarding them and once writing them to a file
// (as the blob store must), next to nodejs-polars reading each file in-process (the ingest floor).
// Run: node bench/receive.ts [rows]   (default 5000000). Best of five for each.
import { statSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { bareReceive } from "./bare-receive.ts";
import { edgeTable, polarsFloor, writeAs } from "./lib.ts";
import { loadAverageLine } from "./load-average.ts";

const ROWS = Number(process.argv[2] ?? 5_000_000);
const work = await mkdtemp(path.join(os.tmpdir(), "bench-receive-"));

const lines: string[] = [];
const loadLine = loadAverageLine();
try {
  const frame = edgeTable(ROWS);
  for (const format of ["csv", "parquet", "arrow"] as const) {
    const file = writeAs(frame, work, format);
    const floor = polarsFloor(file, format);
    const mib = `${(statSync(file).size / 2 ** 20).toFixed(0)} MiB`;
    const trials: [string, number[]][] = [
      ["receive, discard the bytes", await bareReceive("discard", file, format, work, 5)],
      ["receive, write them to a file", await bareReceive("write", file, format, work, 5)],
    ];
    if (format !== "arrow")
      trials.push([
        "receive and write, while polars parses the file and writes its table",
        await bareReceive("overlap", file, format, work, 5),
      ]);
    for (const [what, ms] of trials) {
      const best = Math.min(...ms);
      lines.push(
        `| ${format} | ${mib} | ${floor.toFixed(0)} ms | ${what} | ${best.toFixed(0)} ms (${ms.map((m) => m.toFixed(0)).join(", ")}) | ${(best / floor).toFixed(2)}x |`,
      );
    }
    await rm(file);
  }
} finally {
  await rm(work, { recursive: true, force: true });
}
console.log(`receive benchmark, ${ROWS.toLocaleString("en-US")} rows, ${os.cpus().length} cores, node ${process.version}`);
console.log("| format | file | polars floor (best of 3) | bare node:http server | best (all five) | of the floor |");
console.log("|---|---|---|---|---|---|");
for (const line of lines) console.log(line);
console.log(loadLine());
