// The fast path for Parquet uploads read with no options: a file polars reads whole, of plain column types, is kept
// as it came as the version's table (a hard link, n.parquet), instead of being decoded and written again as Arrow.
import { link, rm } from "node:fs/promises";
import { tableFromIPC } from "apache-arrow";
import pl from "nodejs-polars";
import { pandasDtype } from "./dtype-names.ts";
import { groupRows, slicesOf } from "./parquet.ts";
import type { TableSchema } from "./table-files.ts";

/** Column types every reader of a kept table gets from polars as the Arrow path would have stored them. */
const PLAIN = new Set([
  "Int8",
  "Int16",
  "Int32",
  "Int64",
  "UInt8",
  "UInt16",
  "UInt32",
  "UInt64",
  "Float32",
  "Float64",
  "Bool",
  "String",
  "Utf8",
  "Date",
  "Datetime",
]);

/** Rows decoded at a time while the file is checked (whole row groups): one slice is held at once. */
const CHECK_ROWS = 1_000_000;

/**
 * Keeps `file` as the stored table `target` (a hard link) when polars reads every row of it and its columns are of
 * plain types with distinct names; answers its schema, with the dtype names the Arrow path gives. Every row group
 * is decoded (the file is one polars reads back, as arrow-link.ts holds linked Arrow files to), a slice at a time,
 * and dropped. Undefined when the file needs the general path (which reads it, or says why it cannot).
 */
export async function keepCanonicalParquet(
  file: string,
  target: string,
  name: string,
  mark?: (stage: string) => void,
  checkRows = CHECK_ROWS,
): Promise<TableSchema | undefined> {
  const rows = await groupRows(file);
  if (!rows) return undefined;
  const total = rows.reduce((sum, n) => sum + n, 0);
  let empty: pl.DataFrame;
  let nulls: Map<string, number>;
  try {
    const scan = pl.scanParquet(file);
    empty = scan.slice(0, 0).collectSync();
    const types = Object.values(empty.schema) as pl.DataType[];
    if (types.some((type) => !PLAIN.has(type.variant)) || new Set(empty.columns).size !== empty.width) return undefined;
    const checked = decodeAll(scan, rows, checkRows);
    if (checked.rows !== total) return undefined;
    nulls = checked.nulls;
  } catch {
    return undefined;
  } finally {
    mark?.("parquetCheckMs");
  }
  // The Arrow types of the columns as polars writes them: the dtype names are those of the stored Arrow table.
  const fields = tableFromIPC(empty.writeIPC()).schema.fields;
  try {
    await rm(target, { force: true });
    await link(file, target);
  } catch {
    await rm(target, { force: true });
    return undefined;
  }
  mark?.("linkMs");
  return {
    name,
    num_cols: fields.length,
    num_rows: total,
    dtypes: Object.fromEntries(fields.map((f) => [f.name, pandasDtype(f.type, (nulls.get(f.name) ?? 0) > 0)])),
  };
}

/** Decodes every row of the file, whole row groups a slice at a time; answers the rows read and the nulls of each column. */
function decodeAll(scan: pl.LazyDataFrame, groups: number[], sliceRows: number): { rows: number; nulls: Map<string, number> } {
  const nulls = new Map<string, number>();
  let rows = 0;
  for (const [offset, length] of slicesOf(groups, sliceRows) ?? [[0, groups.reduce((sum, n) => sum + n, 0)]]) {
    const frame = scan.slice(offset, length).collectSync();
    rows += frame.height;
    // The frame's own null counts: taking each column out as a Series costs 1-2 ms a column.
    const counts = frame.width === 0 ? [] : (frame.nullCount().row(0) as unknown[]);
    for (const [i, name] of frame.columns.entries()) nulls.set(name, (nulls.get(name) ?? 0) + Number(counts[i] ?? 0));
  }
  return { rows, nulls };
}
