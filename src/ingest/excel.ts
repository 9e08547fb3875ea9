// Reads xls (BIFF5/8) and xlsx workbooks with SheetJS: one table per sheet, in sheet order.
import { readFile } from "node:fs/promises";
// Types only here: the reader (some 18 MiB resident) is loaded on the first workbook, not at start.
import type * as XLSX from "@e965/xlsx";
import pl from "nodejs-polars";
import { AppError } from "../errors/app-error.ts";
import { applyDtypeHints, readDtypeHints } from "./dtype-hints.ts";
import { type Options, refuseUnknown } from "./option-readers.ts";
import { seriesOf, uniqueNames } from "./series.ts";

export const EXCEL_OPTIONS = ["header", "dtype"] as const;

export type NamedFrame = { name: string; frame: pl.DataFrame };

function headerRow(options: Options): number | null {
  const v = options.header;
  if (v === undefined || v === 0 || v === "infer") return 0;
  if (v === null) return null;
  if (typeof v === "number" && Number.isInteger(v) && v > 0) return v;
  throw new AppError("INVALID_INPUT", "parser_options.header must be a row number or null", {
    details: { field: "parser_options.header" },
  });
}

type Xlsx = typeof XLSX;

function sheetFrame(xlsx: Xlsx, sheet: XLSX.WorkSheet, header: number | null): pl.DataFrame {
  // Rows of the sheet's used range; blank rows dropped as pandas' read_excel does.
  const rows = xlsx.utils.sheet_to_json<unknown[]>(sheet, { header: 1, blankrows: false, defval: null, raw: true });
  // A loop, not Math.max(...rows): a spread of a million rows overflows the stack.
  let width = 0;
  for (const row of rows) if (row.length > width) width = row.length;
  if (rows.length === 0 || width === 0) return pl.DataFrame({});
  const names =
    header === null
      ? Array.from({ length: width }, (_, i) => String(i))
      : uniqueNames(Array.from({ length: width }, (_, i) => rows[header]?.[i]));
  const data = header === null ? rows : rows.slice(header + 1);
  return pl.DataFrame(
    names.map((name, c) =>
      seriesOf(
        name,
        data.map((row) => row[c] ?? null),
      ),
    ),
  );
}

export async function readExcel(file: string, options: Options, fileType: "xls" | "xlsx"): Promise<NamedFrame[]> {
  refuseUnknown(options, EXCEL_OPTIONS, fileType);
  const header = headerRow(options);
  const dtypes = readDtypeHints(options.dtype);
  const xlsx: Xlsx = await import("@e965/xlsx");
  let book: XLSX.WorkBook;
  try {
    book = xlsx.read(await readFile(file), { type: "buffer", cellDates: true, dense: true });
  } catch (error) {
    throw new AppError("PARSE_FAILED", `not a readable ${fileType} workbook: ${(error as Error).message}`, {
      details: { format: fileType },
    });
  }
  if (book.SheetNames.length === 0) throw new AppError("PARSE_FAILED", "the workbook has no sheets", { details: { format: fileType } });
  return book.SheetNames.map((name) => {
    const sheet = book.Sheets[name];
    const frame = sheet ? sheetFrame(xlsx, sheet, header) : pl.DataFrame({});
    return { name, frame: frame.width > 0 ? applyDtypeHints(frame, dtypes) : frame };
  });
}
