// Parses a CSV upload chunk by chunk as it arrives, into one canonical Arrow file, giving the same table as a whole-file read.
import pl from "nodejs-polars";
import { PANDAS_NA_VALUES } from "./csv-options.ts";
import { IpcFileWriter } from "./ipc-file-writer.ts";

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
const MARKERS = PANDAS_NA_VALUES.filter((m) => m !== "");
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

function concat(parts: Uint8Array[]): Buffer {
  return Buffer.concat(parts.filter((p) => p.byteLength > 0));
}

/**
 * Fed the upload's bytes in order, parses every complete run of rows with polars: the first run
 * (at least `inferRows` rows, so types are inferred from the same rows as a whole-file read) fixes
 * the schema, the later ones are read with it, each behind the header line. Throws GiveUp when the
 * result could differ from the whole-file read: a value that does not fit the inferred type, a type
 * the whole-file path would convert, pandas' missing markers in a text column.
 */
export function createCsvChunkParser(out: string, options: ChunkParserOptions) {
  const writer = new IpcFileWriter(out);
  let header: Buffer | undefined;
  let pending: Buffer = Buffer.alloc(0);
  let schema: Record<string, pl.DataType> | undefined;

  /** Any failure, polars' and the file writer's included, means the whole-file path takes over. */
  function parse(body: Buffer, final: boolean): void {
    try {
      parseRows(body, final);
    } catch (error) {
      throw error instanceof GiveUp ? error : new GiveUp((error as Error).message.split("\n")[0]);
    }
  }

  function parseRows(body: Buffer, final: boolean): void {
    if (!header) throw new GiveUp("no header line");
    let frame: pl.DataFrame;
    try {
      const reader = schema ? { ...options.reader, schema } : options.reader;
      frame = pl.readCSV(concat([header, body]), reader);
    } catch (error) {
      throw new GiveUp(`chunk does not parse: ${(error as Error).message.split("\n")[0]}`);
    }
    if (!schema) {
      if (!final && frame.height < options.inferRows) throw new GiveUp("first chunk holds too few rows to infer types");
      for (const [name, type] of columnTypes(frame)) {
        if (!STORED_AS_READ.has(type.variant)) throw new GiveUp(`column ${name} is read as ${type.variant}`);
      }
      schema = frame.schema;
    }
    const text = columnTypes(frame)
      .filter(([, type]) => type.variant === "String")
      .map(([name]) => name);
    if (text.length > 0) {
      const marked = frame.select(...text.map((name) => pl.col(name).isIn(MARKERS).any().alias(name))).row(0);
      if (marked.some((v) => v === true)) throw new GiveUp("a text column holds pandas' missing markers");
    }
    writer.append(frame.writeIPC({ compression: "uncompressed" }));
  }

  return {
    /** Takes the next bytes of the upload; parses whatever complete rows it can. */
    push(bytes: Uint8Array): void {
      let data = concat([pending, bytes]);
      if (!header) {
        const { first } = rowEnds(data, options.quote, 1);
        if (first === -1) {
          if (data.length > options.maxFirstBytes) throw new GiveUp("no line end in the first chunk");
          pending = data;
          return;
        }
        header = Buffer.from(data.subarray(0, first));
        data = data.subarray(first);
      }
      const rows = rowEnds(data, options.quote, schema ? 1 : options.inferRows + 1);
      if (rows.last === -1 || (!schema && rows.count <= options.inferRows)) {
        if (!schema && data.length > options.maxFirstBytes) throw new GiveUp("first chunk holds too few rows to infer types");
        pending = data;
        return;
      }
      parse(data.subarray(0, rows.last), false);
      pending = Buffer.from(data.subarray(rows.last));
    },
    /** Parses what is left and finishes the file; returns its row count. */
    end(): number {
      if (pending.length > 0 || !schema) parse(pending, true);
      pending = Buffer.alloc(0);
      writer.finish();
      return writer.rows;
    },
    /** Stops without finishing the file (the caller removes it). */
    close(): void {
      writer.close();
    },
  };
}

export type CsvChunkParser = ReturnType<typeof createCsvChunkParser>;
