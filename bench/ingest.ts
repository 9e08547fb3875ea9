// bench/ingest: uploads edge tables over HTTP until the file is valid, against nodejs-polars reading the same bytes.
// Run: node bench/ingest.ts [rows...]   (default 1000000 5000000). Prints one table of times, ratios and peak memory.
// Each upload goes to a freshly started server (so one upload's memory is not counted in the next one's peak) that has
// first taken a small upload of the same format (10,000 rows: its code has run once, as the bound's bare server's has
// and a running service's has; BENCH_COLD=1 leaves it out, making each timed upload the server's first): three
// timed uploads per format and size, each just after one polars read of the same file (the floor, interleaved with
// the uploads so that both see the same machine; the table shows the first upload, the best, all three, and the
// floor's best and all three), then one more, on a server that took no upload before, whose memory is sampled
// (sampling costs CPU, so it is kept out of the timed ones). Memory counts the server and its parser
// process: the peak of their summed proportional set size (PSS, shared pages counted once), sampled every 10 ms, and
// the sum of their RSS high-water marks (which counts the node binary and polars library pages they share twice).
// The bound beside it is what any HTTP upload that parses must spend here: a bare node:http server receiving and
// storing the same file (bench/bare-receive.ts, best of three in this run) plus the polars floor; the ratio against it
// is issue 13's target (at most 1.3x). Beside it, the same bound plus polars writing the table it read as an Arrow
// file (timed with each floor read): the service stores every parsed table, which the first bound leaves out.
// BENCH_UPLOAD_MBPS=125 paces every upload (the service's and the bound's) to a 1 Gbit/s link (bench/upload-source.ts).
import { mkdtemp, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { bareReceive } from "./bare-receive.ts";
import {
  currentPss,
  edgeTable,
  type Format,
  peakRss,
  polarsReadWrite,
  resetPeak,
  samplePss,
  stageTimings,
  startBenchServer,
  writeAs,
} from "./lib.ts";
import { loadAverageLine } from "./load-average.ts";

const sizes = process.argv
  .slice(2)
  .map(Number)
  .filter((n) => n > 0);
const ROWS = sizes.length > 0 ? sizes : [1_000_000, 5_000_000];
const FORMATS = (process.env.BENCH_FORMATS?.split(",") ?? ["csv", "parquet", "arrow"]) as Format[];
const TRIALS = 3;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** BENCH_COLD=1: each timed upload is the server's first (no small upload of the same format before it). */
const WARM = process.env.BENCH_COLD !== "1";

type Trial = { ms: number; rest: number; peakPss: number; peakRss: number };

/** One upload on a fresh server: time until the record is valid; with `sample`, its memory (see above). */
async function uploadOnce(
  work: string,
  file: string,
  format: Format,
  timings: string[],
  warm: string | undefined,
  sample = false,
): Promise<Trial> {
  const bench = await startBenchServer(path.join(work, "data"));
  const pid = bench.server.child.pid ?? 0;
  const create = () =>
    bench.json("/api/v2/files/", {
      method: "POST",
      headers: { ...bench.auth, "content-type": "application/json" },
      body: JSON.stringify({ file_type: format }),
    });
  try {
    if (warm) {
      // A small upload of the same format first: the server and its parser process have then run this path once,
      // as the bare server of the bound has (it receives three times in one process) and as a running service has.
      const small = await create();
      await bench.upload(`/api/v2/upload/files/${small.file_id}?erase=true`, warm);
    }
    const created = await create();
    resetPeak(pid);
    const rest = currentPss(pid);
    const sampler = sample ? samplePss(pid) : undefined;
    const start = performance.now();
    const record = await bench.upload(`/api/v2/upload/files/${created.file_id}?erase=true`, file);
    const ms = performance.now() - start;
    const peakPss = sampler?.stop() ?? 0;
    if (record.is_valid !== true) throw new Error(`${format}: not valid: ${JSON.stringify(record.errors)}`);
    return { ms, rest, peakPss, peakRss: peakRss(pid) };
  } finally {
    // The server logs an upload's stages as it answers; the line may reach us a little after the answer.
    const logged = process.env.BENCH_LOG_LEVEL === "debug" ? 1000 : 0;
    for (let waited = 0; waited < logged && stageTimings(bench.server).length < (warm ? 2 : 1); waited += 10) await sleep(10);
    timings.push(...stageTimings(bench.server));
    await bench.server.stop("SIGTERM");
    await rm(path.join(work, "data"), { recursive: true, force: true });
  }
}

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
const loadLine = loadAverageLine();
const work = await mkdtemp(path.join(os.tmpdir(), "bench-ingest-"));
const lines: string[] = [];
const timings: string[] = [];
try {
  for (const rows of ROWS) {
    const frame = edgeTable(rows);
    const arrowBytes = frame.writeIPC().length;
    for (const format of FORMATS) {
      const file = writeAs(frame, work, format);
      const warm = WARM ? writeAs(edgeTable(10_000), await mkdtemp(path.join(work, "warm-")), format) : undefined;
      const bytes = (await stat(file)).size;
      const receiveMs = Math.min(...(await bareReceive("write", file, format, work, TRIALS)));
      const trials: Trial[] = [];
      const floors: number[] = [];
      const writes: number[] = [];
      for (let i = 0; i < TRIALS; i += 1) {
        const floor = polarsReadWrite(file, format, path.join(work, "floor.arrow"));
        floors.push(floor.read);
        writes.push(floor.write);
        trials.push(await uploadOnce(work, file, format, timings, warm));
      }
      const floorMs = Math.min(...floors);
      const writeMs = Math.min(...writes);
      const boundMs = receiveMs + floorMs;
      const storedBoundMs = boundMs + writeMs;
      const best = Math.min(...trials.map((t) => t.ms));
      // Memory on a server that has taken no upload before (as before the warm-up came in: a warm parser process keeps
      // about 170 MiB more at rest, which is not this upload's); the growth over its memory at rest is shown too.
      const memory = await uploadOnce(work, file, format, timings, undefined, true);
      lines.push(
        [
          rows.toLocaleString("en-US"),
          format,
          mib(bytes),
          `${floorMs.toFixed(0)} ms (${floors.map((f) => f.toFixed(0)).join(", ")})`,
          `${(trials[0]?.ms ?? 0).toFixed(0)} ms`,
          `${best.toFixed(0)} ms (${trials.map((t) => t.ms.toFixed(0)).join(", ")})`,
          `${(best / floorMs).toFixed(2)}x`,
          `${receiveMs.toFixed(0)} + ${floorMs.toFixed(0)} = ${boundMs.toFixed(0)} ms`,
          `${(best / boundMs).toFixed(2)}x`,
          `${writeMs.toFixed(0)} ms (${writes.map((w) => w.toFixed(0)).join(", ")})`,
          `${(best / storedBoundMs).toFixed(2)}x`,
          mib(memory.rest),
          mib(memory.peakPss),
          `${(memory.peakPss / arrowBytes).toFixed(2)}x`,
          `${((memory.peakPss - memory.rest) / arrowBytes).toFixed(2)}x`,
          mib(memory.peakRss),
        ].join(" | "),
      );
      await rm(file);
    }
  }
} finally {
  for (const line of timings) console.log(line);
  await rm(work, { recursive: true, force: true });
}
console.log(`ingest benchmark, ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}`);
console.log(loadLine());
console.log(
  "| rows | format | file | polars floor: best (each, read before each upload) | end to end over HTTP: first | best (all three) | best of the floor | receive and store + floor | of that bound | polars writing its table: best (each) | of the bound with that write | PSS before | peak PSS | peak / Arrow size | (peak - before) / Arrow size | summed RSS peaks |",
);
console.log("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
for (const line of lines) console.log(`| ${line} |`);
