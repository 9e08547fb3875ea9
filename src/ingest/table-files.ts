// Writes parsed tables as canonical Arrow IPC files and reads back their schemas.
import { existsSync } from "node:fs";
import { link, mkdir, open, readFile, rm } from "node:fs/promises";
import { dirname } from "node:path";
import { RecordBatchStreamReader, type Schema, tableFromIPC } from "apache-arrow";
import pl, { type DataFrame, type LazyDataFrame } from "nodejs-polars";
import { AppError } from "../errors/app-error.ts";
import { pandasDtypes } from "./dtype-names.ts";

export type TableSchema = { name: string; num_cols: number; num_rows: number; dtypes: Record<string, string> };

/** How much of a file's start is read for its schema: a usual one fits in the first, thousands of columns in the second. */
const HEAD_BYTES = [64 << 10, 4 << 20];

/** The schema message at the start of an IPC file, without reading its batches. */
async function readSchema(path: string): Promise<Schema> {
  const handle = await open(path, "r");
  try {
    const size = (await handle.stat()).size;
    for (const bytes of HEAD_BYTES) {
      const head = Buffer.allocUnsafe(Math.min(size, bytes));
      const { bytesRead } = await handle.read(head, 0, head.length, 0);
      try {
        // Skip the 8-byte "ARROW1\0\0" file magic: what follows starts like a stream, schema first.
        const reader = RecordBatchStreamReader.from(head.subarray(8, bytesRead));
        reader.open();
        return reader.schema;
      } catch {
        // A schema larger than the head: read more.
        if (head.length === size) break;
      }
    }
    // A schema larger than the largest head (thousands of columns): read the file whole.
    return tableFromIPC(await readFile(path)).schema;
  } finally {
    await handle.close();
  }
}

/** `mark`, when given, is told when the table is written ("writeMs") and described ("describeMs"). */
export async function writeTable(frame: DataFrame, path: string, name: string, mark?: (stage: string) => void): Promise<TableSchema> {
  await mkdir(dirname(path), { recursive: true });
  // A new file, never one shared by a hard link (a linked upload): polars truncates what it writes to.
  await rm(path, { force: true });
  try {
    frame.writeIPC(path, { compression: "uncompressed" });
  } catch (error) {
    // A categorical column read in several chunks carries several dictionaries; the IPC file format allows one.
    if (!/dictionary/i.test((error as Error).message)) {
      throw new AppError("PARSE_FAILED", `table "${name}" could not be stored: ${(error as Error).message.split("\n")[0]}`);
    }
    frame.rechunk().writeIPC(path, { compression: "uncompressed" });
  }
  mark?.("writeMs");
  const schema = await describe(path, name, frame.height, frame);
  mark?.("describeMs");
  return schema;
}

/** The table schema of a stored table, with pandas dtype names from its Arrow schema (and the frame written, when known). */
async function describe(path: string, name: string, rows: number, frame?: DataFrame): Promise<TableSchema> {
  const schema = await readSchema(path);
  return {
    name,
    num_cols: schema.fields.length,
    num_rows: rows,
    dtypes: pandasDtypes(schema.fields, frame),
  };
}

const ARROW = ".arrow";
const PARQUET = ".parquet";
const isParquet = (path: string) => path.endsWith(PARQUET);

/**
 * Where a stored table is. A stored file's table n is n.arrow, or n.parquet when its Parquet upload was kept as it
 * came (parquet-keep.ts): readers name the .arrow path and go through this module (readTable, scanTable,
 * linkTable), which finds whichever is there.
 */
export function storedTablePath(path: string): string {
  if (!path.endsWith(ARROW) || existsSync(path)) return path;
  const parquet = `${path.slice(0, -ARROW.length)}${PARQUET}`;
  return existsSync(parquet) ? parquet : path;
}

/** Whether a stored table (named by its .arrow path) is a Parquet upload kept as it came: it cannot be linked as Arrow. */
export function isKeptParquet(path: string): boolean {
  return isParquet(storedTablePath(path));
}

/**
 * A stored table, lazily (see storedTablePath). nodejs-polars' readIPC cannot take a path (it mistakes valid files
 * for bad footers); the scanner can.
 */
export function scanTable(path: string): LazyDataFrame {
  const found = storedTablePath(path);
  return isParquet(found) ? pl.scanParquet(found) : pl.scanIPC(found);
}

/** Reads a stored table back (see storedTablePath). */
export function readTable(path: string): DataFrame {
  return scanTable(path).collectSync();
}

/**
 * Stores an existing canonical table under a second name (a hard link: no copy) and describes it. A table kept as
 * Parquet is written there as Arrow (`path` is always an Arrow table).
 */
export async function linkTable(existing: string, path: string, name: string, rows: number): Promise<TableSchema> {
  const found = storedTablePath(existing);
  if (isParquet(found)) return writeTable(readTable(found), path, name);
  await mkdir(dirname(path), { recursive: true });
  await rm(path, { force: true });
  await link(found, path);
  return describe(path, name, rows);
}
