// Reads CSV into a polars DataFrame with pandas' read_csv semantics: polars' fast reader for uploads read with
// default options, and our tokenizer (csv-tokenize.ts) with pandas' own steps (csv-table.ts) for everything else.
import { createReadStream } from "node:fs";
import { open, readFile, stat, symlink } from "node:fs/promises";
import path from "node:path";
import pl from "nodejs-polars";
import { AppError } from "../errors/app-error.ts";
import { GiveUp, readCsvInChunks } from "./csv-chunks.ts";
import { type CsvPlan, planCsv } from "./csv-options.ts";
import { NeedsTokenizer, pandasFixups } from "./csv-post.ts";
import { createTableBuilder } from "./csv-table.ts";
import { tokenize, tokenizeEach } from "./csv-tokenize.ts";
import { markPandasDtypes } from "./dtype-names.ts";
import type { Options } from "./option-readers.ts";
import { transcodeToUtf8 } from "./transcode.ts";

/** Rows polars looks at to infer types before falling back to a full scan. */
export const INFER_ROWS = 10_000;

/** CSV read by our tokenizer is held in memory as text: larger uploads with parser options are refused. */
export const MAX_TOKENIZED_BYTES = 128 << 20;

/**
 * The line count of a file plus one: an inference length that covers every row. nodejs-polars turns a
 * null length into 0 (no inference at all), and polars reserves memory for the length it is given, so
 * a huge constant (2^31) aborts the process; this is the smallest length that is sure to cover all rows.
 */
async function everyRow(file: string): Promise<number> {
  let lines = 1;
  for await (const chunk of createReadStream(file, { highWaterMark: 4 << 20 }) as AsyncIterable<Buffer>) {
    for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines += 1;
  }
  return lines;
}

/** polars' reader options for the default read (comma, double quotes, a header row). */
function readerOptions(inferSchemaLength: number) {
  return {
    sep: ",",
    quoteChar: '"',
    hasHeader: true,
    inferSchemaLength,
    raiseIfEmpty: false,
    // A row with more fields than the header is an error in pandas: polars must not cut it silently.
    truncateRaggedLines: false,
  };
}

/**
 * The reader options of the whole-file read, for CSV that can instead be parsed a chunk at a time
 * (csv-chunks.ts): read with no parser options. Undefined otherwise.
 */
export function chunkedReadOptions(options: Options): { reader: Record<string, unknown>; quote: number } | undefined {
  if (Object.keys(options).length > 0) return undefined;
  return { reader: readerOptions(INFER_ROWS), quote: 34 };
}

/**
 * Reads CSV with pandas' read_csv semantics. A file read with default settings and larger than two chunks of
 * `chunkBytes` (0: never) is parsed a chunk at a time (csv-chunks.ts), holding one chunk of its bytes instead
 * of all of them; the rest is the same.
 */
export async function readCsv(file: string, options: Options, compression: string, scratch: string, chunkBytes = 0): Promise<pl.DataFrame> {
  const plan = planCsv(options, compression);
  if (Object.keys(options).length === 0) {
    const source = path.join(scratch, "data.csv");
    await symlink(path.resolve(file), source);
    const fast = (await readInChunks(source, chunkBytes)) ?? (await readWhole(source));
    if (fast) {
      const header = await headerFields(source);
      if ((await stat(source)).size > MAX_TOKENIZED_BYTES) return pandasFixups(fast, header, false);
      try {
        return pandasFixups(fast, header);
      } catch (error) {
        if (!(error instanceof NeedsTokenizer)) throw error;
      }
    }
  }
  return readTokenized(file, plan, scratch);
}

/** The first record of the file as pandas reads it: the raw header names (none found: polars' names stay). */
async function headerFields(source: string): Promise<string[]> {
  const handle = await open(source, "r");
  try {
    const head = Buffer.alloc(Math.min((await handle.stat()).size, 1 << 20));
    await handle.read(head, 0, head.length, 0);
    return tokenize(head.toString("utf8"), DEFAULT_TOKENIZE, 1)[0]?.fields ?? [];
  } catch {
    return [];
  } finally {
    await handle.close();
  }
}

const DEFAULT_TOKENIZE = planCsv({}, "").tokenize;

