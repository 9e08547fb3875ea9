// One parser process (parse-child.ts), one upload at a time, held to a time limit and a memory cap (V8's heap
// limit, and a watchdog on the resident memory that polars' native allocations count in).
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { AppError, isAppErrorCode } from "../errors/app-error.ts";
import { type Growth, ParseDeferred } from "./growing-file.ts";
import type { ParseRequest, ParseTimings } from "./parse.ts";
import type { ParseMessage, ParseReply } from "./parse-child.ts";
import type { TableSchema } from "./table-files.ts";

const CHILD = fileURLToPath(new URL("./parse-child.ts", import.meta.url));

/** How to start the parser process under the runtime running the server (Deno runs it through its Node compatibility). */
function command(heapMb: number | undefined): { bin: string; args: string[] } {
  const heap = heapMb ? [`--max-old-space-size=${heapMb}`] : [];
  if ("Deno" in globalThis) {
    return {
      bin: process.execPath,
      args: [
        "run",
        `--v8-flags=${["--expose-gc", ...heap].join(",")}`,
        "--allow-env",
        "--allow-read",
        "--allow-write",
        "--allow-ffi",
        "--allow-sys",
        CHILD,
      ],
    };
  }
  return { bin: process.execPath, args: ["--expose-gc", ...heap, CHILD] };
}

const rssOf = (status: string) => {
  const kb = /^VmRSS:\s+(\d+) kB/m.exec(status)?.[1];
  return kb === undefined ? undefined : Number(kb) * 1024;
};

/** The resident memory of a process, in bytes, from /proc (Linux); undefined where it cannot be read. */
async function residentBytes(pid: number): Promise<number | undefined> {
  return readFile(`/proc/${pid}/status`, "latin1").then(rssOf, () => undefined);
}

function residentBytesNow(pid: number): number | undefined {
  try {
    return rssOf(readFileSync(`/proc/${pid}/status`, "latin1"));
  } catch {
    return undefined;
  }
}

/**
 * glibc's allocator settings for the parser process, where the environment sets none: polars' threads in two
 * arenas, and blocks up to 32 MiB (a CSV chunk's copy, a row group's pages) taken from the heap and handed back
 * only past 64 MiB free at its top, so that the next chunk reuses them. Left to glibc's defaults, every chunk
 * mapped fresh memory and gave it back, and each new page costs a fault (on this project's VMs, 2-16 µs: the host
 * takes freed memory back). The chunked CSV read of 5M rows in-process: 1,318-1,357 ms -> 1,065-1,091 ms, peak
 * 243-247 -> 239-240 MB (the README's ingest notes). What is kept stays bounded: the heap's top goes back once
 * more than 64 MiB of it is free, and a process left holding half its cap starts afresh (recycleIfSwollen).
 */
export const PARSER_MALLOC_ENV: Record<string, string> = {
  MALLOC_ARENA_MAX: "2",
  MALLOC_MMAP_THRESHOLD_: String(32 << 20),
  MALLOC_TRIM_THRESHOLD_: String(64 << 20),
};

/** The parser process's environment: the server's, with PARSER_MALLOC_ENV for what it leaves unset. */
export function parserEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const added = Object.entries(PARSER_MALLOC_ENV).filter(([name]) => env[name] === undefined);
  return { ...env, ...Object.fromEntries(added) };
}

/** What V8 prints as it gives up on a full heap. */
const HEAP_EXHAUSTED = /heap out of memory|Reached heap limit|Ineffective mark-compacts near heap limit/;

export type ParserProcessOptions = {
  onStderr?: (text: string) => void;
  timeoutMs?: number;
  /** Most memory the process may use while it parses (V8's heap limit too); 0 or absent: no cap. */
  maxMemoryBytes?: number;
  /** How often the watchdog reads the process's resident memory. */
  pollMs?: number;
};

export type ParserProcess = {
  /** Starts the process now (it starts at the first parse otherwise). */
  start(): void;
  /** Parses one upload; the caller sends the next only after this one settles. */
  parse(request: ParseRequest, timings: ParseTimings): Promise<TableSchema[]>;
  /** Another upload waits for a process: a parse of an upload still arriving defers at its next wait for bytes. */
  yieldGrowing(): void;
  close(): Promise<void>;
};

