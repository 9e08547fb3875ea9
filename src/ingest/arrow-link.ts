// The fast path for Arrow IPC files that already are canonical tables: check them, then link, not rewrite.
import { type FileHandle, open, rm } from "node:fs/promises";
import { type AsyncRecordBatchFileReader, type Field, RecordBatchReader, Type } from "apache-arrow";
import pl from "nodejs-polars";
import { checkScanned, scanArrowFile } from "./arrow-check.ts";
import { linkTable, type TableSchema } from "./table-files.ts";

/** Columns whose bytes can be wrong for their type (text that is not UTF-8, offsets or views out of bounds). */
const VARIABLE: ReadonlySet<number> = new Set([
  Type.Utf8,
  Type.LargeUtf8,
  Type.Binary,
  Type.LargeBinary,
  Type.Utf8View,
  Type.BinaryView,
  Type.Dictionary,
]);

/** Types every reader of our tables (polars, apache-arrow 21 in the browser) takes as they are; others go through polars. */
const PLAIN: ReadonlySet<number> = new Set([...VARIABLE, Type.Null, Type.Bool, Type.Int, Type.Float, Type.Date, Type.Timestamp, Type.Time]);

/** polars reads these columns as it will read them later from the stored table (it checks UTF-8, offsets and views). */
function readableByPolars(file: string, fields: Field[]): boolean {
  const columns = fields.map((f) => f.name);
  if (columns.length === 0) return true;
  try {
    pl.scanIPC(file)
      .select(...columns)
      .collectSync();
    return true;
  } catch {
    return false;
  }
}

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
 * are checked from their footer and batch headers (arrow-check.ts); others, once their metadata is
 * found well formed, are decoded batch by batch. Then polars reads the columns whose content can be
 * wrong (readableByPolars). Returns undefined when the file needs the general path.
 */
export async function linkCanonicalArrow(
  file: string,
  target: string,
  name: string,
  mark?: (stage: string) => void,
): Promise<TableSchema | undefined> {
  let found: { fields: Field[]; rows: number; checked: boolean } | undefined;
  const handle = await open(file, "r");
  try {
    // Metadata that is not well formed never reaches apache-arrow's decoder (a hostile length could exhaust the heap).
    const scanned = await scanArrowFile(handle, (await handle.stat()).size).catch(() => undefined);
    if (!scanned) return undefined;
    const checked = await checkScanned(handle, scanned).catch(() => undefined);
    if (checked) found = { fields: checked.schema.fields, rows: checked.rows, checked: true };
    else if (scanned.dictionaries > 0) {
      // Dictionary columns are beyond the header check: apache-arrow decodes such files; polars then reads them whole.
      const decoded = await decodeAll(handle);
      if (decoded) found = { ...decoded, checked: false };
    }
  } catch {
    return undefined;
  } finally {
    await handle.close();
  }
  mark?.("arrowCheckMs");
  if (!found) return undefined;
  const { fields, rows } = found;
  if (fields.some((f) => !PLAIN.has(f.type.typeId)) || new Set(fields.map((f) => f.name)).size !== fields.length) return undefined;
  // Header-checked files: the columns whose bytes can be wrong for their type (numbers and validity bits
  // cannot), or else the first column, which has polars read every batch's metadata with its own stricter
  // flatbuffer checks. Decoded files: every column. A file polars cannot read goes to the general path,
  // which answers why.
  const variable = fields.filter((f) => VARIABLE.has(f.type.typeId));
  const toRead = !found.checked ? fields : variable.length > 0 ? variable : fields.slice(0, 1);
  const readable = readableByPolars(file, toRead);
  mark?.("polarsCheckMs");
  if (!readable) return undefined;
  try {
    return await linkTable(file, target, name, rows);
  } catch {
    // Unlinked before the general path writes there: writing through the link would overwrite the upload.
    await rm(target, { force: true });
    return undefined;
  }
}
