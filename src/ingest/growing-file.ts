// An upload parsed while it is still being received: the parser reads the stored file as it grows, waiting for the
// receiving side where it catches up, and hands the upload back (ParseDeferred) where the upload arrives too slowly.
import type { FileHandle } from "node:fs/promises";
import { stat } from "node:fs/promises";

/** The receiving side of an upload being parsed as it arrives. */
export type Growth = {
  /** The file's final size once every byte is stored; rejects when the upload fails. */
  readonly complete: Promise<number>;
  /**
   * Resolves when the parser process is wanted by another upload (parse-sandbox.ts): the parse is deferred at its next
   * wait for bytes instead of holding the process while the rest arrives.
   */
  readonly yielded?: Promise<void>;
};

/**
 * The parse gave the upload back before its end: another upload wants the parser process while this one waits for
 * bytes, the upload has kept it waiting too long in all, or the file needs a reader that wants all of it (csv-chunks.ts
 * GiveUp). The receiving side parses it again once it is stored whole.
 */
export class ParseDeferred extends Error {
  constructor(reason: string) {
    super(`parse deferred until the upload is stored: ${reason}`);
    this.name = "ParseDeferred";
  }
}

/** How long a parse that caught up with the upload sleeps before it looks again. */
const POLL_MS = 2;

/**
 * Past this much waiting for the upload in all, the parse is deferred (ParseDeferred) even with no other upload
 * waiting: a slow sender does not hold a parser process (and its time limit, PARSE_TIMEOUT_SECONDS) for long.
 */
export const MAX_WAIT_MS = 30_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The state of a growth as the parser sees it: settled yet, and how. */
function watch(growth: Growth) {
  const state: { final?: number; failed?: unknown; waited: number; yielded: boolean } = { waited: 0, yielded: false };
  growth.yielded?.then(() => {
    state.yielded = true;
  });
  growth.complete.then(
    (bytes) => {
      state.final = bytes;
    },
    (error: unknown) => {
      state.failed = error ?? new Error("the upload failed");
    },
  );
  return state;
}

type Watched = ReturnType<typeof watch>;

/** One wait for the upload, counted against MAX_WAIT_MS; throws ParseDeferred past it and the upload's failure if it failed. */
async function waitOnce(state: Watched, maxWaitMs: number): Promise<void> {
  if (state.failed !== undefined) throw state.failed;
  if (state.yielded) throw new ParseDeferred("another upload is waiting for the parser");
  if (state.waited >= maxWaitMs)
    throw new ParseDeferred(`the upload arrives more slowly than it parses (waited ${state.waited.toFixed(0)} ms)`);
  // Timed, but at most a few polls' worth each: a sleep that ends late because polars held the event loop (the chunk
  // before parsing) is not all time spent waiting for the upload.
  const started = performance.now();
  await sleep(POLL_MS);
  state.waited += Math.min(performance.now() - started, 5 * POLL_MS);
}

/**
 * Waits until the file holds at least `bytes` bytes (true: it may still grow) or is complete (false: it is whole,
 * read it as any stored file).
 */
export async function untilGrown(file: string, growth: Growth, bytes: number, maxWaitMs = MAX_WAIT_MS): Promise<boolean> {
  const state = watch(growth);
  for (;;) {
    // Let a settled growth's callbacks run first: a file complete at any size is read as a stored one.
    await Promise.resolve();
    if (state.final !== undefined) return false;
    if ((await stat(file)).size >= bytes) return true;
    await waitOnce(state, maxWaitMs);
  }
}

/**
 * Sequential reads of a file from its start: each fills the buffer it is given, or stops at the file's end. Over a
 * growing file (`growth`), the end is the upload's final size: where the reads catch up with the writer they wait.
 */
export function sequentialReads(handle: FileHandle, growth?: Growth, maxWaitMs = MAX_WAIT_MS): (room: Buffer) => Promise<number> {
  let position = 0;
  if (!growth) {
    return async (room) => {
      const { bytesRead } = await handle.read(room, 0, room.length, position);
      position += bytesRead;
      return bytesRead;
    };
  }
  const state = watch(growth);
  return async (room) => {
    let filled = 0;
    while (filled < room.length) {
      // Complete means written and closed: a read begun after that which finds nothing is at the end.
      const complete = state.final !== undefined;
      const { bytesRead } = await handle.read(room, filled, room.length - filled, position);
      position += bytesRead;
      filled += bytesRead;
      if (bytesRead > 0) continue;
      if (complete) break;
      if (state.final === undefined) await waitOnce(state, maxWaitMs);
    }
    return filled;
  };
}

/**
 * Parses an upload as it arrives (`growth`), and again once it is whole where that parse is deferred. Settles only
 * after the upload has: a failed upload is the answer (its error), whatever the parse made of the part it saw.
 */
export async function parseAsItArrives<Request extends { growth?: Growth | undefined }, Result>(
  parse: (request: Request) => Promise<Result>,
  request: Request,
  growth: Growth | undefined,
): Promise<Result> {
  if (!growth) return parse(request);
  let result: Result;
  try {
    result = await parse({ ...request, growth });
  } catch (error) {
    await growth.complete;
    if (!(error instanceof ParseDeferred)) throw error;
    result = await parse(request);
  }
  await growth.complete;
  return result;
}
