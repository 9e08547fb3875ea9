// The parser process (parse-sandbox.ts): reads parse requests as JSON lines on stdin, answers each on stdout.
import { createInterface } from "node:readline";
import { isAppError } from "../errors/app-error.ts";
import { type ParseRequest, type ParseTimings, parseUpload } from "./parse.ts";
import { publicFailure } from "./parse-failure.ts";

export type ParseReply = { id: number; timings?: ParseTimings } & (
  | { schemas: Awaited<ReturnType<typeof parseUpload>> }
  | { error: { code: string; message: string; details: Record<string, unknown> } }
);

const reply = (message: ParseReply) => process.stdout.write(`${JSON.stringify(message)}\n`);

// One request at a time, in order: the parent sends the next only after this one is answered.
const lines = createInterface({ input: process.stdin });
lines.on("line", async (line) => {
  const { id, request } = JSON.parse(line) as { id: number; request: ParseRequest };
  const started = performance.now();
  const timings: ParseTimings = {};
  try {
    const schemas = await parseUpload(request, timings);
    timings.parserMs = performance.now() - started;
    reply({ id, timings, schemas });
  } catch (error) {
    timings.parserMs = performance.now() - started;
    const answer = publicFailure(error);
    // What the answer leaves out (a native library's own words, a stack) goes to the server's log.
    if (answer.logged) process.stderr.write(`parse failure: ${answer.logged.replace(/\s+/g, " ").slice(0, 4000)}\n`);
    reply({ id, timings, error: { code: answer.code, message: answer.message, details: isAppError(error) ? (error.details ?? {}) : {} } });
  }
  // Answered: now let V8 collect the polars frames of this upload. V8 does not see the native memory they
  // hold, and this process makes too little JavaScript garbage to collect them soon on its own (started
  // with --expose-gc by parse-process.ts).
  setImmediate(() => (globalThis as { gc?: () => void }).gc?.());
});
// The parent closing stdin (or exiting) ends this process.
lines.on("close", () => process.exit(0));
// hyparquet (Parquet footers) loads now, while the server starts, not during the first Parquet upload.
await import("hyparquet");
process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