async function readTokenized(file: string, plan: CsvPlan, scratch: string): Promise<pl.DataFrame> {
  let source = file;
  if (plan.encoding !== "utf-8") {
    source = path.join(scratch, "utf8.csv");
    await transcodeToUtf8(file, source, plan.encoding);
  }
  if ((await stat(source)).size > MAX_TOKENIZED_BYTES) {
    throw new AppError(
      "PAYLOAD_TOO_LARGE",
      `CSV read with parser options is held in memory: at most ${MAX_TOKENIZED_BYTES >> 20} MiB (upload it without options, or split it)`,
      { details: { format: "csv" } },
    );
  }
  let bytes: Buffer = await readFile(source);
  if (plan.byteRange) bytes = byteRange(bytes, plan.byteRange, plan.table.header !== null);
  const text = bytes.toString("utf8");
  bytes = Buffer.alloc(0);
  const table = createTableBuilder(plan.table);
  tokenizeEach(text, plan.tokenize, table.push);
  const { frame, dtypes } = table.finish(plan.table.skipFooter > 0 ? lineCount(text, plan.tokenize.eol) : 0);
  return markPandasDtypes(frame, dtypes);
}

/** The text's physical lines (a last line end starts no new line). */
function lineCount(text: string, eol: string | undefined): number {
  let lines = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (eol ? c === eol : c === "\n" || (c === "\r" && text[i + 1] !== "\n")) lines += 1;
  }
  const last = text[text.length - 1];
  return text.length > 0 && !(eol ? last === eol : last === "\n" || last === "\r") ? lines + 1 : lines;
}

/**
 * cudf's byte_range: the rows that start within [offset, offset + size), read to their end; a row starts
 * after a line end, so a range that begins mid-row skips to the next. The header line comes with it.
 */
function byteRange(bytes: Buffer, [offset, size]: [number, number], header: boolean): Buffer {
  const rowStart = (at: number) => (at <= 0 ? 0 : at >= bytes.length ? bytes.length : bytes.indexOf(10, at - 1) + 1 || bytes.length);
  const start = rowStart(offset);
  const end = size === 0 ? bytes.length : rowStart(offset + size);
  const body = bytes.subarray(start, Math.max(start, end));
  if (!header || start === 0) return body;
  const headerEnd = bytes.indexOf(10) + 1 || bytes.length;
  return Buffer.concat([bytes.subarray(0, headerEnd), body]);
}

/** The chunked read, where it applies and reads exactly as the whole-file read would; undefined otherwise. */
async function readInChunks(source: string, chunkBytes: number): Promise<pl.DataFrame | undefined> {
  const read = chunkedReadOptions({});
  if (!read || chunkBytes <= 0 || (await stat(source)).size <= 2 * chunkBytes) return undefined;
  try {
    return await readCsvInChunks(source, { ...read, inferRows: INFER_ROWS, maxFirstBytes: 4 * chunkBytes }, chunkBytes);
  } catch (error) {
    if (error instanceof GiveUp) return undefined;
    throw error;
  }
}

/** A blank line (which pandas skips and polars reads as a row of nulls) sends the read to the tokenizer. */
async function hasBlankLine(source: string): Promise<boolean> {
  // The file's start counts as a line end: a first line that is blank is found too.
  let tail = Buffer.from("\n");
  for await (const chunk of createReadStream(source, { highWaterMark: 4 << 20 }) as AsyncIterable<Buffer>) {
    const seen = Buffer.concat([tail, chunk]);
    if (seen.includes("\n\n") || seen.includes("\n\r\n")) return true;
    tail = seen.subarray(Math.max(0, seen.length - 2));
  }
  return false;
}

/** polars' whole-file read; undefined where it cannot read the pandas way (the tokenizer then does). */
async function readWhole(source: string): Promise<pl.DataFrame | undefined> {
  if ((await stat(source)).size > MAX_TOKENIZED_BYTES || !(await hasBlankLine(source))) {
    try {
      return pl.readCSV(source, readerOptions(INFER_ROWS));
    } catch {
      // Types guessed from the first rows can be wrong further down: look at every row before giving up.
      try {
        return pl.readCSV(source, readerOptions(await everyRow(source)));
      } catch (error) {
        if ((await stat(source)).size > MAX_TOKENIZED_BYTES) throw polarsFailure(error);
      }
    }
  }
  return undefined;
}

function polarsFailure(error: unknown): AppError {
  const message = (error instanceof Error ? error.message : String(error)).split("\n").slice(0, 3).join(" ").trim();
  const row = /(?:line|row)\s+(\d+)/i.exec(message)?.[1];
  return new AppError("PARSE_FAILED", `CSV could not be parsed: ${message}`, {
    details: { format: "csv", ...(row ? { row: Number(row) } : {}) },
  });
}
