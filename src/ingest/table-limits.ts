// Limits on the shape of an uploaded table (columns, column-name length, nesting depth), each refused with a 413 naming it.
import { open } from "node:fs/promises";
import { AppError } from "../errors/app-error.ts";
import type { Options } from "./option-readers.ts";

export type TableLimits = {
  /** Most columns one table may have (PARSE_MAX_COLUMNS). */
  maxColumns: number;
  /** Longest column name, in UTF-8 bytes (PARSE_MAX_COLUMN_NAME_BYTES). */
  maxColumnNameBytes: number;
  /** Deepest nesting of JSON arrays and objects (PARSE_MAX_NESTING_DEPTH). */
  maxNestingDepth: number;
};

/**
 * Every stage of a parse costs a few milliseconds per column, so a 2.6 MB JSON of 200,000 columns took half an
 * hour; 4,096 columns take seconds. 1,024 levels are what pandas' JSON decoder allows.
 */
export const DEFAULT_TABLE_LIMITS: TableLimits = { maxColumns: 4096, maxColumnNameBytes: 1024, maxNestingDepth: 1024 };

/** The error of a table past one of its limits: 413, the setting that raises it in details. */
export function overLimit(message: string, setting: string, limit: number, extra: Record<string, unknown> = {}): AppError {
  return new AppError("PAYLOAD_TOO_LARGE", `${message} (the limit is ${limit}, set by ${setting})`, {
    details: { limit, setting, ...extra },
  });
}

/** Refuses a table with too many columns or too long a column name. */
export function checkColumns(names: readonly string[], limits: TableLimits): void {
  if (names.length > limits.maxColumns) {
    throw overLimit(
      `the table has ${names.length} columns, more than the ${limits.maxColumns} allowed`,
      "PARSE_MAX_COLUMNS",
      limits.maxColumns,
      {
        columns: names.length,
      },
    );
  }
  for (const [index, name] of names.entries()) {
    const bytes = Buffer.byteLength(name);
    if (bytes > limits.maxColumnNameBytes) {
      throw overLimit(
        `column ${index}'s name is ${bytes} bytes long, longer than the ${limits.maxColumnNameBytes} allowed`,
        "PARSE_MAX_COLUMN_NAME_BYTES",
        limits.maxColumnNameBytes,
        { column: index, bytes },
      );
    }
  }
}

const CHUNK = 1 << 16;

/**
 * The header line of CSV read with default settings, checked before any reader sees the file: its field count
 * and each field's length (a comma inside double quotes does not split). Reads only as far as the limits reach:
 * a header longer than every allowed column name together is refused without reading the rest.
 */
export async function checkCsvHeader(file: string, options: Options, limits: TableLimits): Promise<void> {
  if (Object.keys(options).length > 0) return;
  const most = limits.maxColumns * (limits.maxColumnNameBytes + 3);
  const handle = await open(file, "r");
  try {
    const buffer = Buffer.alloc(CHUNK);
    let fields = 1;
    let field = 0;
    let quoted = false;
    for (let position = 0; ; ) {
      const { bytesRead } = await handle.read(buffer, 0, CHUNK, position);
      for (let i = 0; i < bytesRead; i += 1) {
        const c = buffer[i];
        if (c === 0x22) quoted = !quoted;
        else if (!quoted && (c === 0x0a || c === 0x0d)) return;
        else if (!quoted && c === 0x2c) {
          fields += 1;
          field = 0;
          if (fields > limits.maxColumns) {
            throw overLimit(`the CSV header has more than ${limits.maxColumns} columns`, "PARSE_MAX_COLUMNS", limits.maxColumns);
          }
          continue;
        }
        field += 1;
        // The quotes around a name are not part of it.
        if (field > limits.maxColumnNameBytes + 2) {
          throw overLimit(
            `column ${fields - 1}'s name in the CSV header is longer than the ${limits.maxColumnNameBytes} bytes allowed`,
            "PARSE_MAX_COLUMN_NAME_BYTES",
            limits.maxColumnNameBytes,
            { column: fields - 1 },
          );
        }
      }
      position += bytesRead;
      if (bytesRead < CHUNK || position > most) return;
    }
  } finally {
    await handle.close();
  }
}
