// Structured logs: one JSON object per line on stderr, filtered by LOG_LEVEL.
import { setImmediate } from "node:timers";
import type { LogLevel } from "../config/config.ts";
import { currentRequestScope } from "./request-scope.ts";

export type Logger = Record<Exclude<LogLevel, "silent">, (message: string, fields?: Record<string, unknown>) => void>;

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

/** Lines waiting for the end of this turn of the event loop, and their length. */
const pending: string[] = [];
let pendingLength = 0;
let flushing = false;

function flushStderr(): void {
  flushing = false;
  if (pending.length === 0) return;
  const text = pending.join("");
  pending.length = 0;
  pendingLength = 0;
  process.stderr.write(text);
}

/**
 * Writes to stderr once per turn of the event loop, whatever the lines written in it: on Linux a write to a pipe or
 * a file blocks the thread, and one write per access-log line cost the main thread a share of every request at
 * hundreds of requests a second. Flushed at once past 64 KiB, and when the process exits (an uncaught error
 * included); only a SIGKILL can lose the lines of the current turn.
 */
function batchedStderr(line: string): void {
  pending.push(line);
  pendingLength += line.length;
  if (pendingLength >= 65_536) flushStderr();
  else if (!flushing) {
    flushing = true;
    setImmediate(flushStderr);
  }
}
process.once("exit", flushStderr);

export function createLogger(level: LogLevel, sink: (line: string) => void = batchedStderr): Logger {
  const at =
    (name: Exclude<LogLevel, "silent">) =>
    (message: string, fields: Record<string, unknown> = {}) => {
      if (ORDER[name] < ORDER[level]) return;
      // A line written while serving a request names it (request-scope.ts).
      const requestId = currentRequestScope()?.requestId;
      const context = requestId === undefined ? {} : { requestId };
      sink(`${JSON.stringify({ time: new Date().toISOString(), level: name, msg: message, ...context, ...fields })}\n`);
    };
  return { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}
