// Shared pieces of the benchmarks: test data, a running server, a lean HTTP client, the polars floor, peak memory.
import { readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import path from "node:path";
import pl from "nodejs-polars";
import { type ServerProcess, startServer } from "../test/helpers/server-process.ts";
import { uploadSource } from "./upload-source.ts";

export type Format = "csv" | "parquet" | "arrow";

/** A deterministic pseudo-random edge table: int64 endpoints, float64 weight, a string label. */
export function edgeTable(rows: number): pl.DataFrame {
  const src = new Array<number>(rows);
  const dst = new Array<number>(rows);
  const weight = new Float64Array(rows);
  const label = new Array<string>(rows);
  let seed = 42;
  const next = () => {
    // 32-bit arithmetic: a plain multiply would lose precision past 2^53 and repeat values.
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed;
  };
  for (let i = 0; i < rows; i += 1) {
    src[i] = next() % (rows / 10);
    dst[i] = next() % (rows / 10);
    weight[i] = next() / 4294967296;
    label[i] = `edge-${next() % 100000}`;
  }
  return pl.DataFrame([
    pl.Series("src", src, pl.Int64),
    pl.Series("dst", dst, pl.Int64),
    pl.Series("weight", weight, pl.Float64),
    pl.Series("label", label),
  ]);
}

export function writeAs(frame: pl.DataFrame, dir: string, format: Format): string {
  const file = path.join(dir, `edges.${format}`);
  if (format === "csv") frame.writeCSV(file);
  else if (format === "parquet") frame.writeParquet(file);
  else frame.writeIPC(file);
  return file;
}

/**
 * The floor: nodejs-polars reading the file in this process, once (milliseconds). Each format is read the way
 * polars reads a file fastest: the Arrow file through scanIPC, not read into a JavaScript Buffer first (1.65x
 * slower on the 5M-row file).
 */
export function polarsRead(file: string, format: Format): number {
  const start = performance.now();
  const frame =
    format === "csv" ? pl.readCSV(file) : format === "parquet" ? pl.scanParquet(file).collectSync() : pl.scanIPC(file).collectSync();
  if (frame.height === 0) throw new Error("empty read");
  return performance.now() - start;
}

/**
 * What storing the floor's table costs: polars writing the frame it read as an Arrow IPC file into a new file
 * (milliseconds), as the service must store every parsed upload. On this VM a new file's page-cache pages can cost
 * several times a memcpy (fresh pages fault in the hypervisor), so this moves from run to run.
 */
export function polarsReadWrite(file: string, format: Format, out: string): { read: number; write: number } {
  const start = performance.now();
  const frame =
    format === "csv" ? pl.readCSV(file) : format === "parquet" ? pl.scanParquet(file).collectSync() : pl.scanIPC(file).collectSync();
  const read = performance.now() - start;
  if (frame.height === 0) throw new Error("empty read");
  frame.writeIPC(out);
  const write = performance.now() - start - read;
  rmSync(out, { force: true });
  return { read, write };
}

/** The floor, best of three reads in a row. */
export function polarsFloor(file: string, format: Format): number {
  return Math.min(polarsRead(file, format), polarsRead(file, format), polarsRead(file, format));
}

/** The server process and its children (the parser process): memory is counted over all of them. */
function processes(pid: number): number[] {
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    // no children listed
  }
  return [pid, ...children];
}

function statusField(pid: number, field: string): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/** The sum of the high-water marks of the server and its child processes (each since its last reset). */
export function peakRss(pid: number): number {
  return processes(pid).reduce((sum, p) => sum + statusField(p, "VmHWM"), 0);
}

export function currentPss(pid: number): number {
  return processes(pid).reduce((sum, p) => sum + pss(p), 0);
}

function pss(pid: number): number {
  try {
    return Number(/^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"))?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/**
 * Samples the proportional set size (PSS) of the server and its children every `everyMs` until
 * stopped, and answers the largest sum seen. Unlike the sum of their RSS, PSS counts the pages the
 * processes share (the node binary, the polars library) once; the kernel keeps no PSS high-water mark,
 * so this is sampled, and a spike shorter than the interval can be missed.
 */
export function samplePss(pid: number, everyMs = 10): { stop(): number } {
  let peak = 0;
  const take = () => {
    peak = Math.max(
      peak,
      processes(pid).reduce((sum, p) => sum + pss(p), 0),
    );
  };
  take();
  const timer = setInterval(take, everyMs);
  return {
    stop() {
      clearInterval(timer);
      take();
      return peak;
    },
  };
}

/** Resets the kernel's peak-RSS counters of the server and its children (Linux: clear_refs 5). */
export function resetPeak(pid: number): void {
  for (const p of processes(pid)) writeFileSync(`/proc/${p}/clear_refs`, "5");
}

export type BenchServer = {
  server: ServerProcess;
  auth: Record<string, string>;
  json(url: string, init: RequestInit): Promise<Record<string, unknown>>;
  /** POSTs a file with node:http, streaming it from disk, as a lean client (like Python's requests) would. */
  upload(url: string, file: string): Promise<Record<string, unknown>>;
};

export async function startBenchServer(dataDir: string): Promise<BenchServer> {
  const server = await startServer({
    DATA_DIR: dataDir,
    ADMIN_USERNAME: "bench",
    ADMIN_PASSWORD: "bench-password",
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "info",
  });
  const json = async (url: string, init: RequestInit) => {
    const response = await fetch(`${server.url}${url}`, init);
    if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
    return response.json() as Promise<Record<string, unknown>>;
  };
  const login = await json("/api-token-auth/", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: "bench", password: "bench-password" }),
  });
  const auth = { authorization: `Bearer ${String(login.token)}` };
  const upload = (url: string, file: string) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const req = request(
        `${server.url}${url}`,
        { method: "POST", headers: { ...auth, "content-length": String(statSync(file).size) } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => {
            const text = Buffer.concat(chunks).toString();
            if (res.statusCode !== 200) reject(new Error(`upload: ${res.statusCode} ${text}`));
            else resolve(JSON.parse(text) as Record<string, unknown>);
          });
        },
      );
      req.on("error", reject);
      uploadSource(file).pipe(req);
    });
  return { server, auth, json, upload };
}

/** The server's own stage timings, when run with BENCH_LOG_LEVEL=debug. */
export function stageTimings(server: ServerProcess): string[] {
  return server.logs
    .join("")
    .split("\n")
    .filter((l) => /"msg":"(dataset )?upload"/.test(l));
}
