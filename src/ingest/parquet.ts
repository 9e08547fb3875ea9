// Reads Parquet with polars, falling back to hyparquet for files polars cannot read.
import { readFile } from "node:fs/promises";
import pl from "nodejs-polars";
import { AppError } from "../errors/app-error.ts";
import { applyDtypeHints, readDtypeHints } from "./dtype-hints.ts";
import { type Options, refuseUnknown, strings } from "./option-readers.ts";
import { seriesOf } from "./series.ts";

export const PARQUET_OPTIONS = ["columns", "dtype", "row_groups"] as const;

/** hyparquet decodes some files polars refuses (for example pages of several concatenated gzip members). */
async function readWithHyparquet(
  file: string,
  columns: string[] | undefined,
  ranges: [number, number][] | undefined,
): Promise<pl.DataFrame> {
  // Loaded only for the rare file polars refuses.
  const [{ parquetReadObjects }, { compressors }] = await Promise.all([import("hyparquet"), import("hyparquet-compressors")]);
  const bytes = await readFile(file);
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  const read = (range?: [number, number]) =>
    parquetReadObjects({
      file: buffer,
      compressors,
      ...(columns ? { columns } : {}),
      ...(range ? { rowStart: range[0], rowEnd: range[0] + range[1] } : {}),
    }) as Promise<Record<string, unknown>[]>;
  const rows = ranges ? (await Promise.all(ranges.map((range) => read(range)))).flat() : await read();
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

/** Rows of each row group, from the file's footer (hyparquet reads it); undefined for a footer hyparquet cannot read. */
export async function groupRows(file: string): Promise<number[] | undefined> {
  try {
    const { asyncBufferFromFile, parquetMetadataAsync } = await import("hyparquet");
    const metadata = await parquetMetadataAsync(await asyncBufferFromFile(file));
    return metadata.row_groups.map((group) => Number(group.num_rows));
  } catch {
    return undefined;
  }
}

/** Row ranges covering whole row groups, at least `sliceRows` rows each (the last may hold fewer); undefined for one slice. */
export function slicesOf(rows: number[], sliceRows: number): [number, number][] | undefined {
  const slices: [number, number][] = [];
  let start = 0;
  let pending = 0;
  for (const count of rows) {
    pending += count;
    if (pending >= sliceRows) {
      slices.push([start, pending]);
      start += pending;
      pending = 0;
    }
  }
  if (pending > 0) slices.push([start, pending]);
  return slices.length > 1 ? slices : undefined;
}

/** The row range of each chosen row group, in the order chosen, as pyarrow's ParquetFile.read_row_groups reads them. */
function groupRanges(rows: number[] | undefined, chosen: number[]): [number, number][] {
  if (!rows) throw new AppError("PARSE_FAILED", "row_groups: the Parquet footer could not be read", { details: { format: "parquet" } });
  const starts: number[] = [];
  rows.reduce((start, count) => {
    starts.push(start);
    return start + count;
  }, 0);
  return chosen.map((index) => {
    const start = starts[index];
    const count = rows[index];
    if (start === undefined || count === undefined) {
      const range = rows.length === 0 ? "it has none" : `it has ${rows.length}: 0 to ${rows.length - 1}`;
      throw new AppError("INVALID_INPUT", `row_groups: the file has no row group ${index} (${range})`, {
        details: { field: "parser_options.row_groups", rowGroup: index },
      });
    }
    return [start, count];
  });
}

/**
 * Reads the row ranges (whole row groups) one at a time and joins them without copying: polars maps and
 * decodes one range at a time instead of the whole file at once, which keeps the peak memory near the
 * size of the table itself. Without ranges it reads the whole file.
 */
function readWithPolars(file: string, columns: string[] | undefined, ranges: [number, number][] | undefined): pl.DataFrame {
  const scan = columns ? pl.scanParquet(file).select(...columns) : pl.scanParquet(file);
  if (!ranges) return scan.collectSync();
  if (ranges.length === 0) return scan.slice(0, 0).collectSync();
  const frames = ranges.map(([offset, length]) => scan.slice(offset, length).collectSync());
  return frames.length === 1 ? (frames[0] as pl.DataFrame) : pl.concat(frames, { how: "vertical", rechunk: false });
}

/**
 * `row_groups` as pyarrow's `ParquetFile.read_row_groups` takes it (indices, read in the order given;
 * spec 4.3's single index too). Whether each exists is known only from the file.
 */
export function readRowGroups(options: Options, field = "parser_options.row_groups"): number[] | undefined {
  const value = options.row_groups;
  if (value === undefined || value === null) return undefined;
  const list: unknown[] = Array.isArray(value) ? value : [value];
  const bad = list.find((x) => typeof x !== "number" || !Number.isInteger(x) || x < 0);
  if (bad !== undefined) {
    throw new AppError(
      "INVALID_INPUT",
      `${field} must be a row group index or a list of them (integers >= 0); got ${JSON.stringify(bad)}`,
      {
        details: { field },
      },
    );
  }
  return list as number[];
}

/** Checks parquet parser_options before any data arrives. */
export function checkParquetOptions(options: Options): void {
  refuseUnknown(options, PARQUET_OPTIONS, "parquet");
  strings(options, "columns");
  readRowGroups(options);
  readDtypeHints(options.dtype);
}

export async function readParquet(file: string, options: Options, sliceRows = SLICE_ROWS): Promise<pl.DataFrame> {
  checkParquetOptions(options);
  const columns = strings(options, "columns");
  const chosen = readRowGroups(options);
  const dtypes = readDtypeHints(options.dtype);
  const rows = await groupRows(file);
  const ranges = chosen ? groupRanges(rows, chosen) : rows && slicesOf(rows, sliceRows);
  let frame: pl.DataFrame;
  try {
    frame = readWithPolars(file, columns, ranges);
  } catch (first) {
    try {
      frame = await readWithHyparquet(file, columns, chosen ? ranges : undefined);
    } catch {
      const message = (first as Error).message.split("\n")[0] ?? "unreadable";
      throw new AppError("PARSE_FAILED", `Parquet could not be read: ${message}`, { details: { format: "parquet" } });
    }
  }
  return applyDtypeHints(frame, dtypes);
}