type Job = {
  id: number;
  timings: ParseTimings;
  resolve(schemas: TableSchema[]): void;
  reject(error: Error): void;
  /** Sent as an upload still arriving, to this process. */
  growing?: ChildProcessWithoutNullStreams;
  /** Asked to yield (yieldGrowing), perhaps before it was sent. */
  yielding?: boolean;
};

export function memoryError(maxBytes: number): AppError {
  const mb = Math.round(maxBytes / 1024 ** 2);
  return new AppError(
    "PAYLOAD_TOO_LARGE",
    `parsing the file needed more than ${mb} MiB of memory, the parser's limit (PARSER_MAX_MEMORY_MB)`,
    {
      details: { limit: maxBytes, setting: "PARSER_MAX_MEMORY_MB" },
    },
  );
}

/** A growth as the server side follows it: its final size once known (synchronously), and its end as a message. */
function arrivalOf(growth: Growth) {
  const arrival: { bytes?: number; ended: Promise<{ bytes: number } | { failed: string }> } = {
    ended: growth.complete.then(
      (bytes) => {
        arrival.bytes = bytes;
        return { bytes };
      },
      (error: unknown) => ({ failed: error instanceof Error ? error.message : String(error) }),
    ),
  };
  return arrival;
}

export function createParserProcess(options: ParserProcessOptions = {}): ParserProcess {
  const cap = options.maxMemoryBytes ?? 0;
  let child: ChildProcessWithoutNullStreams | undefined;
  let ready: Promise<void> | undefined;
  let current: Job | undefined;
  /** Why the process was stopped under the current job: then the job is told that, not "it stopped". */
  let stopped: "timeout" | "memory" | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let watchdog: ReturnType<typeof setInterval> | undefined;
  let serial = 0;
  let closed = false;

  function stopTimers(): void {
    clearTimeout(timer);
    clearInterval(watchdog);
    timer = undefined;
    watchdog = undefined;
  }

  function lostJob(code: number | null, signal: NodeJS.Signals | null): Error {
    if (stopped === "memory") return memoryError(cap);
    if (stopped === "timeout") {
      return new AppError("PARSE_FAILED", `the file could not be parsed within ${Math.round((options.timeoutMs ?? 0) / 1000)} s`, {
        details: { parser: "timed out" },
      });
    }
    return new AppError("PARSE_FAILED", "the file could not be parsed: it made the parser stop", {
      details: { parser: signal ?? `exit code ${code}` },
    });
  }

  function start(): void {
    if (child || closed) return;
    const { bin, args } = command(cap ? Math.max(64, Math.floor(cap / 1024 ** 2)) : undefined);
    const started = spawn(bin, args, { stdio: ["pipe", "pipe", "pipe"], env: parserEnv() });
    child = started;
    stopped = undefined;
    // Writing to a process that has just ended fails with EPIPE: its exit reports the job, not an uncaught error.
    started.stdin.on("error", () => {});
    // What the parser prints (a native library's last words, say), a line at a time.
    createInterface({ input: started.stderr }).on("line", (line) => {
      if (current && child === started && HEAP_EXHAUSTED.test(line)) stopped ??= "memory";
      if (line.trim()) options.onStderr?.(line);
    });
    ready = new Promise<void>((resolve, reject) => {
      createInterface({ input: started.stdout }).on("line", (line) => {
        let message: ParseReply | { ready: true };
        try {
          message = JSON.parse(line) as ParseReply | { ready: true };
        } catch {
          // Not an answer: something in the parser printed to stdout.
          options.onStderr?.(line);
          return;
        }
        if ("ready" in message) resolve();
        else settle(message);
      });
      started.once("exit", (code, signal) => {
        reject(new Error(`the parser process ended (${signal ?? `exit code ${code}`})`));
        if (child !== started) return;
        child = undefined;
        stopTimers();
        const lost = current;
        current = undefined;
        lost?.reject(lostJob(code, signal));
        stopped = undefined;
      });
    });
    // An early failure is reported to the job that waits for it.
    ready.catch(() => {});
    started.unref();
    for (const stream of [started.stdin, started.stdout, started.stderr]) (stream as unknown as { unref?(): void }).unref?.();
  }

  /** Tells the process parsing `job`'s upload as it arrives to defer it (parse-child.ts). */
  function askToYield(job: Job): void {
    if (job.growing && job.growing === child && current === job) {
      job.growing.stdin.write(`${JSON.stringify({ id: job.id, yield: true } satisfies ParseMessage)}\n`);
    }
  }

  function settle(message: ParseReply): void {
    const job = current;
    if (!job || job.id !== message.id) return;
    current = undefined;
    stopTimers();
    recycleIfSwollen();
    Object.assign(job.timings, message.timings);
    if ("schemas" in message) job.resolve(message.schemas);
    else if ("deferred" in message) job.reject(new ParseDeferred(message.deferred));
    else if (isAppErrorCode(message.error.code) && message.error.code !== "INTERNAL") {
      job.reject(new AppError(message.error.code, message.error.message, { details: message.error.details }));
    } else job.reject(new Error(message.error.message));
  }

  /**
   * A process that kept much of a large upload's memory starts afresh, so the next upload has the whole cap
   * (and is not stopped for memory the last one left). Checked as each upload is answered, before the next.
   */
  function recycleIfSwollen(): void {
    const running = child;
    if (!cap || !running?.pid) return;
    const rss = residentBytesNow(running.pid);
    if (rss === undefined || rss < cap / 2) return;
    child = undefined;
    running.stdin.end();
    running.kill("SIGKILL");
  }

  function watch(running: ChildProcessWithoutNullStreams, job: Job): void {
    if (options.timeoutMs) {
      timer = setTimeout(() => {
        if (current !== job) return;
        stopped = "timeout";
        running.kill("SIGKILL");
      }, options.timeoutMs);
      timer.unref?.();
    }
    if (cap && running.pid) {
      const pid = running.pid;
      let reading = false;
      watchdog = setInterval(async () => {
        if (reading) return;
        reading = true;
        const rss = await residentBytes(pid);
        reading = false;
        if (current !== job || rss === undefined || rss <= cap) return;
        stopped = "memory";
        running.kill("SIGKILL");
      }, options.pollMs ?? 50);
      watchdog.unref?.();
    }
  }

  return {
    start,
    parse(request, timings) {
      if (closed) return Promise.reject(new Error("the parser is closed"));
      if (current) return Promise.reject(new Error("the parser process is busy"));
      start();
      const sending = child as ChildProcessWithoutNullStreams;
      const queued = performance.now();
      const { growth, ...sent } = request;
      const arrival = growth && arrivalOf(growth);
      return new Promise<TableSchema[]>((resolve, reject) => {
        const job: Job = { id: ++serial, timings, resolve, reject };
        current = job;
        const send = (message: ParseMessage) => sending.stdin.write(`${JSON.stringify(message)}\n`);
        ready?.then(
          () => {
            if (current !== job) return;
            timings.queueMs = (timings.queueMs ?? 0) + (performance.now() - queued);
            // An upload that arrived whole while the request waited is parsed as a stored file.
            const growing = arrival !== undefined && arrival.bytes === undefined;
            send(growing ? { id: job.id, request: sent, growing } : { id: job.id, request: sent });
            watch(sending, job);
            if (!growing || !arrival) return;
            job.growing = sending;
            if (job.yielding) askToYield(job);
            arrival.ended.then((grown) => {
              if (current === job && child === sending) send({ id: job.id, grown });
            });
          },
          (error: Error) => {
            if (current !== job) return;
            current = undefined;
            job.reject(new AppError("PARSE_FAILED", `the file could not be parsed: ${error.message}`));
          },
        );
      });
    },
    yieldGrowing() {
      if (!current) return;
      current.yielding = true;
      askToYield(current);
    },
    async close() {
      closed = true;
      stopTimers();
      const last = child;
      child = undefined;
      const lost = current;
      current = undefined;
      lost?.reject(new Error("the parser is closed"));
      if (!last || last.exitCode !== null || last.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => last.once("exit", () => resolve()));
      // Held again until it has ended: unreferenced, the process could finish before the exit arrives.
      last.ref();
      last.stdin.end();
      last.kill();
      await exited;
    },
  };
}
