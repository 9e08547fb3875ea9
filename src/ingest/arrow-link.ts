// The fast path for Arrow IPC files that already are canonical tables: check them, then link, not rewrite.
import { type FileHandle, open, rm } from "node:fs/promises";
import { type AsyncRecordBatchFileReader, type Field, RecordBatchReader, Type } from "apache-arrow";
import { checkArrowFile } from "./arrow-check.ts";
import { linkTable, type TableSchema } from "./table-files.ts";

/** Types every reader of our tables (polars, apache-arrow 21 in the browser) takes as they are; others go through polars. */
const PLAIN: ReadonlySet<number> = new Set([
  Type.Null,
  Type.Bool,
  Type.Int,
  Type.Float,
  Type.Utf8,
  Type.LargeUtf8,
  Type.Binary,
  Type.LargeBinary,
  Type.Utf8View,
  Type.BinaryView,
  Type.Date,
  Type.Timestamp,
  Type.Time,
  Type.Dictionary,
]);

/** Decodes every batch (dictionaries included) from the file handle, batch by batch: slower, for files the header check does not cover. */
async function decodeAll(handle: FileHandle): Promise<{ fields: Field[]; rows: number } | undefined> {
  const reader = (await RecordBatchReader.from(handle)) as unknown as AsyncRecordBatchFileReader;
  await reader.open();
  if (!reader.isFile()) return undefined;
  let rows = 0;
  // Decoding checks each batch's metadata against the file; compressed ones throw here.
  for (let i = 0; i < reader.numRecordBatches; i += 1) rows += (await reader.readRecordBatch(i))?.numRows ?? 0;
  return { fields: reader.schema.fields, rows };
}

/**
 * An uncompressed Arrow IPC file whose record batches are well formed and whose columns are plain
 * types is stored as is: `target` becomes a hard link to the upload. Flat files without dictionaries
 * are checked from their footer and batch headers alone (the column data is not read); others are
 * decoded batch by batch. Returns undefined when the file needs the general path.
 */
export async function linkCanonicalArrow(file: string, target: string, name: string): Promise<TableSchema | undefined> {
  let rows: number;
  let fields: Field[];
  const handle = await open(file, "r");
  try {
    const checked = await checkArrowFile(handle, (await handle.stat()).size).catch(() => undefined);
    const found = checked ? { fields: checked.schema.fields, rows: checked.rows } : await decodeAll(handle);
    if (!found) return undefined;
    ({ fields, rows } = found);
  } catch {
    return undefined;
  } finally {
    await handle.close();
  }
  if (fields.some((f) => !PLAIN.has(f.type.typeId)) || new Set(fields.map((f) => f.name)).size !== fields.length) return undefined;
  try {
    return await linkTable(file, target, name, rows);
  } catch {
    // Unlinked before the general path writes there: writing through the link would overwrite the upload.
    await rm(target, { force: true });
    return undefined;
  }
}
