// Reads CSV into a polars DataFrame with pandas' read_csv semantics: polars' fast reader for uploads read with
// default options, and our tokenizer (csv-tokenize.ts) with pandas' own steps (csv-table.ts) for everything else.
import { createReadStream } from "node:fs";
import { open, rm, stat, symlink } from "node:fs/promises";
import path from "node:path";
import pl from "nodejs-polars";
import { AppError } from "../errors/app-error.ts";
import { GiveUp, readCsvInChunks } from "./csv-chunks.ts";
import { type CsvPlan, planCsv } from "./csv-options.ts";
import { NeedsTokenizer, pandasFixups } from "./csv-post.ts";
import { createTableBuilder } from "./csv-table.ts";
import { tokenize, tokenizeEach } from "./csv-tokenize.ts";
import { markPandasDtypes } from "./dtype-names.ts";
import { type Growth, ParseDeferred } from "./growing-file.ts";
import type { Options } from "./option-readers.ts";
import { transcodeToUtf8 } from "./transcode.ts";

/** Rows polars looks at to infer types before falling back to a full scan. */
export const INFER_ROWS = 10_000;

/**
 * Uploads read with default options go to our tokenizer (slower than polars, about 15 MB/s) only when polars'
 * read cannot give pandas' table; past this size they keep polars' reading in those corners (blank lines,
 * ragged rows, integers past int64 beside missing values). pandas' float rounding is computed from the column's
 * text in polars (csv-float-text.ts), whatever the size up to this one.
 */
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
 * of all of them; the rest is the same. `growth`: the file is an upload still arriving, larger than two chunks
 * already (growing-file.ts); read chunk by chunk as it arrives, or deferred (ParseDeferred) until it is whole.
 */
export async function readCsv(
  file: string,
  options: Options,
  compression: string,
  scratch: string,
  chunkBytes = 0,
  growth?: Growth,
): Promise<pl.DataFrame> {
  const plan = planCsv(options, compression);
  if (Object.keys(options).length === 0) {
    const source = path.join(scratch, "data.csv");
    // A parse deferred until the upload is whole (growing-file.ts) runs again in the same scratch folder.
    await rm(source, { force: true });
    await symlink(path.resolve(file), source);
    const fast = (await readInChunks(source, chunkBytes, growth)) ?? (await readWhole(source));
    if (fast) {
      const header = await headerFields(source);
      if ((await stat(source)).size > MAX_TOKENIZED_BYTES) return pandasFixups(fast, header, false);
      try {
        return pandasFixups(fast, header, true, (column) => columnText(source, column));
      } catch (error) {
        if (!(error instanceof NeedsTokenizer)) throw error;
      }
    }
  }
  return readTokenized(file, plan, scratch);
}

