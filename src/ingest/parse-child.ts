// The parser process (parse-sandbox.ts): reads parse requests as JSON lines on stdin, answers each on stdout.
import { createInterface } from "node:readline";
import { isAppError } from "../errors/app-error.ts";
import { ParseDeferred } from "./growing-file.ts";
import { type ParseRequest, type ParseTimings, parseUpload } from "./parse.ts";
import { publicFailure } from "./parse-failure.ts";

export type ParseReply = { id: number; timings?: ParseTimings } & (
  | { schemas: Awaited<ReturnType<typeof parseUpload>> }
  | { deferred: string }
  | { error: { code: string; message: string; details: Record<string, unknown> } }
);

/**
 * What the server sends: a request (`growing`: its upload is still arriving), the end of a growing upload's
 * arrival (`grown`: its final size, or why it failed), or word that another upload waits for this process (`yield`).
 */
export type ParseMessage =
  | { id: number; request: ParseRequest; growing?: true }
  | { id: number; grown: { bytes: number } | { failed: string } }
  | { id: number; yield: true };

const reply = (message: ParseReply) => process.stdout.write(`${JSON.stringify(message)}\n`);

/** The arrival of the growing upload being parsed, ended by its `grown` message; `yield` asks it to defer. */
const arrivals = new Map<number, { resolve(bytes: number): void; reject(error: Error): void; yield(): void }>();

function growthOf(id: number): ParseRequest["growth"] {
  let yieldNow = () => {};
  const yielded = new Promise<void>((resolve) => {
    yieldNow = resolve;
  });
  const complete = new Promise<number>((resolve, reject) => arrivals.set(id, { resolve, reject, yield: () => yieldNow() }));
  // Only the parse looks at it, and it may have finished before the upload did.
  complete.catch(() => {});
  return { complete, yielded };
}

// One request at a time, in order: the parent sends the next only after this one is answered.
const lines = createInterface({ input: process.stdin });
lines.on("line", async (line) => {
  const message = JSON.parse(line) as ParseMessage;
  if ("yield" in message) {
    arrivals.get(message.id)?.yield();
    return;
  }
  if ("grown" in message) {
    const arrival = arrivals.get(message.id);
    arrivals.delete(message.id);
    if ("bytes" in message.grown) arrival?.resolve(message.grown.bytes);
    else arrival?.reject(new Error(`the upload failed: ${message.grown.failed}`));
    return;
  }
  const { id, growing } = message;
  const request = growing ? { ...message.request, growth: growthOf(id) } : message.request;
  const started = performance.now();
  const timings: ParseTimings = {};
  try {
    const schemas = await parseUpload(request, timings);
    timings.parserMs = performance.now() - started;
    reply({ id, timings, schemas });
  } catch (error) {
    timings.parserMs = performance.now() - started;
    if (error instanceof ParseDeferred) {
      reply({ id, timings, deferred: error.message });
      return;
    }
    const answer = publicFailure(error);
    // What the answer leaves out (a native library's own words, a stack) goes to the server's log.
    if (answer.logged) process.stderr.write(`parse failure: ${answer.logged.replace(/\s+/g, " ").slice(0, 4000)}\n`);
    reply({ id, timings, error: { code: answer.code, message: answer.message, details: isAppError(error) ? (error.details ?? {}) : {} } });
  } finally {
    arrivals.delete(id);
    // Answered: now let V8 collect the polars frames of this upload. V8 does not see the native memory they
    // hold, and this process makes too little JavaScript garbage to collect them soon on its own (started
    // with --expose-gc by parse-process.ts).
    setImmediate(() => (globalThis as { gc?: () => void }).gc?.());
  }
});
// The parent closing stdin (or exiting) ends this process.
lines.on("close", () => process.exit(0));
// hyparquet (Parquet footers) loads now, while the server starts, not during the first Parquet upload.
await import("hyparquet");
process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
