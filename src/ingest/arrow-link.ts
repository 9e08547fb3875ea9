// The fast path for Arrow IPC files that already are canonical tables: check them, then link, not rewrite.
import { open } from "node:fs/promises";
import { type AsyncRecordBatchFileReader, type Field, RecordBatchReader, Type } from "apache-arrow";
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

/**
 * An uncompressed Arrow IPC file whose record batches all decode (apache-arrow refuses compressed
 * buffers without a codec) and whose columns are plain types is stored as is: `target` becomes a
 * hard link to the upload. Returns undefined when the file needs the general path.
 */
export async function linkCanonicalArrow(file: string, target: string, name: string): Promise<TableSchema | undefined> {
  let rows = 0;
  let fields: Field[];
  const handle = await open(file, "r");
  try {
    // Read batch by batch from the file handle: the upload is never held in memory whole.
    const reader = (await RecordBatchReader.from(handle)) as unknown as AsyncRecordBatchFileReader;
    await reader.open();
    if (!reader.isFile()) return undefined;
    fields = reader.schema.fields;
    // Decoding every batch checks its metadata and buffers fit the file; compressed ones throw here.
    for (let i = 0; i < reader.numRecordBatches; i += 1) rows += (await reader.readRecordBatch(i))?.numRows ?? 0;
  } catch {
    return undefined;
  } finally {
    await handle.close();
  }
  if (fields.some((f) => !PLAIN.has(f.type.typeId)) || new Set(fields.map((f) => f.name)).size !== fields.length) return undefined;
  return linkTable(file, target, name, rows);
}
