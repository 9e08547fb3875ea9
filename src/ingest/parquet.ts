// Reads Parquet with polars, falling back to hyparquet for files polars cannot read.
import { readFile } from "node:fs/promises";
import pl from "nodejs-polars";
import { AppError } from "../errors/app-error.ts";
import { applyDtypeHints, readDtypeHints } from "./dtype-hints.ts";
import { type Options, refuseUnknown, strings } from "./option-readers.ts";
import { seriesOf } from "./series.ts";

export const PARQUET_OPTIONS = ["columns", "dtype"] as const;

/** hyparquet decodes some files polars refuses (for example pages of several concatenated gzip members). */
async function readWithHyparquet(file: string, columns: string[] | undefined): Promise<pl.DataFrame> {
  // Loaded only for the rare file polars refuses.
  const [{ parquetReadObjects }, { compressors }] = await Promise.all([import("hyparquet"), import("hyparquet-compressors")]);
  const bytes = await readFile(file);
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  const rows = (await parquetReadObjects({ file: buffer, compressors, ...(columns ? { columns } : {}) })) as Record<string, unknown>[];
  const names = columns ?? Object.keys(rows[0] ?? {});
  return pl.DataFrame(
    names.map((name) =>
      seriesOf(
        name,
        rows.map((r) => r[name]),
      ),
    ),
  );
}

export async function readParquet(file: string, options: Options): Promise<pl.DataFrame> {
  refuseUnknown(options, PARQUET_OPTIONS, "parquet");
  const columns = strings(options, "columns");
  const dtypes = readDtypeHints(options.dtype);
  let frame: pl.DataFrame;
  try {
    const scan = pl.scanParquet(file);
    frame = (columns ? scan.select(...columns) : scan).collectSync();
  } catch (first) {
    try {
      frame = await readWithHyparquet(file, columns);
    } catch {
      const message = (first as Error).message.split("\n")[0] ?? "unreadable";
      throw new AppError("PARSE_FAILED", `Parquet could not be read: ${message}`, { details: { format: "parquet" } });
    }
  }
  return applyDtypeHints(frame, dtypes);
}
