// Turns one upload into Arrow tables: check the bytes against what was declared, decompress, read, write.
import { mkdir, open, stat } from "node:fs/promises";
import path from "node:path";
import { constants, inflateSync } from "node:zlib";
import type pl from "nodejs-polars";
import { AppError } from "../errors/app-error.ts";
import { keepArrowDictionaries, readArrow } from "./arrow-ipc.ts";
import { linkCanonicalArrow } from "./arrow-link.ts";
import { readCsv } from "./csv.ts";
import { type DecompressLimits, decompressFile } from "./decompress.ts";
import { encodeDictionaries } from "./dictionary-columns.ts";
import { readExcel } from "./excel.ts";
import type { Compression, FileType } from "./formats.ts";
import { type Growth, ParseDeferred, untilGrown } from "./growing-file.ts";
import { checkArrowInflation, checkParquetInflation, checkZipInflation } from "./inflation-budget.ts";
import { readJson } from "./json.ts";
import { normalizeFrame } from "./normalize.ts";
import type { Options } from "./option-readers.ts";
import { readOrcFrame } from "./orc-frame.ts";
import { readParquet } from "./parquet.ts";
import { keepCanonicalParquet } from "./parquet-keep.ts";
import { COMPRESSED, DECLARABLE, type Sniffed, sniff } from "./sniff.ts";
import { type TableSchema, writeTable } from "./table-files.ts";
import { checkColumns, checkCsvHeader, DEFAULT_TABLE_LIMITS, type TableLimits } from "./table-limits.ts";

export const DEFAULT_CSV_CHUNK_BYTES = 16 << 20;

export type ParseRequest = {
  /** The raw upload as stored. */
  rawPath: string;
  fileType: FileType;
  compression: Compression;
  parserOptions: Options;
  /** Display name of the single table of non-workbook formats. */
  tableName: string;
  /** Where table n is written as n.arrow (or kept as n.parquet, see keepParquet). */
  tablesDir: string;
  /** A private folder for intermediate files. */
  scratch: string;
  limits: DecompressLimits;
  /**
   * CSV read with default settings and larger than two of these chunks is parsed a chunk at a time
   * (csv-chunks.ts), so memory stays bounded; 0 reads every CSV whole.
   */
  csvChunkBytes?: number | undefined;
  /** Columns, column-name length and nesting depth allowed (DEFAULT_TABLE_LIMITS when absent). */
  tableLimits?: TableLimits | undefined;
  /**
   * A Parquet upload read with no options, that polars reads whole and of plain column types, is kept as it came as
   * table 0 (0.parquet, a hard link: parquet-keep.ts) instead of being written again as Arrow. For stored files,
   * whose tables are read through table-files.ts; a dataset's own tables stay Arrow.
   */
  keepParquet?: boolean | undefined;
  /** Who asked (a user id): the parser processes (parse-sandbox.ts) take turns between owners. */
  owner?: number | string | undefined;
  /**
   * The upload is still arriving (growing-file.ts): CSV read with default settings is parsed chunk by chunk as it is
   * stored; anything else, or an upload that arrives more slowly than it parses, is deferred (ParseDeferred) to be
   * parsed again once it is whole. Not sent to the parser process: parse-process.ts sends its end as a message.
   */
  growth?: Growth | undefined;
};

/** Milliseconds spent in each stage of one parse (logged at debug level). */
export type ParseTimings = Record<string, number>;

/** Marks the end of a stage: the time since the previous mark is added to it. */
export type StageMark = (stage: string) => void;

/** A stage clock: each call adds the time since the previous one to `stage`. */
function stageClock(timings: ParseTimings): StageMark {
  let last = performance.now();
  return (stage) => {
    const now = performance.now();
    timings[stage] = (timings[stage] ?? 0) + (now - last);
    last = now;
  };
}

const failed = (message: string, details: Record<string, unknown> = {}) => new AppError("PARSE_FAILED", message, { details });

/** Bytes read to sniff a file; a zlib header is confirmed by inflating them. */
const HEAD_BYTES = 4096;

async function head(file: string): Promise<Sniffed> {
  const handle = await open(file, "r");
  try {
    const bytes = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(bytes, 0, HEAD_BYTES, 0);
    const kind = sniff(bytes.subarray(0, bytesRead));
    return kind === "zlib" && !inflates(bytes.subarray(0, bytesRead)) ? "unknown" : kind;
  } finally {
    await handle.close();
  }
}

