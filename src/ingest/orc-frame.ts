// Adapts the ORC reader (Arrow JS tables) to the polars frames the rest of ingest works on.
import { readFile } from "node:fs/promises";
import { tableToIPC } from "apache-arrow";
import pl from "nodejs-polars";
import { applyDtypeHints, readDtypeHints } from "./dtype-hints.ts";
import { int, type Options, refuseUnknown, strings } from "./option-readers.ts";

export const ORC_OPTIONS = ["columns", "skiprows", "num_rows", "dtype"] as const;

export async function readOrcFrame(file: string, options: Options): Promise<pl.DataFrame> {
  refuseUnknown(options, ORC_OPTIONS, "orc");
  const columns = strings(options, "columns");
  const skipRows = int(options, "skiprows");
  const numRows = int(options, "num_rows");
  // Loaded on first use: most deployments never see an ORC file.
  const { readOrc } = await import("./orc/index.ts");
  const table = readOrc(await readFile(file), {
    ...(columns ? { columns } : {}),
    ...(skipRows !== undefined ? { skipRows } : {}),
    ...(numRows !== undefined ? { numRows } : {}),
  });
  const frame = pl.readIPC(Buffer.from(tableToIPC(table, "file")));
  return applyDtypeHints(frame, readDtypeHints(options.dtype));
}
