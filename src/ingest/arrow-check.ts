// Checks an Arrow IPC file from its footer and message headers alone, without reading the column data.
import type { FileHandle } from "node:fs/promises";
import { type DataType, type Field, MessageHeader, type Schema, Type } from "apache-arrow";
import { Footer } from "apache-arrow/ipc/metadata/file";
import { Message, type RecordBatch } from "apache-arrow/ipc/metadata/message";
import { guardFooter, guardMessage } from "./flatbuffer-guard.ts";

export type CheckedArrowFile = { schema: Schema; rows: number };

const MAGIC = "ARROW1";
/** Footer length (int32) and the closing magic. */
const TAIL = 10;

/** Bytes per value of a fixed-width type, or 1/8 for bits. */
function widthOf(type: DataType): number {
  const t = type as unknown as { bitWidth?: number; precision?: number; unit?: number };
  switch (type.typeId) {
    case Type.Bool:
      return 1 / 8;
    case Type.Int:
    case Type.Time:
      return (t.bitWidth ?? 64) / 8;
    case Type.Float:
      return [2, 4, 8][t.precision ?? 2] ?? 8;
    case Type.Date:
      return t.unit === 0 ? 4 : 8;
    default:
      return 8;
  }
}

type Layout = { buffers: number; offsetWidth?: number; valueWidth?: number; views?: boolean };

/** The buffers each column of a flat schema has in a record batch (Arrow columnar format, version 5). */
function layoutOf(type: DataType): Layout | undefined {
  switch (type.typeId) {
    case Type.Null:
      return { buffers: 0 };
    case Type.Bool:
    case Type.Int:
    case Type.Float:
    case Type.Date:
    case Type.Time:
    case Type.Timestamp:
      return { buffers: 2, valueWidth: widthOf(type) };
    case Type.Utf8:
    case Type.Binary:
      return { buffers: 3, offsetWidth: 4 };
    case Type.LargeUtf8:
    case Type.LargeBinary:
      return { buffers: 3, offsetWidth: 8 };
    case Type.Utf8View:
    case Type.BinaryView:
      return { buffers: 2, valueWidth: 16, views: true };
    default:
      return undefined;
  }
}

async function readAt(handle: FileHandle, position: number, length: number): Promise<Buffer> {
  const bytes = Buffer.alloc(length);
  const { bytesRead } = await handle.read(bytes, 0, length, position);
  if (bytesRead !== length) throw new Error(`short read at byte ${position}`);
  return bytes;
}

/** The flatbuffer of an encapsulated message: after the continuation marker and length (or the length alone, before 0.15). */
function messageBytes(prefix: Buffer): Buffer {
  const first = prefix.readInt32LE(0);
  const [length, start] = first === -1 ? [prefix.readInt32LE(4), 8] : [first, 4];
  if (length <= 0 || start + length > prefix.length) throw new Error("message metadata does not fit its block");
  return prefix.subarray(start, start + length);
}

/**
 * Checks one record batch against the schema: one node per column with the batch's length, the
 * right number of buffers, each inside the body and large enough for the values it holds, and for
 * offset-based columns a last offset inside the data buffer.
 */
async function checkBatch(handle: FileHandle, layouts: Layout[], header: RecordBatch, bodyStart: number, bodyLength: number) {
  if (header.compression) throw new Error("compressed record batch");
  if (header.nodes.length !== layouts.length) throw new Error("record batch has the wrong number of columns");
  const length = header.length;
  let buffer = 0;
  let view = 0;
  for (const [column, layout] of layouts.entries()) {
    const node = header.nodes[column];
    if (!node || node.length !== length || node.nullCount < 0 || node.nullCount > length) throw new Error("bad field node");
    const count = layout.buffers + (layout.views ? (header.variadicBufferCounts[view++] ?? 0) : 0);
    const regions = header.buffers.slice(buffer, buffer + count);
    buffer += count;
    if (regions.length !== count) throw new Error("record batch has too few buffers");
    for (const region of regions) {
      if (region.offset < 0 || region.length < 0 || region.offset + region.length > bodyLength) throw new Error("buffer outside the body");
    }
    if (count === 0 || length === 0) continue;
    const [validity, second, third] = regions;
    if (node.nullCount > 0 && (validity?.length ?? 0) < Math.ceil(length / 8)) throw new Error("validity buffer too short");
    if (layout.valueWidth !== undefined && (second?.length ?? 0) < Math.ceil(length * layout.valueWidth)) {
      throw new Error("value buffer too short");
    }
    if (layout.offsetWidth !== undefined && second && third) {
      const width = layout.offsetWidth;
      if (second.length < (length + 1) * width) throw new Error("offset buffer too short");
      const bytes = await readAt(handle, bodyStart + second.offset + length * width, width);
      const last = width === 4 ? bytes.readInt32LE(0) : Number(bytes.readBigInt64LE(0));
      if (last < 0 || last > third.length) throw new Error("offsets point past the data buffer");
    }
  }
  if (buffer !== header.buffers.length) throw new Error("record batch has too many buffers");
}

