// Parses a large CSV file chunk by chunk, holding a chunk of its bytes at a time, into the same frame polars' whole-file read gives.
import { open } from "node:fs/promises";
import pl from "nodejs-polars";
import { type Growth, sequentialReads } from "./growing-file.ts";

/** Why a chunked parse stopped; the upload is then parsed whole, which gives the user the full story. */
export class GiveUp extends Error {}

export type ChunkParserOptions = {
  /** The polars reader options of the whole-file read (csv.ts readerOptions), type inference included. */
  reader: Record<string, unknown>;
  /** Rows the whole-file read infers types from: the first chunk must hold at least this many. */
  inferRows: number;
  /** The quote byte, or -1 when quoting is off. */
  quote: number;
  /** The first chunk may grow to this many bytes while it waits for enough rows. */
  maxFirstBytes: number;
};

/** Types the whole-file path stores as read: anything else (128-bit integers, say) goes through that path. */
const STORED_AS_READ = new Set(["Int64", "Float64", "String", "Bool"]);
const NEWLINE = 10;

type Rows = { first: number; last: number; count: number };

/** Where rows end (just past each newline outside quotes), counting up to `countUpTo` of them; -1 where there is none. */
export function rowEnds(data: Uint8Array, quote: number, countUpTo: number): Rows {
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (quote < 0 || bytes.indexOf(quote) === -1) {
    const first = bytes.indexOf(NEWLINE);
    if (first === -1) return { first: -1, last: -1, count: 0 };
    let count = 1;
    for (let at = first; count < countUpTo; count += 1) {
      at = bytes.indexOf(NEWLINE, at + 1);
      if (at === -1) break;
    }
    return { first: first + 1, last: bytes.lastIndexOf(NEWLINE) + 1, count };
  }
  // A doubled quote inside a quoted field flips twice: the parity still says whether we are inside.
  let inside = false;
  let first = -1;
  let last = -1;
  let count = 0;
  for (let i = 0; i < bytes.length; i += 1) {
    const c = bytes[i];
    if (c === quote) inside = !inside;
    else if (c === NEWLINE && !inside) {
      if (first === -1) first = i + 1;
      last = i + 1;
      count += 1;
    }
  }
  return { first, last, count };
}

const columnTypes = (frame: pl.DataFrame) => Object.entries(frame.schema) as [string, pl.DataType][];

/**
 * Whether any column holds a null, from the frame's own null counts: taking each column out as a Series first costs
 * nodejs-polars 1-2 ms a column (8 ms for a 16 MiB chunk's four, about 110 ms over a 5M-row file), this 0.1 ms.
 */
export function hasNulls(frame: pl.DataFrame): boolean {
  if (frame.width === 0) return false;
  return (frame.nullCount().row(0) as unknown[]).some((count) => Number(count) > 0);
}

/**
 * Fed a CSV file's bytes in order, parses every complete run of rows with polars and hands each frame
 * to `sink`: the first run (at least `inferRows` rows, so types are inferred from the same rows as a
 * whole-file read) fixes the schema, the later ones are read with it, each behind the header line.
 * The frames make the table polars' whole-file read makes (csv.ts applies the same steps after
 * either). Throws GiveUp when they could differ: a value that does not fit the inferred type, or an
 * inferred type other than the plain ones (128-bit integers, say).
 */
