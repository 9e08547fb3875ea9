// Byte budgets for formats that inflate inside the reader (Parquet pages, compressed Arrow buffers), checked
// against the sizes their metadata declares before any data is decoded.
import { type FileHandle, open } from "node:fs/promises";
import { MessageHeader } from "apache-arrow";
import { type DictionaryBatch, Message, type RecordBatch } from "apache-arrow/ipc/metadata/message";
import { AppError } from "../errors/app-error.ts";
import { type DecompressLimits, inflationBudget } from "./decompress.ts";
import { guardMessage } from "./flatbuffer-guard.ts";
import type { Sniffed } from "./sniff.ts";

function overBudget(format: string, declared: number, budget: number): AppError {
  return new AppError(
    "PAYLOAD_TOO_LARGE",
    `the ${format} file declares ${declared} bytes of data once decoded, past the ${budget} bytes allowed for a file its size ` +
      "(MAX_DECOMPRESSED_BYTES, MAX_COMPRESSION_RATIO); refusing it as a decompression bomb",
    { details: { limit: budget, declared, format } },
  );
}

/** Bytes one decoded value of a Parquet physical type takes in memory (text and binary: a 16-byte view). */
const WIDTH: Record<string, number> = { BOOLEAN: 1, INT32: 4, INT64: 8, INT96: 12, FLOAT: 4, DOUBLE: 8 };

/**
 * Parquet: for each column chunk, the larger of its declared uncompressed size and its value count times the
 * width of a decoded value (run-length and dictionary encodings inflate past the uncompressed page size).
 * A footer hyparquet cannot read is left to the reader to refuse.
 */
export async function checkParquetInflation(file: string, size: number, limits: DecompressLimits): Promise<void> {
  const budget = inflationBudget(size, limits);
  const { asyncBufferFromFile, parquetMetadataAsync } = await import("hyparquet");
  let metadata: Awaited<ReturnType<typeof parquetMetadataAsync>>;
  try {
    metadata = await parquetMetadataAsync(await asyncBufferFromFile(file));
  } catch {
    return;
  }
  let declared = 0;
  for (const group of metadata.row_groups) {
    for (const chunk of group.columns) {
      const meta = chunk.meta_data;
      if (!meta) continue;
      const decoded = Number(meta.num_values) * (WIDTH[meta.type] ?? 16);
      declared += Math.max(Number(meta.total_uncompressed_size), decoded);
    }
    if (declared > budget) throw overBudget("Parquet", declared, budget);
  }
}

async function readAt(handle: FileHandle, position: number, length: number): Promise<Buffer | undefined> {
  const bytes = Buffer.alloc(length);
  const { bytesRead } = await handle.read(bytes, 0, length, position);
  return bytesRead === length ? bytes : undefined;
}

/** Largest message metadata looked at (real ones are kilobytes). */
const MAX_METADATA = 64 << 20;

/**
 * Arrow IPC (file or stream): every compressed buffer starts with its uncompressed length (an int64, -1 when
 * stored as is); their sum over all record and dictionary batches must fit the budget. Walks the messages
 * from the start; malformed metadata ends the walk and is left to the reader to refuse.
 */
export async function checkArrowInflation(file: string, kind: Sniffed, size: number, limits: DecompressLimits): Promise<void> {
  const budget = inflationBudget(size, limits);
  const handle = await open(file, "r");
  try {
    let declared = 0;
    let position = kind === "arrow-file" ? 8 : 0;
    while (position + 8 <= size) {
      const prefix = await readAt(handle, position, 8);
      if (!prefix) return;
      const continued = prefix.readInt32LE(0) === -1;
      const length = continued ? prefix.readInt32LE(4) : prefix.readInt32LE(0);
      const start = position + (continued ? 8 : 4);
      if (length <= 0 || length > MAX_METADATA || start + length > size) return;
      const bytes = await readAt(handle, start, length);
      if (!bytes) return;
      let message: Message;
      try {
        guardMessage(bytes);
        message = Message.decode(bytes);
      } catch {
        return;
      }
      const bodyStart = start + length;
      const batch =
        message.headerType === MessageHeader.RecordBatch
          ? (message.header() as RecordBatch)
          : message.headerType === MessageHeader.DictionaryBatch
            ? (message.header() as DictionaryBatch).data
            : undefined;
      if (batch?.compression) {
        for (const region of batch.buffers) {
          if (region.length < 8) continue;
          const head = await readAt(handle, bodyStart + region.offset, 8);
          if (!head) return;
          const inflated = Number(head.readBigInt64LE(0));
          declared += inflated < 0 ? region.length : inflated;
          if (declared > budget) throw overBudget("Arrow", declared, budget);
        }
      }
      position = bodyStart + message.bodyLength;
    }
  } finally {
    await handle.close();
  }
}

/** The end of central directory record: its signature, and the most bytes it can sit from the end (a 64 KiB comment). */
const EOCD = Buffer.from([0x50, 0x4b, 0x05, 0x06]);
const EOCD_REACH = 22 + 0xffff;
const CENTRAL_ENTRY = 0x02014b50;

/**
 * xlsx (a zip the spreadsheet reader inflates in memory): the uncompressed sizes its central directory
 * declares, summed, must fit the budget (a ZIP64 entry counts as 4 GiB at least). A directory that cannot
 * be read is left to the reader to refuse; sizes a file lies about meet the parser's memory cap.
 */
export async function checkZipInflation(file: string, size: number, limits: DecompressLimits): Promise<void> {
  const budget = inflationBudget(size, limits);
  const handle = await open(file, "r");
  try {
    const reach = Math.min(size, EOCD_REACH);
    const tail = await readAt(handle, size - reach, reach);
    const end = tail?.lastIndexOf(EOCD) ?? -1;
    if (!tail || end < 0 || end + 22 > tail.length) return;
    const entries = tail.readUInt16LE(end + 10);
    const length = tail.readUInt32LE(end + 12);
    const offset = tail.readUInt32LE(end + 16);
    if (length === 0 || length > MAX_METADATA || offset + length > size) return;
    const directory = await readAt(handle, offset, length);
    if (!directory) return;
    let declared = 0;
    for (let i = 0, at = 0; i < entries && at + 46 <= directory.length; i += 1) {
      if (directory.readUInt32LE(at) !== CENTRAL_ENTRY) return;
      const inflated = directory.readUInt32LE(at + 24);
      declared += inflated === 0xffffffff ? 2 ** 32 : inflated;
      if (declared > budget) throw overBudget("xlsx", declared, budget);
      at += 46 + directory.readUInt16LE(at + 28) + directory.readUInt16LE(at + 30) + directory.readUInt16LE(at + 32);
    }
  } finally {
    await handle.close();
  }
}
