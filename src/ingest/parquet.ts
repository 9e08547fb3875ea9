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

/** Row groups are read together in slices of at least this many rows. */
const SLICE_ROWS = 1_000_000;

/**
 * Row ranges covering whole row groups, at least `sliceRows` rows each (the last may hold fewer), from the file's footer (hyparquet
 * reads it); undefined for a file of one slice or a footer hyparquet cannot read.
 */
async function rowGroupSlices(file: string, sliceRows: number): Promise<[number, number][] | undefined> {
  try {
    const { asyncBufferFromFile, parquetMetadataAsync } = await import("hyparquet");
    const metadata = await parquetMetadataAsync(await asyncBufferFromFile(file));
    const slices: [number, number][] = [];
    let start = 0;
    let rows = 0;
    for (const group of metadata.row_groups) {
      rows += Number(group.num_rows);
      if (rows >= sliceRows) {
        slices.push([start, rows]);
        start += rows;
        rows = 0;
      }
    }
    if (rows > 0) slices.push([start, rows]);
    return slices.length > 1 ? slices : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads a few row groups at a time and joins the slices without copying: polars maps and decodes
 * one slice at a time instead of the whole file at once, which keeps the peak memory near the size
 * of the table itself.
 */
async function readWithPolars(file: string, columns: string[] | undefined, sliceRows: number): Promise<pl.DataFrame> {
  const scan = columns ? pl.scanParquet(file).select(...columns) : pl.scanParquet(file);
  const slices = await rowGroupSlices(file, sliceRows);
  if (!slices) return scan.collectSync();
  const frames = slices.map(([offset, length]) => scan.slice(offset, length).collectSync());
  return pl.concat(frames, { how: "vertical", rechunk: false });
}

export async function readParquet(file: string, options: Options, sliceRows = SLICE_ROWS): Promise<pl.DataFrame> {
  refuseUnknown(options, PARQUET_OPTIONS, "parquet");
  const columns = strings(options, "columns");
  const dtypes = readDtypeHints(options.dtype);
  let frame: pl.DataFrame;
  try {
    frame = await readWithPolars(file, columns, sliceRows);
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