export function createCsvChunkParser(options: ChunkParserOptions, sink: (frame: pl.DataFrame) => void) {
  // One buffer, reused: the header line, then the bytes not parsed yet. Rows are parsed in place,
  // header and all, and the unfinished last row moves up behind the header.
  let work = Buffer.allocUnsafeSlow(0);
  let used = 0;
  let headerLength = -1;
  let schema: Record<string, pl.DataType> | undefined;

  /** Any failure, polars' included, means the whole-file path takes over. */
  function parse(rows: Buffer, final: boolean): void {
    try {
      parseRows(rows, final);
    } catch (error) {
      // A mistake in this code (a TypeError, say) is not a reason to read differently: it surfaces.
      if (error instanceof GiveUp || error instanceof TypeError || error instanceof ReferenceError) throw error;
      throw new GiveUp((error as Error).message.split("\n")[0]);
    }
  }

  function parseRows(rows: Buffer, final: boolean): void {
    if (headerLength < 0) throw new GiveUp("no header line");
    const reader = schema ? { ...options.reader, schema } : options.reader;
    const frame = pl.readCSV(rows, reader);
    // pandas skips blank lines, polars reads them as rows of nulls: the whole-file read handles them. A frame
    // without a null has no blank line, so the bytes are searched only when one is there. (A two-byte pattern
    // costs several times a one-byte search: "\n\r\n" is looked for only where a CR is.)
    const nulls = hasNulls(frame);
    if (nulls && (rows.includes("\n\n") || (rows.includes(13) && rows.includes("\n\r\n")))) throw new GiveUp("a blank line");
    if (!schema) {
      if (!final && frame.height < options.inferRows) throw new GiveUp("first chunk holds too few rows to infer types");
      for (const [name, type] of columnTypes(frame)) {
        if (!STORED_AS_READ.has(type.variant)) throw new GiveUp(`column ${name} is read as ${type.variant}`);
      }
      schema = frame.schema;
    }
    sink(frame);
  }

  /** Room for `bytes` more bytes after those held, growing the buffer when needed. */
  function space(bytes: number): Buffer {
    if (used + bytes > work.length) {
      const grown = Buffer.allocUnsafeSlow(Math.max(used + bytes, work.length * 2));
      work.copy(grown, 0, 0, used);
      work = grown;
    }
    return work.subarray(used, used + bytes);
  }

  /** The buffer the next bytes are read into while the bytes held parse (commit's `ahead`). */
  let spare = Buffer.allocUnsafeSlow(0);

  /**
   * Parses whatever complete rows the bytes held now make. With `ahead`, when rows are parsed, the header line and
   * the unfinished last row first move to a second buffer, and `ahead.start` is given room there for `ahead.bytes`
   * more bytes: the caller reads the next bytes into it while these rows parse (readCsvInChunks), then commits them.
   */
  function commit(bytes: number, ahead?: { bytes: number; start(room: Buffer): void }): void {
    used += bytes;
    if (headerLength < 0) {
      const { first } = rowEnds(work.subarray(0, used), options.quote, 1);
      if (first === -1) {
        if (used > options.maxFirstBytes) throw new GiveUp("no line end in the first chunk");
        return;
      }
      headerLength = first;
    }
    const rows = rowEnds(work.subarray(headerLength, used), options.quote, schema ? 1 : options.inferRows + 1);
    if (rows.last === -1 || (!schema && rows.count <= options.inferRows)) {
      if (!schema && used > options.maxFirstBytes) throw new GiveUp("first chunk holds too few rows to infer types");
      return;
    }
    const end = headerLength + rows.last;
    if (!ahead) {
      parse(work.subarray(0, end), false);
      work.copyWithin(headerLength, end, used);
      used = headerLength + (used - end);
      return;
    }
    const held = headerLength + (used - end);
    if (spare.length < held + ahead.bytes) spare = Buffer.allocUnsafeSlow(Math.max(held + ahead.bytes, work.length));
    work.copy(spare, 0, 0, headerLength);
    work.copy(spare, headerLength, end, used);
    const rowsToParse = work.subarray(0, end);
    [work, spare] = [spare, work];
    used = held;
    ahead.start(work.subarray(used, used + ahead.bytes));
    parse(rowsToParse, false);
  }

  return {
    space,
    commit,
    /** Takes the next bytes of the file (a copy); parses whatever complete rows it can. */
    push(bytes: Uint8Array): void {
      space(bytes.byteLength).set(bytes);
      commit(bytes.byteLength);
    },
    /** Parses what is left. */
    end(): void {
      if (used > headerLength || !schema) parse(work.subarray(0, used), true);
      work = Buffer.alloc(0);
      spare = Buffer.alloc(0);
    },
  };
}

/**
 * Parses a stored CSV file chunk by chunk (see createCsvChunkParser), holding one chunk of its bytes at a time. With
 * `growth`, the file is an upload still arriving (growing-file.ts): its chunks are parsed as they are stored.
 */
export async function readCsvInChunks(
  file: string,
  options: ChunkParserOptions,
  chunkBytes: number,
  growth?: Growth,
): Promise<pl.DataFrame> {
  const frames: pl.DataFrame[] = [];
  const parser = createCsvChunkParser(options, (frame) => frames.push(frame));
  const handle = await open(file, "r");
  const read = sequentialReads(handle, growth);
  // The read of the next bytes, under way (on libuv's threads) while polars parses the rows before them.
  const next: { read?: Promise<number> } = {};
  const ahead = {
    bytes: chunkBytes,
    start(room: Buffer) {
      next.read = read(room);
    },
  };
  try {
    // Read straight into the parser's buffer, behind the unfinished row of the chunk before.
    for (;;) {
      const reading = next.read;
      next.read = undefined;
      const bytesRead = reading ? await reading : await read(parser.space(chunkBytes));
      if (bytesRead === 0) break;
      parser.commit(bytesRead, ahead);
    }
    parser.end();
    return frames.length === 1 ? (frames[0] as pl.DataFrame) : pl.concat(frames, { how: "vertical", rechunk: false });
  } finally {
    await next.read?.catch(() => undefined);
    await handle.close();
  }
}