/** One column of the file as text, read as the default read reads the file (so the rows are the same). */
function columnText(source: string, column: string): pl.Series {
  return pl.readCSV(source, { ...readerOptions(INFER_ROWS), columns: [column], dtypes: { [column]: pl.Utf8 } }).getColumn(column);
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

/** The file in pieces for the tokenizer: all of it, or cudf's byte_range of it. */
async function* piecesOf(source: string, plan: CsvPlan): AsyncIterable<Buffer> {
  if (plan.byteRange) {
    const [start, end] = await byteRange(source, plan.byteRange);
    if (end > start) yield* createReadStream(source, { start, end: end - 1, highWaterMark: PIECE_BYTES }) as AsyncIterable<Buffer>;
    return;
  }
  yield* createReadStream(source, { highWaterMark: PIECE_BYTES }) as AsyncIterable<Buffer>;
}

/** Text is decoded and tokenized this many bytes at a time; only the columns read so far stay in memory. */
const PIECE_BYTES = 16 << 20;

async function readTokenized(file: string, plan: CsvPlan, scratch: string): Promise<pl.DataFrame> {
  let source = file;
  if (plan.encoding !== "utf-8") {
    source = path.join(scratch, "utf8.csv");
    await transcodeToUtf8(file, source, plan.encoding);
  }
  // pandas refuses bytes that are not UTF-8 (UnicodeDecodeError); the byte-order mark goes, as pandas drops it.
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const table = createTableBuilder(plan.table);
  let carry = "";
  let progress = { consumed: 0, line: 1, count: 0, stopped: false };
  let first = true;
  let last = "";
  const step = (text: string, final: boolean) => {
    if (text.length > 0) last = text[text.length - 1] as string;
    progress = tokenizeEach(text, plan.tokenize, table.push, { final, line: progress.line, count: progress.count, first });
    first = false;
    carry = text.slice(progress.consumed);
  };
  try {
    for await (const piece of piecesOf(source, plan)) {
      step(carry + decoder.decode(piece, { stream: true }), false);
      if (progress.stopped) break;
    }
    if (!progress.stopped) step(carry + decoder.decode(), true);
  } catch (error) {
    if (error instanceof TypeError && /encoded data|decode/i.test(error.message)) {
      throw new AppError("PARSE_FAILED", "CSV could not be parsed: the data is not valid UTF-8 (set encoding, e.g. latin-1 or cp1252)", {
        details: { format: "csv" },
      });
    }
    throw error;
  }
  // The file's physical lines, for skipfooter: a last line end starts no new line.
  const endsWithLine = plan.tokenize.eol ? last === plan.tokenize.eol : last === "\n" || last === "\r";
  const { frame, dtypes } = table.finish(endsWithLine || last === "" ? progress.line - 1 : progress.line);
  return markPandasDtypes(frame, dtypes);
}

/**
 * cudf's byte_range: the rows that start within [offset, offset + size) (size 0: to the end), each read to its
 * end; a range that begins inside a row starts at the next one. Answers [start, end) in bytes.
 */
async function byteRange(source: string, [offset, size]: [number, number]): Promise<[number, number]> {
  const handle = await open(source, "r");
  try {
    const length = (await handle.stat()).size;
    const block = Buffer.alloc(1 << 16);
    /** The first row start at or after `at`: just past the line end at or after at - 1. */
    const rowStart = async (at: number): Promise<number> => {
      if (at <= 0) return 0;
      for (let from = at - 1; from < length; from += block.length) {
        const { bytesRead } = await handle.read(block, 0, block.length, from);
        const found = block.subarray(0, bytesRead).indexOf(10);
        if (found !== -1) return from + found + 1;
      }
      return length;
    };
    const start = await rowStart(offset);
    const end = size === 0 ? length : await rowStart(offset + size);
    return [start, Math.max(start, end)];
  } finally {
    await handle.close();
  }
}

/**
 * The chunked read, where it applies and reads exactly as the whole-file read would; undefined otherwise. A growing
 * file (an upload still arriving) that the chunked read cannot take is deferred until it is whole.
 */
async function readInChunks(source: string, chunkBytes: number, growth?: Growth): Promise<pl.DataFrame | undefined> {
  const read = chunkedReadOptions({});
  if (!read || chunkBytes <= 0 || (!growth && (await stat(source)).size <= 2 * chunkBytes)) return undefined;
  try {
    return await readCsvInChunks(source, { ...read, inferRows: INFER_ROWS, maxFirstBytes: 4 * chunkBytes }, chunkBytes, growth);
  } catch (error) {
    if (!(error instanceof GiveUp)) throw error;
    if (growth) throw new ParseDeferred(error.message);
    return undefined;
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
  if ((await stat(source)).size <= MAX_TOKENIZED_BYTES && (await hasBlankLine(source))) return undefined;
  try {
    return pl.readCSV(source, readerOptions(INFER_ROWS));
  } catch {
    // Types guessed from the first rows can be wrong further down: look at every row before giving up.
    try {
      return pl.readCSV(source, readerOptions(await everyRow(source)));
    } catch {
      // A row with too many fields, say: the tokenizer reads it as pandas does, or says what pandas says.
      return undefined;
    }
  }
}
