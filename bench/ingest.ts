// bench/ingest: uploads edge tables over HTTP until the file is valid, against nodejs-polars reading the same bytes.
// Run: node bench/ingest.ts [rows...]   (default 1000000 5000000). Prints one table of times, ratios and peak memory.
import { createReadStream, readFileSync, statSync, writeFileSync } from "node:fs";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { request } from "node:http";
import os from "node:os";
import path from "node:path";
import pl from "nodejs-polars";
import { startServer } from "../test/helpers/server-process.ts";

const sizes = process.argv
  .slice(2)
  .map(Number)
  .filter((n) => n > 0);
const ROWS = sizes.length > 0 ? sizes : [1_000_000, 5_000_000];
const FORMATS = ["csv", "parquet", "arrow"] as const;
type Format = (typeof FORMATS)[number];

function edgeTable(rows: number): pl.DataFrame {
  // Deterministic pseudo-random graph: int64 endpoints, float64 weight, a string label.
  const src = new Array<number>(rows);
  const dst = new Array<number>(rows);
  const weight = new Float64Array(rows);
  const label = new Array<string>(rows);
  let seed = 42;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed;
  };
  for (let i = 0; i < rows; i += 1) {
    src[i] = next() % (rows / 10);
    dst[i] = next() % (rows / 10);
    weight[i] = next() / 2147483648;
    label[i] = `edge-${next() % 100000}`;
  }
  return pl.DataFrame([
    pl.Series("src", src, pl.Int64),
    pl.Series("dst", dst, pl.Int64),
    pl.Series("weight", weight, pl.Float64),
    pl.Series("label", label),
  ]);
}

function write(frame: pl.DataFrame, dir: string, format: Format): string {
  const file = path.join(dir, `edges.${format}`);
  if (format === "csv") frame.writeCSV(file);
  else if (format === "parquet") frame.writeParquet(file);
  else frame.writeIPC(file);
  return file;
}

/** The floor: nodejs-polars reading the file in this process (best of three). */
function floor(file: string, format: Format): number {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 3; i += 1) {
    const start = performance.now();
    const frame =
      format === "csv" ? pl.readCSV(file) : format === "parquet" ? pl.scanParquet(file).collectSync() : pl.readIPC(readFileSync(file));
    if (frame.height === 0) throw new Error("empty read");
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

/** POSTs a file with node:http, streaming it from disk, as a lean client (like Python's requests) would. */
function uploadFile(url: string, file: string, headers: Record<string, string>): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "POST", headers: { ...headers, "content-length": String(statSync(file).size) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString();
        if (res.statusCode !== 200) reject(new Error(`upload: ${res.statusCode} ${text}`));
        else resolve(JSON.parse(text) as Record<string, unknown>);
      });
    });
    req.on("error", reject);
    createReadStream(file, { highWaterMark: 1 << 20 }).pipe(req);
  });
}

function peakRss(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}

/** Resets the kernel's peak-RSS counter of a process (Linux: clear_refs 5). */
function resetPeak(pid: number): void {
  writeFileSync(`/proc/${pid}/clear_refs`, "5");
}

async function main(): Promise<void> {
  const work = await mkdtemp(path.join(os.tmpdir(), "bench-ingest-"));
  const server = await startServer({
    DATA_DIR: path.join(work, "data"),
    ADMIN_USERNAME: "bench",
    ADMIN_PASSWORD: "bench-password",
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "info",
  });
  const pid = server.child.pid ?? 0;
  const post = async (url: string, init: RequestInit) => {
    const response = await fetch(`${server.url}${url}`, init);
    if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
    return response.json() as Promise<Record<string, unknown>>;
  };
  const { token } = (await post("/api-token-auth/", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: "bench", password: "bench-password" }),
  })) as {
    token: string;
  };
  const auth = { authorization: `Bearer ${token}` };
  const lines: string[] = [];
  try {
    for (const rows of ROWS) {
      const frame = edgeTable(rows);
      const arrowBytes = frame.writeIPC().length;
      for (const format of FORMATS) {
        const file = write(frame, work, format);
        const bytes = (await stat(file)).size;
        const floorMs = floor(file, format);
        const created = await post("/api/v2/files/", {
          method: "POST",
          headers: { ...auth, "content-type": "application/json" },
          body: JSON.stringify({ file_type: format }),
        });
        resetPeak(pid);
        const start = performance.now();
        const record = await uploadFile(`${server.url}/api/v2/upload/files/${created.file_id}?erase=true`, file, auth);
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
    // With BENCH_LOG_LEVEL=debug the server's own stage timings are shown too.
    for (const line of server.logs
      .join("")
      .split("\n")
      .filter((l) => l.includes('"msg":"upload"')))
      console.log(line);
    await server.stop("SIGTERM");
    await rm(work, { recursive: true, force: true });
  }
  console.log(`ingest benchmark, ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}`);
  console.log("| rows | format | file | polars floor | end to end (HTTP) | ratio | server peak RSS | peak / Arrow size |");
  console.log("|---|---|---|---|---|---|---|---|");
  for (const line of lines) console.log(`| ${line} |`);
}

await main();
