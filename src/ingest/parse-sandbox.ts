// Parses uploads in separate processes, so a file that makes a native reader abort, run long or swell ends that
// process, not the server; a few processes, shared between users in turn.
import type { ParseRequest, ParseTimings } from "./parse.ts";
import { createParserProcess, type ParserProcess } from "./parse-process.ts";
import { createTurns } from "./parse-turns.ts";
import type { TableSchema } from "./table-files.ts";
import type { TableLimits } from "./table-limits.ts";

type Job = {
  request: ParseRequest;
  /** Filled with the parser's stage timings, and the time the request waited for a process ("queueMs"). */
  timings: ParseTimings;
  queued: number;
  resolve(schemas: TableSchema[]): void;
  reject(error: Error): void;
};

export type ParseSandbox = {
  parse(request: ParseRequest, timings?: ParseTimings): Promise<TableSchema[]>;
  /** Uploads waiting for a parser process (for /metrics). */
  waiting?(): number;
  close(): Promise<void>;
};

export type ParseSandboxOptions = {
  onStderr?: (text: string) => void;
  /** An upload still parsing after this long stops its process and fails (PARSE_TIMEOUT_SECONDS). */
  timeoutMs?: number;
  /** Start the first process now rather than at the first parse (the others start when needed). */
  eager?: boolean;
  /** How many processes parse at once (PARSER_PROCESSES). */
  size?: number;
  /** Memory cap of each process (PARSER_MAX_MEMORY_MB); past it the upload fails with 413. */
  maxMemoryBytes?: number;
  /** Table shape limits given to every request that names none. */
  tableLimits?: TableLimits;
  /** How often each process's memory is read. */
  pollMs?: number;
};

/**
 * `size` parser processes (default 2), each started when first needed and again after it ends. Waiting
 * uploads are served owner by owner in turn (parse-turns.ts), and one owner holds at most `size - 1` processes
 * (one, with one process), so one user's hostile or huge files leave a process for everyone else. polars
 * aborts the whole process on some hostile files (a length of 2^51 it tries to allocate; a panic in one of
 * its threads): that ends only one parser, the upload being parsed fails with PARSE_FAILED, and the next
 * upload gets a fresh process.
 */
export function createParseSandbox(options: ParseSandboxOptions = {}): ParseSandbox {
  const size = Math.max(1, options.size ?? 2);
  const processes: ParserProcess[] = Array.from({ length: size }, () =>
    createParserProcess({
      ...(options.onStderr ? { onStderr: options.onStderr } : {}),
      ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
      ...(options.maxMemoryBytes ? { maxMemoryBytes: options.maxMemoryBytes } : {}),
      ...(options.pollMs ? { pollMs: options.pollMs } : {}),
    }),
  );
  // Idle processes as a stack: the one that answered last (started, its code warm) takes the next upload, and a
  // second process starts only when two uploads parse at once. (A queue handed every other upload to a process that
  // had never run: a start-up of a few hundred milliseconds, each time a process was first needed.)
  const idle = [...processes].reverse();
  const turns = createTurns<Job>(Math.max(1, size - 1));
  let closed = false;

  function pump(): void {
    while (!closed && idle.length > 0) {
      const next = turns.take();
      if (!next) return;
      const worker = idle.pop() as ParserProcess;
      const { owner, item: job } = next;
      job.timings.queueMs = performance.now() - job.queued;
      const request = job.request.tableLimits || !options.tableLimits ? job.request : { ...job.request, tableLimits: options.tableLimits };
      // The process goes back to the idle stack before the upload is answered: an upload sent as soon as that answer
      // arrives finds it there (with .finally() it came back a turn later, and the next upload started a cold one).
      const release = () => {
        turns.done(owner);
        idle.push(worker);
        pump();
      };
      worker.parse(request, job.timings).then(
        (schemas) => {
          release();
          job.resolve(schemas);
        },
        (error: Error) => {
          release();
          job.reject(error);
        },
      );
    }
  }

  if (options.eager ?? true) processes[0]?.start();
  return {
    waiting: () => turns.waiting,
    parse(request, timings = {}) {
      if (closed) return Promise.reject(new Error("the parser is closed"));
      return new Promise<TableSchema[]>((resolve, reject) => {
        turns.push(String(request.owner ?? ""), { request, timings, queued: performance.now(), resolve, reject });
        pump();
        // Still waiting: a process parsing an upload as it arrives gives it back (it is parsed again once whole)
        // rather than keep this one waiting on the sender's pace.
        if (turns.waiting > 0) for (const worker of processes) worker.yieldGrowing();
      });
    },
    async close() {
      closed = true;
      for (const job of turns.drain()) job.reject(new Error("the parser is closed"));
      await Promise.all(processes.map((p) => p.close()));
    },
  };
}
