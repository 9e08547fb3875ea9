// A bare node:http server in its own process that receives an upload, the lower bound of any HTTP upload here:
// "discard" drops the bytes, "write" writes them to a file (as the blob store must), and "overlap" writes them while a
// worker thread has polars parse the same file, already on disk, and write its Arrow table (the best any
// parse-while-receiving design could do: the parse never waits for bytes).
import { spawn } from "node:child_process";
import { statSync } from "node:fs";
import { request } from "node:http";
import path from "node:path";
import { uploadSource } from "./upload-source.ts";

export type ReceiveMode = "discard" | "write" | "overlap";

const SERVER = `
const { createServer } = require("node:http");
const { createWriteStream } = require("node:fs");
const { pipeline } = require("node:stream/promises");
const { Worker } = require("node:worker_threads");
const [mode, target, source, format] = process.argv.slice(1);
const worker = mode !== "overlap" ? undefined : new Worker(\`
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

/** Times `times` uploads of `file` to a fresh bare server (milliseconds, in order). */
export async function bareReceive(mode: ReceiveMode, file: string, format: string, work: string, times: number): Promise<number[]> {
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
        uploadSource(file).pipe(req);
      });
      results.push(performance.now() - start);
    }
  } finally {
    child.kill();
  }
  return results;
}