const describeFields = (schema: Schema) => schema.fields.map((f) => `${f.name}:${f.type}:${f.nullable}`).join("\n");

/** Metadata (footer, message headers) larger than this is refused: real ones are kilobytes, at most a few MiB. */
const MAX_METADATA = 64 << 20;

/** Reads and decodes one encapsulated message's metadata, its lengths checked first (flatbuffer-guard.ts). */
async function readMessage(handle: FileHandle, offset: number, metaDataLength: number): Promise<Message> {
  if (metaDataLength <= 0 || metaDataLength > MAX_METADATA) throw new Error("bad message metadata length");
  const bytes = messageBytes(await readAt(handle, offset, metaDataLength));
  guardMessage(bytes);
  return Message.decode(bytes);
}

/** The schema message after the magic must be the footer's schema: readers of the stream part (ours too) take it from there. */
async function checkHeadSchema(handle: FileHandle, schema: Schema, footerStart: number): Promise<void> {
  const prefix = await readAt(handle, 8, 8);
  const [length, start] = prefix.readInt32LE(0) === -1 ? [prefix.readInt32LE(4), 16] : [prefix.readInt32LE(0), 12];
  if (length <= 0 || start + length > footerStart) throw new Error("bad schema message");
  const message = await readMessage(handle, 8, start - 8 + length);
  if (message.headerType !== MessageHeader.Schema || describeFields(message.header() as Schema) !== describeFields(schema)) {
    throw new Error("the schema message does not match the footer");
  }
}

export type ScannedArrowFile = {
  schema: Schema;
  dictionaries: number;
  batches: { header: RecordBatch; bodyStart: number; bodyLength: number }[];
};

/**
 * The structure of an IPC file, from its metadata alone: magic at both ends, the footer, the schema
 * message after the magic, and every dictionary and record batch message, each inside the file, with
 * its lengths checked before apache-arrow decodes it. Throws on anything malformed.
 */
export async function scanArrowFile(handle: FileHandle, size: number): Promise<ScannedArrowFile> {
  if (size < 8 + TAIL) throw new Error("too short for an Arrow file");
  const head = await readAt(handle, 0, 6);
  const tail = await readAt(handle, size - TAIL, TAIL);
  if (head.toString("latin1") !== MAGIC || tail.subarray(4).toString("latin1") !== MAGIC) throw new Error("no Arrow file magic");
  const footerLength = tail.readInt32LE(0);
  const footerStart = size - TAIL - footerLength;
  if (footerLength <= 0 || footerLength > MAX_METADATA || footerStart < 8) throw new Error("bad footer length");
  const footerBytes = await readAt(handle, footerStart, footerLength);
  guardFooter(footerBytes);
  const footer = Footer.decode(footerBytes);
  await checkHeadSchema(handle, footer.schema, footerStart);
  const blocks = [
    ...[...footer.dictionaryBatches()].map((block) => ({ block, type: MessageHeader.DictionaryBatch })),
    ...[...footer.recordBatches()].map((block) => ({ block, type: MessageHeader.RecordBatch })),
  ];
  const batches: ScannedArrowFile["batches"] = [];
  for (const { block, type } of blocks) {
    const bodyStart = block.offset + block.metaDataLength;
    if (block.offset < 8 || block.bodyLength < 0 || bodyStart + block.bodyLength > footerStart) throw new Error("block outside the file");
    const message = await readMessage(handle, block.offset, block.metaDataLength);
    if (message.headerType !== type || message.bodyLength > block.bodyLength) throw new Error("bad batch message");
    if (type === MessageHeader.RecordBatch)
      batches.push({ header: message.header() as RecordBatch, bodyStart, bodyLength: message.bodyLength });
  }
  return { schema: footer.schema, dictionaries: footer.numDictionaries, batches };
}

/**
 * Scans the file (scanArrowFile) and checks it is a canonical table as it stands: uncompressed flat
 * columns of plain types without dictionaries, every batch's buffers inside its body and long enough
 * for its values. Reads a few bytes per batch, never the data.
 */
export async function checkArrowFile(handle: FileHandle, size: number): Promise<CheckedArrowFile> {
  return checkScanned(handle, await scanArrowFile(handle, size));
}

/** The canonical-table checks of checkArrowFile, on a file already scanned. */
export async function checkScanned(handle: FileHandle, scanned: ScannedArrowFile): Promise<CheckedArrowFile> {
  if (scanned.dictionaries > 0) throw new Error("dictionary batches");
  const layouts = scanned.schema.fields.map((f: Field) => layoutOf(f.type));
  if (layouts.some((l) => l === undefined)) throw new Error("nested or unusual column types");
  let rows = 0;
  for (const { header, bodyStart, bodyLength } of scanned.batches) {
    await checkBatch(handle, layouts as Layout[], header, bodyStart, bodyLength);
    rows += header.length;
  }
  return { schema: scanned.schema, rows };
}