/** Whether the start of a stream inflates as zlib (text that happens to begin "x^" does not). */
function inflates(bytes: Buffer): boolean {
  try {
    inflateSync(bytes, { finishFlush: constants.Z_SYNC_FLUSH, maxOutputLength: 1 << 20 });
    return true;
  } catch (error) {
    // Output past the cap is still zlib.
    return (error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE";
  }
}

const EXPECTED: Partial<Record<FileType, readonly Sniffed[]>> = {
  parquet: ["parquet"],
  arrow: ["arrow-file", "arrow-stream"],
  orc: ["orc"],
  xlsx: ["zip"],
};
const BINARY: readonly Sniffed[] = ["parquet", "arrow-file", "arrow-stream", "orc", "ole2", "zip"];

/** The declared compression must match the bytes, and so must the declared format. */
function checkDeclared(kind: Sniffed, request: ParseRequest, stage: "raw" | "decompressed"): void {
  const { fileType, compression } = request;
  if (stage === "raw") {
    const isXlsxZip = fileType === "xlsx" && kind === "zip";
    if (COMPRESSED.includes(kind) && !DECLARABLE.includes(kind)) {
      // polars would inflate these itself, without any limit.
      throw failed(`the data is ${kind}-compressed, which uploads do not take; decompress it, or compress it with gzip, bz2, xz or zip`, {
        sniffed: kind,
      });
    }
    if (compression === "" && COMPRESSED.includes(kind) && !isXlsxZip) {
      throw failed(`the data is ${kind}-compressed but file_compression is ''; set file_compression to "${kind}"`, { sniffed: kind });
    }
    if (compression !== "" && kind !== compression) {
      throw failed(`file_compression is "${compression}" but the data is not ${compression} (it looks like ${kind})`, { sniffed: kind });
    }
    if (compression !== "") return;
  } else if (COMPRESSED.includes(kind) && !(fileType === "xlsx" && kind === "zip")) {
    throw failed(
      `the ${compression} data holds ${kind}-compressed data: compression inside compression is refused; compress the data once`,
      {
        sniffed: kind,
      },
    );
  }
  const expected = EXPECTED[fileType];
  if (expected && !expected.includes(kind)) {
    throw failed(`the data is not ${fileType} (it looks like ${kind === "unknown" ? "something else" : kind})`, {
      format: fileType,
      sniffed: kind,
      byteOffset: 0,
    });
  }
  if ((fileType === "csv" || fileType === "json") && BINARY.includes(kind)) {
    throw failed(`the data looks like ${kind}, not ${fileType} text; create the file with the right file_type`, {
      format: fileType,
      sniffed: kind,
    });
  }
}

/** A parsed table; `dictionaries` names columns to store as Arrow dictionaries (category columns polars cannot hold). */
type ReadTable = { name: string; frame: pl.DataFrame; dictionaries?: string[] };

async function readFrames(file: string, kind: Sniffed, request: ParseRequest, limits: TableLimits): Promise<ReadTable[]> {
  const { fileType, parserOptions: options, tableName } = request;
  const one = (frame: pl.DataFrame) => [{ name: tableName, frame }];
  switch (fileType) {
    case "csv":
      return one(await readCsv(file, options, request.compression, request.scratch, chunkBytesOf(request), request.growth));
    case "json": {
      const { frame, categories } = await readJson(file, options, limits);
      return [{ name: tableName, frame, dictionaries: categories }];
    }
    case "parquet":
      return one(await readParquet(file, options));
    case "arrow":
      return one(await readArrow(file, options, kind));
    case "orc":
      return one(await readOrcFrame(file, options));
    case "xls":
    case "xlsx":
      return readExcel(file, options, fileType);
  }
}

/**
 * Parses the upload and writes its tables; returns their schemas. Throws AppError on any failure.
 * `timings` is given the milliseconds of each stage (sniff, decompress, link, read, normalize, write,
 * describe, dictionaries).
 */
export async function parseUpload(asked: ParseRequest, timings: ParseTimings = {}): Promise<TableSchema[]> {
  const mark = stageClock(timings);
  const request = asked.growth ? await growingOrWhole(asked) : asked;
  if (asked.growth) mark("growMs");
  const limits = request.tableLimits ?? DEFAULT_TABLE_LIMITS;
  if ((await stat(request.rawPath)).size === 0) throw failed("the upload is empty (0 bytes)", { byteOffset: 0 });
  let file = request.rawPath;
  let kind = await head(file);
  checkDeclared(kind, request, "raw");
  mark("sniffMs");
  if (request.compression !== "") {
    file = path.join(request.scratch, "decompressed");
    await decompressFile(request.rawPath, file, request.compression, request.limits);
    if ((await stat(file)).size === 0) throw failed(`the ${request.compression} data decompresses to nothing`);
    kind = await head(file);
    checkDeclared(kind, request, "decompressed");
    mark("decompressMs");
  }
  await checkBeforeReading(file, kind, request, limits);
  mark("limitsMs");
  await mkdir(request.tablesDir, { recursive: true });
  if (
    request.fileType === "arrow" &&
    kind === "arrow-file" &&
    file === request.rawPath &&
    Object.keys(request.parserOptions).length === 0
  ) {
    const linked = await linkCanonicalArrow(file, path.join(request.tablesDir, "0.arrow"), request.tableName, mark);
    mark("linkMs");
    if (linked) {
      checkColumns(Object.keys(linked.dtypes), limits);
      return [linked];
    }
  }
  if (
    request.keepParquet === true &&
    request.fileType === "parquet" &&
    file === request.rawPath &&
    Object.keys(request.parserOptions).length === 0
  ) {
    const kept = await keepCanonicalParquet(file, path.join(request.tablesDir, "0.parquet"), request.tableName, mark);
    if (kept) {
      checkColumns(Object.keys(kept.dtypes), limits);
      return [kept];
    }
  }
  const frames = await readFrames(file, kind, request, limits);
  mark("readMs");
  for (const { frame } of frames) checkColumns(frame.columns, limits);
  const schemas: TableSchema[] = [];
  for (const [index, { name, frame, dictionaries = [] }] of frames.entries()) {
    const stored = path.join(request.tablesDir, `${index}.arrow`);
    const normal = normalizeFrame(frame);
    mark("normalizeMs");
    const written = await writeTable(normal, stored, name, mark);
    schemas.push(await encodeDictionaries(stored, written, dictionaries));
    mark("dictionariesMs");
  }
  if (request.fileType === "arrow" && schemas[0]) {
    schemas[0] = await keepArrowDictionaries(file, kind, request.parserOptions, path.join(request.tablesDir, "0.arrow"), schemas[0]);
    mark("dictionariesMs");
  }
  return schemas;
}

const chunkBytesOf = (request: Pick<ParseRequest, "csvChunkBytes">) => request.csvChunkBytes ?? DEFAULT_CSV_CHUNK_BYTES;

/**
 * An upload still arriving: parsed as it comes when it is CSV read with default settings, once more than two chunks
 * are stored (the checks before reading see its head, and the read is chunked as a stored file that size is); the
 * request without its growth when the upload is whole by then. Anything else waits for the whole file (ParseDeferred).
 */
async function growingOrWhole(request: ParseRequest): Promise<ParseRequest> {
  const { growth, ...whole } = request;
  if (!growth) return request;
  const from = growingFrom(request);
  if (from === undefined) throw new ParseDeferred("only CSV read with default settings is parsed as it arrives");
  return (await untilGrown(request.rawPath, growth, from)) ? request : whole;
}

/**
 * The stored bytes past which an upload may be parsed as it arrives (two CSV chunks), for CSV read with default
 * settings and in chunks; undefined for any other upload, which is parsed once whole.
 */
export function growingFrom(
  request: Pick<ParseRequest, "fileType" | "compression" | "parserOptions" | "csvChunkBytes">,
): number | undefined {
  const plain = request.fileType === "csv" && request.compression === "" && Object.keys(request.parserOptions).length === 0;
  const chunkBytes = chunkBytesOf(request);
  return plain && chunkBytes > 0 ? 2 * chunkBytes : undefined;
}

/**
 * What can be checked before a reader sees the data: the decoded size Parquet and Arrow metadata and an xlsx
 * zip's directory declare (held to the budget of the upload's stored size), and the header line of CSV.
 */
async function checkBeforeReading(file: string, kind: Sniffed, request: ParseRequest, limits: TableLimits): Promise<void> {
  const stored = (await stat(request.rawPath)).size;
  if (request.fileType === "parquet") await checkParquetInflation(file, stored, request.limits);
  else if (request.fileType === "arrow") await checkArrowInflation(file, kind, stored, request.limits);
  else if (request.fileType === "xlsx" && kind === "zip") await checkZipInflation(file, stored, request.limits);
  else if (request.fileType === "csv") await checkCsvHeader(file, request.parserOptions, limits);
}

/** The compression the bytes themselves show, for uploads that say "infer" (xlsx is a zip by nature). */
export async function inferCompression(file: string, fileType: FileType): Promise<Compression> {
  const kind = await head(file);
  if (fileType === "xlsx" && kind === "zip") return "";
  return kind === "gzip" || kind === "bz2" || kind === "xz" || kind === "zip" ? kind : "";
}
