// Reads Arrow IPC, file format (ARROW1, Feather v2) or stream format, compressed buffers included.
import { type FileHandle, open, readFile } from "node:fs/promises";
import { type Field, MessageHeader, type Schema, Type } from "apache-arrow";
import { Footer } from "apache-arrow/ipc/metadata/file";
import { Message } from "apache-arrow/ipc/metadata/message";
import pl from "nodejs-polars";
import { AppError } from "../errors/app-error.ts";
import { encodeDictionaries } from "./dictionary-columns.ts";
import { applyDtypeHints, readDtypeHints } from "./dtype-hints.ts";
import { guardFooter, guardMessage } from "./flatbuffer-guard.ts";
import { type Options, refuseUnknown } from "./option-readers.ts";
import type { Sniffed } from "./sniff.ts";
import type { TableSchema } from "./table-files.ts";

export const ARROW_OPTIONS = ["dtype"] as const;

export async function readArrow(file: string, options: Options, kind: Sniffed): Promise<pl.DataFrame> {
  refuseUnknown(options, ARROW_OPTIONS, "arrow");
  if (kind !== "arrow-file" && kind !== "arrow-stream") {
    throw new AppError("PARSE_FAILED", "not Arrow IPC data: expected the ARROW1 file magic or a stream's 0xFFFFFFFF continuation marker", {
      details: { format: "arrow", byteOffset: 0 },
    });
  }
  try {
    // The file format can be scanned from disk; the stream format must be read from memory.
    const frame = kind === "arrow-file" ? pl.scanIPC(file).collectSync() : pl.readIPCStream(await readFile(file));
    return applyDtypeHints(frame, readDtypeHints(options.dtype));
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError("PARSE_FAILED", `Arrow IPC could not be read: ${(error as Error).message.split("\n")[0]}`, {
      details: { format: "arrow" },
    });
  }
}

/** Schema messages larger than this are not looked at (real ones are kilobytes). */
const MAX_SCHEMA_BYTES = 16 << 20;

/** Read from the end of a file: its footer length and closing magic. */
const TAIL = 10;

async function readAt(handle: FileHandle, position: number, length: number): Promise<Buffer | undefined> {
  if (position < 0 || length <= 0 || length > MAX_SCHEMA_BYTES) return undefined;
  const bytes = Buffer.alloc(length);
  const { bytesRead } = await handle.read(bytes, 0, length, position);
  return bytesRead === length ? bytes : undefined;
}

/**
 * The schema of an IPC file (from its footer: apache-arrow's writer puts no schema message after the
 * magic) or stream (its first message), the lengths checked before decoding; undefined when unreadable.
 */
async function sourceSchema(file: string, kind: "arrow-file" | "arrow-stream"): Promise<Schema | undefined> {
  const handle = await open(file, "r");
  try {
    if (kind === "arrow-file") {
      const size = (await handle.stat()).size;
      const tail = await readAt(handle, size - TAIL, TAIL);
      if (!tail) return undefined;
      const length = tail.readInt32LE(0);
      const footer = await readAt(handle, size - TAIL - length, length);
      if (!footer) return undefined;
      guardFooter(footer);
      return Footer.decode(footer).schema;
    }
    const prefix = await readAt(handle, 0, 8);
    if (!prefix) return undefined;
    const [length, start] = prefix.readInt32LE(0) === -1 ? [prefix.readInt32LE(4), 8] : [prefix.readInt32LE(0), 4];
    const bytes = await readAt(handle, start, length);
    if (!bytes) return undefined;
    guardMessage(bytes);
    const message = Message.decode(bytes);
    return message.headerType === MessageHeader.Schema ? (message.header() as Schema) : undefined;
  } catch {
    return undefined;
  } finally {
    await handle.close();
  }
}

/** Columns named by a dtype hint take the hinted type, not their Arrow one. */
function hinted(options: Options): (column: string) => boolean {
  const hints = readDtypeHints(options.dtype);
  if (!hints) return () => false;
  return "all" in hints ? () => true : (column) => column in hints.byColumn;
}

/**
 * pyarrow's `to_pandas()` makes every Arrow dictionary column `category`, whatever its values. polars
 * keeps only dictionaries of text (as Categorical) and decodes the others (integers, floats, dates) to
 * their value type: so an upload polars read (an Arrow stream, a compressed file, a file with options)
 * would give `int64` where the same table as a stored Arrow file gives `category`. This encodes those
 * columns of the stored table as dictionaries again (dictionary-columns.ts). Columns a dtype hint names
 * keep the hinted type.
 */
export async function keepArrowDictionaries(
  source: string,
  kind: Sniffed,
  options: Options,
  stored: string,
  schema: TableSchema,
): Promise<TableSchema> {
  if (kind !== "arrow-file" && kind !== "arrow-stream") return schema;
  const fields = (await sourceSchema(source, kind))?.fields ?? [];
  const isHinted = hinted(options);
  const wanted = fields.filter((f: Field) => f.type.typeId === Type.Dictionary && !isHinted(f.name)).map((f) => f.name);
  return encodeDictionaries(stored, schema, wanted);
}
