// Public entry points: readOrc (ORC file bytes -> apache-arrow Table) and readOrcSchema (cheap tail-only summary).
import { type Data, Field, makeData, RecordBatch, Schema, Struct, Table } from "apache-arrow";
import { AppError, isAppError } from "../../errors/app-error.ts";
import { decompressStream } from "./codecs.ts";
import { decodeColumn, type StripeContext } from "./columns.ts";
import type { Decoded } from "./decoded.ts";
import { orcError } from "./errors.ts";
import { type OrcTail, parseStripeFooter, readTail, type StripeInformation } from "./footer.ts";
import { S, StripeStreams } from "./streams.ts";
import { arrowType, emptyData, toArrowData } from "./to-arrow.ts";
import { buildTypeTree, K, topLevelColumns, typeString } from "./types.ts";

export type OrcReadOptions = {
  /** Top-level columns to read, by name, in this order (default: all). */
  columns?: string[];
  /** Rows to skip from the start of the file. */
  skipRows?: number;
  /** Most rows to return after skipping. */
  numRows?: number;
};

export type OrcSchemaSummary = { rows: number; compression: string; columns: { name: string; orcType: string }[] };

/** Any failure that is not already an AppError (allocation failures, deep recursion) still reports as PARSE_FAILED. */
function guarded<T>(run: () => T): T {
  try {
    return run();
  } catch (err) {
    if (isAppError(err)) throw err;
    const why = err instanceof Error ? err.message : String(err);
    throw orcError(`file could not be read: ${why}`, {}, err);
  }
}

function checkCount(name: string, value: number | undefined): void {
  if (value !== undefined && !(Number.isSafeInteger(value) && value >= 0)) {
    throw new AppError("INVALID_INPUT", `ORC: option ${name} must be a non-negative integer`, { details: { format: "orc", option: name } });
  }
}

/** Reads the file tail only: row count, codec name and the top-level columns with their ORC type strings. */
export function readOrcSchema(bytes: Uint8Array): OrcSchemaSummary {
  return guarded(() => {
    const tail = readTail(bytes);
    const root = buildTypeTree(tail.footer.types);
    return {
      rows: tail.footer.numberOfRows,
      compression: tail.compressionName,
      columns: topLevelColumns(root).map((c) => ({ name: c.name, orcType: typeString(c.type) })),
    };
  });
}

function readStripeContext(bytes: Uint8Array, tail: OrcTail, stripe: StripeInformation, index: number): StripeContext {
  const footerStart = stripe.offset + stripe.indexLength + stripe.dataLength;
  const raw = bytes.subarray(footerStart, footerStart + stripe.footerLength);
  const decoded = decompressStream(raw, tail.codec, { byteOffset: footerStart, stream: `stripe ${index} footer` });
  let footer: ReturnType<typeof parseStripeFooter>;
  try {
    footer = parseStripeFooter(decoded);
  } catch (err) {
    const msg = err instanceof Error ? err.message.replace(/^ORC: /, "") : String(err);
    throw orcError(`corrupt footer of stripe ${index}: ${msg}`, { byteOffset: footerStart, stripe: index }, err);
  }
  return { streams: new StripeStreams(bytes, tail.codec, stripe, footer, index), writerTimezone: footer.writerTimezone };
}

/**
 * Reads an ORC file into an Arrow table. Type mapping: boolean -> Bool, tinyint -> Int8, smallint -> Int16,
 * int -> Int32, bigint -> Int64, float -> Float32, double -> Float64, string/varchar/char -> Utf8, binary -> Binary,
 * decimal -> Utf8 exact text, date -> DateDay, timestamp -> Timestamp(ns) holding the UTC instant (stored seconds
 * read in the stripe's writer time zone), timestamp with local time zone -> Timestamp(ns, "UTC"), and
 * struct/list/map/union -> Utf8 JSON per row. Schema metadata carries "orc.compression" and, when a stripe names
 * one, "orc.writer_timezone"; each field carries its ORC type string as "orc.type".
 */
export function readOrc(bytes: Uint8Array, options: OrcReadOptions = {}): Table {
  checkCount("skipRows", options.skipRows);
  checkCount("numRows", options.numRows);
  return guarded(() => readOrcUnguarded(bytes, options));
}

function readOrcUnguarded(input: Uint8Array, options: OrcReadOptions): Table {
  // A plain Uint8Array view, so a Node Buffer's different slice() semantics never leak into decoding.
  const bytes = new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  const tail = readTail(bytes);
  if (tail.footer.hasEncryption) throw orcError("encrypted ORC files are not supported");
  const root = buildTypeTree(tail.footer.types);
  const all = topLevelColumns(root);
  let selected = all;
  if (options.columns !== undefined) {
    selected = options.columns.map((name) => {
      const found = all.find((c) => c.name === name);
      if (found === undefined) {
        throw new AppError(
          "INVALID_INPUT",
          `ORC: no column named ${JSON.stringify(name)} (columns: ${all.map((c) => c.name).join(", ")})`,
          {
            details: { format: "orc", column: name },
          },
        );
      }
      return found;
    });
  }

  const first = options.skipRows ?? 0;
  const last = options.numRows === undefined ? Number.POSITIVE_INFINITY : first + options.numRows;
  const chunks: { length: number; datas: Data[] }[] = [];
  let writerTimezone: string | undefined;
  let stripeStart = 0;
  for (const [index, stripe] of tail.footer.stripes.entries()) {
    const rows = stripe.numberOfRows;
    const lo = Math.max(first - stripeStart, 0);
    const hi = Math.min(last - stripeStart, rows);
    stripeStart += rows;
    if (lo >= hi) continue;
    if (rows > 0x7fffffff) throw orcError(`stripe ${index} declares ${rows} rows`, { byteOffset: stripe.offset, stripe: index });
    const ctx = readStripeContext(bytes, tail, stripe, index);
    writerTimezone ??= ctx.writerTimezone;
    let decoded: Decoded[];
    if (root.kind === K.STRUCT) {
      // The root struct's own PRESENT stream (rare) masks every column.
      const present =
        ctx.streams.get(root.id, S.PRESENT, "(root)") === null ? null : decodeColumn(ctx, { ...root, children: [] }, rows, null).valid;
      decoded = selected.map((c) => decodeColumn(ctx, c.type, rows, present));
    } else {
      decoded = selected.map((c) => decodeColumn(ctx, c.type, rows, null));
    }
    chunks.push({ length: hi - lo, datas: decoded.map((d) => toArrowData(d, lo, hi)) });
  }

  const metadata = new Map<string, string>([["orc.compression", tail.compressionName]]);
  if (writerTimezone !== undefined) metadata.set("orc.writer_timezone", writerTimezone);
  const fields = selected.map((c) => new Field(c.name, arrowType(c.type), true, new Map([["orc.type", typeString(c.type)]])));
  const schema = new Schema(fields, metadata);
  const batches = chunks.map(
    ({ length, datas }) => new RecordBatch(schema, makeData({ type: new Struct(fields), length, nullCount: 0, children: datas })),
  );
  if (batches.length === 0) {
    const empty = makeData({ type: new Struct(fields), length: 0, nullCount: 0, children: fields.map((f) => emptyData(f.type)) });
    return new Table(schema, [new RecordBatch(schema, empty)]);
  }
  return new Table(schema, batches);
}
