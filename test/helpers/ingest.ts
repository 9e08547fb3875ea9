// Runs the ingest pipeline on a fixture in a temporary folder and reads back the stored Arrow tables.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { type Table, tableFromIPC } from "apache-arrow";
import type { Compression, FileType } from "../../src/ingest/formats.ts";
import { parseUpload } from "../../src/ingest/parse.ts";
import type { TableSchema } from "../../src/ingest/table-files.ts";

export async function ingest(
  rawPath: string,
  fileType: FileType,
  options: { compression?: Compression; parserOptions?: Record<string, unknown> } = {},
): Promise<{ schemas: TableSchema[]; tables: Table[] }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "gw-ingest-"));
  try {
    const schemas = await parseUpload({
      rawPath,
      fileType,
      compression: options.compression ?? "",
      parserOptions: options.parserOptions ?? {},
      tableName: path.basename(rawPath),
      tablesDir: path.join(dir, "tables"),
      scratch: dir,
      limits: { maxBytes: 1 << 30, maxRatio: 1000, floorBytes: 1 << 28 },
    });
    const tables = await Promise.all(schemas.map(async (_, i) => tableFromIPC(await readFile(path.join(dir, "tables", `${i}.arrow`)))));
    return { schemas, tables };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A column of an Arrow table as plain JS values (bigints as strings, dates as ISO text). */
export function columnValues(table: Table, name: string): unknown[] {
  const column = table.getChild(name);
  if (!column) throw new Error(`no column ${name}`);
  return [...column].map((v: unknown) => (typeof v === "bigint" ? v.toString() : v instanceof Date ? v.toISOString() : v));
}
