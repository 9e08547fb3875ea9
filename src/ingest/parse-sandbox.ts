// Parses uploads in a separate process, so a file that makes a native reader abort ends that process, not the server.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { AppError, isAppErrorCode } from "../errors/app-error.ts";
import type { ParseRequest, ParseTimings } from "./parse.ts";
import type { ParseReply } from "./parse-child.ts";
import type { TableSchema } from "./table-files.ts";

const CHILD = fileURLToPath(new URL("./parse-child.ts", import.meta.url));

/** How to start the parser process under the runtime running the server (Deno runs it through its Node compatibility). */
function command(): { bin: string; args: string[] } {
  if ("Deno" in globalThis) {
    return {
      bin: process.execPath,
      args: ["run", "--v8-flags=--expose-gc", "--allow-env", "--allow-read", "--allow-write", "--allow-ffi", "--allow-sys", CHILD],
    };
  }
  return { bin: process.execPath, args: ["--expose-gc", CHILD] };
}

type Job = {
  id: number;
  request: ParseRequest;
  /** Filled with the parser's stage timings, and the time the request waited to be sent ("queueMs"). */
  timings: ParseTimings;
  queued: number;
  resolve(schemas: TableSchema[]): void;
  reject(error: Error): void;
};

export type ParseSandbox = { parse(request: ParseRequest, timings?: ParseTimings): Promise<TableSchema[]>; close(): Promise<void> };

/**
 * One parser process, started at once and again after it ends; requests go to it one at a time, in
 * order. polars aborts the whole process on some hostile files (a length of 2^51 it tries to
 * allocate; a panic in one of its threads): in here that ends only the parser, the upload being parsed
 * fails with PARSE_FAILED, and the next one gets a fresh process.
 */
export function createParseSandbox(
  options: {
    onStderr?: (text: string) => void;
    timeoutMs?: number;
    /** Start the process now rather than at the first parse. */
    eager?: boolean;
  } = {},
): ParseSandbox {
  let child: ChildProcessWithoutNullStreams | undefined;
  let ready: Promise<void> | undefined;
  let current: Job | undefined;
  /** Set when the current job ran past its time: the parser is stopped, and the job told why. */
  let timedOut = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const queue: Job[] = [];
  let serial = 0;
  let closed = false;

  function start(): void {
    const { bin, args } = command();
    const started = spawn(bin, args, { stdio: ["pipe", "pipe", "pipe"], env: process.env });
    child = started;
    // What the parser prints (a native library's last words, say), a line at a time.
    createInterface({ input: started.stderr }).on("line", (line) => {
      if (line.trim()) options.onStderr?.(line);
    });
    ready = new Promise<void>((resolve, reject) => {
      const lines = createInterface({ input: started.stdout });
      lines.on("line", (line) => {
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
        if (child === started) child = undefined;
        const lost = current;
        current = undefined;
        clearTimeout(timer);
        lost?.reject(
          timedOut
            ? new AppError("PARSE_FAILED", `the file could not be parsed within ${Math.round((options.timeoutMs ?? 0) / 1000)} s`, {
                details: { parser: "timed out" },
              })
            : new AppError("PARSE_FAILED", "the file could not be parsed: it made the parser stop", {
                details: { parser: signal ?? `exit code ${code}` },
              }),
        );
        timedOut = false;
        if (!closed && queue.length > 0) next();
      });
    });
    // An early failure is reported to the job that waits for it.
    ready.catch(() => {});
    started.unref();
    (started.stdin as unknown as { unref?(): void }).unref?.();
    (started.stdout as unknown as { unref?(): void }).unref?.();
    (started.stderr as unknown as { unref?(): void }).unref?.();
  }

  function settle(message: ParseReply): void {
    const job = current;
    if (!job || job.id !== message.id) return;
    current = undefined;
    clearTimeout(timer);
    Object.assign(job.timings, message.timings);
    if ("schemas" in message) job.resolve(message.schemas);
    else if (isAppErrorCode(message.error.code) && message.error.code !== "INTERNAL") {
      job.reject(new AppError(message.error.code, message.error.message, { details: message.error.details }));
    } else job.reject(new Error(message.error.message));
    next();
  }

  function next(): void {
    if (current || queue.length === 0 || closed) return;
    if (!child) start();
    const job = queue.shift() as Job;
    current = job;
    const sending = child;
    ready?.then(
      () => {
        job.timings.queueMs = performance.now() - job.queued;
        sending?.stdin.write(`${JSON.stringify({ id: job.id, request: job.request })}\n`);
        if (options.timeoutMs) {
          timer = setTimeout(() => {
            if (current !== job) return;
            timedOut = true;
            sending?.kill("SIGKILL");
          }, options.timeoutMs);
          timer.unref?.();
        }
      },
      (error: Error) => {
        if (current !== job) return;
        current = undefined;
        job.reject(new AppError("PARSE_FAILED", `the file could not be parsed: ${error.message}`));
        next();
      },
    );
  }

  if (options.eager ?? true) start();
  return {
    parse(request, timings = {}) {
      if (closed) return Promise.reject(new Error("the parser is closed"));
      return new Promise<TableSchema[]>((resolve, reject) => {
        queue.push({ id: ++serial, request, timings, queued: performance.now(), resolve, reject });
        next();
      });
    },
    async close() {
      closed = true;
      const last = child;
      child = undefined;
      if (!last || last.exitCode !== null) return;
      const exited = new Promise<void>((resolve) => last.once("exit", () => resolve()));
      // Held again until it has ended: unreferenced, the process could finish before the exit arrives.
      last.ref();
      last.stdin.end();
      last.kill();
      await exited;
    },
  };
}
