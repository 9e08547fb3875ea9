// Reads CSV into a polars DataFrame with pandas' read_csv semantics for the supported options.
import { createReadStream } from "node:fs";
import { stat, symlink } from "node:fs/promises";
import path from "node:path";
import pl from "nodejs-polars";
import { AppError } from "../errors/app-error.ts";
import { GiveUp, readCsvInChunks } from "./csv-chunks.ts";
import { type CsvPlan, planCsv } from "./csv-options.ts";
import { applyCsvPostSteps } from "./csv-post.ts";
import { applyDtypeHints } from "./dtype-hints.ts";
import type { Options } from "./option-readers.ts";
import { transcodeToUtf8 } from "./transcode.ts";

/** Rows polars looks at to infer types before falling back to a full scan. */
export const INFER_ROWS = 10_000;

/**
 * The line count of a file plus one: an inference length that covers every row. nodejs-polars turns a
 * null length into 0 (no inference at all), and polars reserves memory for the length it is given, so
 * a huge constant (2^31) aborts the process; this is the smallest length that is sure to cover all rows.
 */
async function everyRow(file: string, eol: number): Promise<number> {
  let lines = 1;
  for await (const chunk of createReadStream(file, { highWaterMark: 4 << 20 }) as AsyncIterable<Buffer>) {
    for (let at = chunk.indexOf(eol); at !== -1; at = chunk.indexOf(eol, at + 1)) lines += 1;
  }
  return lines;
}

function readerOptions(plan: CsvPlan, inferSchemaLength: number) {
  return {
    sep: plan.sep,
    ...(plan.quoteChar === undefined ? { quoteChar: "" } : { quoteChar: plan.quoteChar }),
    ...(plan.eolChar ? { eolChar: plan.eolChar } : {}),
    hasHeader: plan.header !== null,
    skipRows: plan.skipRows + (plan.header ?? 0),
    ...(plan.nRows !== undefined ? { nRows: plan.nRows } : {}),
    ...(plan.commentPrefix ? { commentPrefix: plan.commentPrefix } : {}),
    ...(plan.nullValues ? { nullValues: plan.nullValues } : {}),
    ...(plan.nullValues?.length === 0 ? { missingIsNull: false } : {}),
    decimalComma: plan.decimalComma,
    tryParseDates: plan.parseDates === true,
    inferSchemaLength,
    raiseIfEmpty: false,
  };
}

function polarsMessage(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n").slice(0, 3).join(" ").trim();
}

/**
 * The reader options of the whole-file read, for CSV that can instead be parsed a chunk at a time
 * (csv-chunks.ts): read with no parser options (options rename, pick or retype columns over the whole
 * table, or change the encoding). Undefined otherwise.
 */
export function chunkedReadOptions(options: Options): { reader: Record<string, unknown>; quote: number } | undefined {
  if (Object.keys(options).length > 0) return undefined;
  const plan = planCsv(options, "");
  if (plan.encoding !== "utf-8" || plan.quoteChar?.length !== 1) return undefined;
  return { reader: readerOptions(plan, INFER_ROWS), quote: plan.quoteChar.charCodeAt(0) };
}

/**
 * Reads CSV with pandas' read_csv semantics for the supported options. A file read with default
 * settings and larger than two chunks of `chunkBytes` (0: never) is parsed a chunk at a time
 * (csv-chunks.ts), holding one chunk of its bytes instead of all of them; the rest is the same.
 */
export async function readCsv(file: string, options: Options, compression: string, scratch: string, chunkBytes = 0): Promise<pl.DataFrame> {
  const plan = planCsv(options, compression);
  // nodejs-polars reads a path only when it ends in .csv (any other string is taken as CSV text).
  const source = path.join(scratch, "data.csv");
  if (plan.encoding !== "utf-8") await transcodeToUtf8(file, source, plan.encoding);
  else await symlink(path.resolve(file), source);
  const frame = (await readInChunks(source, options, chunkBytes)) ?? (await readWhole(source, plan));
  return applyDtypeHints(applyCsvPostSteps(frame, plan), plan.dtypes);
}

/** The chunked read, where it applies and reads exactly as the whole-file read would; undefined otherwise. */
async function readInChunks(source: string, options: Options, chunkBytes: number): Promise<pl.DataFrame | undefined> {
  const read = chunkedReadOptions(options);
  if (!read || chunkBytes <= 0 || (await stat(source)).size <= 2 * chunkBytes) return undefined;
  try {
    return await readCsvInChunks(source, { ...read, inferRows: INFER_ROWS, maxFirstBytes: 4 * chunkBytes }, chunkBytes);
  } catch (error) {
    if (error instanceof GiveUp) return undefined;
    throw error;
  }
}

async function readWhole(source: string, plan: CsvPlan): Promise<pl.DataFrame> {
  let frame: pl.DataFrame;
  // With a thousands separator "1.234" would be read as a float: read text, and type it after the separators go.
  const infer = plan.thousands ? 0 : INFER_ROWS;
  try {
    frame = pl.readCSV(source, readerOptions(plan, infer));
  } catch (first) {
    // Types guessed from the first rows can be wrong further down: look at every row before giving up.
    try {
      const rows = await everyRow(source, (plan.eolChar ?? "\n").charCodeAt(0));
      frame = pl.readCSV(source, readerOptions(plan, rows));
    } catch {
      const message = polarsMessage(first);
      const row = /(?:line|row)\s+(\d+)/i.exec(message)?.[1];
      throw new AppError("PARSE_FAILED", `CSV could not be parsed: ${message}`, {
        details: { format: "csv", ...(row ? { row: Number(row) } : {}) },
      });
    }
  }
  return frame;
}
