// Checks parser_options for a file type before any data arrives, so mistakes fail at creation.
import { AppError } from "../errors/app-error.ts";
import { ARROW_OPTIONS } from "./arrow-ipc.ts";
import { planCsv } from "./csv-options.ts";
import { readDtypeHints } from "./dtype-hints.ts";
import { EXCEL_OPTIONS } from "./excel.ts";
import type { Compression, FileType } from "./formats.ts";
import { checkJsonOptions } from "./json.ts";
import { int, type Options, refuseUnknown, strings } from "./option-readers.ts";
import { ORC_OPTIONS } from "./orc-frame.ts";
import { checkParquetOptions } from "./parquet.ts";

export function validateParserOptions(fileType: FileType, compression: Compression, options: unknown): Options {
  if (options === null || options === undefined) return {};
  if (typeof options !== "object" || Array.isArray(options)) {
    throw new AppError("INVALID_INPUT", "parser_options must be a JSON object", { details: { field: "parser_options" } });
  }
  const o = options as Options;
  switch (fileType) {
    case "csv":
      planCsv(o, compression);
      break;
    case "json":
      checkJsonOptions(o);
      break;
    case "parquet":
      checkParquetOptions(o);
      break;
    case "orc":
      refuseUnknown(o, ORC_OPTIONS, "orc");
      strings(o, "columns");
      int(o, "skiprows");
      int(o, "num_rows");
      readDtypeHints(o.dtype);
      break;
    case "arrow":
      refuseUnknown(o, ARROW_OPTIONS, "arrow");
      readDtypeHints(o.dtype);
      break;
    case "xls":
    case "xlsx":
      refuseUnknown(o, EXCEL_OPTIONS, fileType);
      readDtypeHints(o.dtype);
      break;
  }
  return o;
}
