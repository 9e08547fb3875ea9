// Query parameters of a direct table upload (spec 4.3) read into the ingest parser options, refusing what cannot apply.
import { AppError } from "../errors/app-error.ts";
import { CSV_OPTIONS } from "../ingest/csv-options.ts";
import type { Compression, FileType } from "../ingest/formats.ts";
import { JSON_OPTIONS } from "../ingest/json.ts";
import { readRowGroups } from "../ingest/parquet.ts";

export const DIRECT_FORMATS = ["json", "csv", "parquet", "orc", "arrow"] as const;
export type DirectFormat = (typeof DIRECT_FORMATS)[number];

/** The query parameters spec 4.3 lists per format: the same names the file parser options take. */
const ALLOWED: Record<DirectFormat, readonly string[]> = {
  json: JSON_OPTIONS,
  csv: CSV_OPTIONS,
  parquet: ["columns", "row_groups"],
  orc: ["columns", "skiprows", "num_rows"],
  arrow: [],
};

/** Query values are text: JSON where they parse as JSON (lists, objects, numbers, booleans, null), else the text. */
function queryValue(raw: string): unknown {
  if (raw === "None") return null;
  if (raw === "True") return true;
  if (raw === "False") return false;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

export type DirectUploadPlan = { fileType: FileType; compression: Compression | "infer"; parserOptions: Record<string, unknown> };

export function planDirectUpload(format: string, query: Record<string, string>): DirectUploadPlan {
  if (!(DIRECT_FORMATS as readonly string[]).includes(format)) {
    throw new AppError("NOT_FOUND", `no direct upload format "${format}" (use ${DIRECT_FORMATS.join(", ")})`);
  }
  const fileType = format as DirectFormat;
  const parserOptions: Record<string, unknown> = {};
  let compression: Compression | "infer" = "infer";
  for (const [key, raw] of Object.entries(query)) {
    if (!ALLOWED[fileType].includes(key)) {
      throw new AppError("INVALID_INPUT", `query parameter "${key}" does not apply to ${fileType} uploads`, { details: { field: key } });
    }
    const value = queryValue(raw);
    if (key === "compression") {
      if (value === "infer" || value === null || value === "none") compression = value === "none" ? "" : "infer";
      else if (value === "gzip" || value === "zip" || value === "bz2" || value === "xz") compression = value;
      else
        throw new AppError("INVALID_INPUT", 'query parameter "compression" must be infer, gzip, zip, bz2 or xz', {
          details: { field: key },
        });
      continue;
    }
    // Checked before the body is stored; whether each index exists is known once the file is read.
    if (key === "row_groups") readRowGroups({ row_groups: value }, `query parameter "row_groups"`);
    parserOptions[key] = value;
  }
  return { fileType, compression, parserOptions };
}
