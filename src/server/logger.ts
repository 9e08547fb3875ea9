// Structured logs: one JSON object per line on stderr, filtered by LOG_LEVEL.
import type { LogLevel } from "../config/config.ts";
import { currentRequestScope } from "./request-scope.ts";

export type Logger = Record<Exclude<LogLevel, "silent">, (message: string, fields?: Record<string, unknown>) => void>;

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export function createLogger(level: LogLevel, sink: (line: string) => void = (line) => process.stderr.write(line)): Logger {
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
