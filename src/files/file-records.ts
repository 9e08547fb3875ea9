// The File record as services hand it out: the stored row with its JSON columns decoded.
import type { File as FileRow } from "../../prisma/generated/sqlite/client.ts";
import type { TableSchema } from "../ingest/table-files.ts";

export type FileRecord = Omit<FileRow, "parserOptions" | "sqlTransforms" | "errors" | "tablesSchemas" | "bytesCount"> & {
  parserOptions: Record<string, unknown>;
  sqlTransforms: unknown;
  errors: Record<string, unknown>;
  tablesSchemas: TableSchema[];
  bytesCount: number | null;
};

export function toFileRecord(row: FileRow): FileRecord {
  return {
    ...row,
    parserOptions: JSON.parse(row.parserOptions) as Record<string, unknown>,
    sqlTransforms: row.sqlTransforms === null ? null : (JSON.parse(row.sqlTransforms) as unknown),
    errors: JSON.parse(row.errors) as Record<string, unknown>,
    tablesSchemas: JSON.parse(row.tablesSchemas) as TableSchema[],
    bytesCount: row.bytesCount === null ? null : Number(row.bytesCount),
  };
}

/** What `errors` holds after a failed parse: code, message, and where when known (snake_case keys). */
export function errorsOf(code: string, message: string, details: Record<string, unknown> | undefined): Record<string, unknown> {
  const snake = Object.fromEntries(Object.entries(details ?? {}).map(([k, v]) => [k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), v]));
  return { code, message, ...snake };
}
