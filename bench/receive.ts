// bench/receive: what any HTTP upload costs on this machine, without the service: a bare node:http server in its own
// process receives the same files the ingest benchmark uploads, once discarding them and once writing them to a file
// (as the blob store must), next to nodejs-polars reading each file in-process (the ingest floor).
// Run: node bench/receive.ts [rows]   (default 5000000). Best of five for each.
import { spawn } from "node:child_process";
import { createReadStream, statSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { request } from "node:http";
import os from "node:os";
import path from "node:path";
import { edgeTable, polarsFloor, writeAs } from "./lib.ts";

const ROWS = Number(process.argv[2] ?? 5_000_000);
const work = await mkdtemp(path.join(os.tmpdir(), "bench-receive-"));

// "overlap": while it receives and stores the upload, a worker thread has polars read the same file, already on disk,
// and write its Arrow table: the best any parse-while-receiving design could do, since the parse never waits for bytes.
const SERVER = `
const { createServer } = require("node:http");
const { createWriteStream } = require("node:fs");
const { pipeline } = require("node:stream/promises");
const { Worker } = require("node:worker_threads");
const [mode, target, source, format] = process.argv.slice(1);
const worker = new Worker(\`
  const { parentPort, workerData: { source, format, out } } = require("node:worker_threads");
  const pl = require("nodejs-polars");
  parentPort.on("message", () => {
    const frame = format === "csv" ? pl.readCSV(source) : pl.scanParquet(source).collectSync();
    frame.writeIPC(out);
    parentPort.postMessage("done");
  });
\`, { eval: true, workerData: { source, format, out: target + ".arrow" } });
const parse = () => new Promise((resolve) => { worker.once("message", resolve); worker.postMessage("go"); });
const server = createServer(async (req, res) => {
  const parsed = mode === "overlap" ? parse() : undefined;
  if (mode === "discard") for await (const _ of req);
  else await pipeline(req, createWriteStream(target, { highWaterMark: 8 << 20 }));
  await parsed;
  res.end("{}");
});
const ready = mode === "overlap" ? parse() : Promise.resolve();
ready.then(() => server.listen(0, "127.0.0.1", () => console.log(server.address().port)));
`;

async function bestOf(mode: "discard" | "write" | "overlap", file: string, format: string, times = 5): Promise<number[]> {
  const child = spawn(process.execPath, ["-e", SERVER, mode, path.join(work, "received"), file, format], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise<number>((resolve) => child.stdout.once("data", (d: Buffer) => resolve(Number(d.toString()))));
  const results: number[] = [];
  try {
    for (let i = 0; i < times; i += 1) {
      const start = performance.now();
      await new Promise<void>((resolve, reject) => {
        const req = request(
          { host: "127.0.0.1", port, method: "POST", path: "/", headers: { "content-length": String(statSync(file).size) } },
          (res) => {
            res.resume();
            res.on("end", () => resolve());
          },
        );
        req.on("error", reject);
        createReadStream(file, { highWaterMark: 1 << 20 }).pipe(req);
      });
      results.push(performance.now() - start);
    }
  } finally {
    child.kill();
  }
  return results;
}

const lines: string[] = [];
try {
  const frame = edgeTable(ROWS);
  for (const format of ["csv", "parquet", "arrow"] as const) {
    const file = writeAs(frame, work, format);
    const floor = polarsFloor(file, format);
    const mib = `${(statSync(file).size / 2 ** 20).toFixed(0)} MiB`;
    const trials: [string, number[]][] = [
      ["receive, discard the bytes", await bestOf("discard", file, format)],
      ["receive, write them to a file", await bestOf("write", file, format)],
    ];
    if (format !== "arrow")
      trials.push(["receive and write, while polars parses the file and writes its table", await bestOf("overlap", file, format)]);
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
