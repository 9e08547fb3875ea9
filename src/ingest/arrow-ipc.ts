// Reads Arrow IPC, file format (ARROW1, Feather v2) or stream format, compressed buffers included.
import { readFile } from "node:fs/promises";
import pl from "nodejs-polars";
import { AppError } from "../errors/app-error.ts";
import { applyDtypeHints, readDtypeHints } from "./dtype-hints.ts";
import { type Options, refuseUnknown } from "./option-readers.ts";
import type { Sniffed } from "./sniff.ts";

export const ARROW_OPTIONS = ["dtype"] as const;

export async function readArrow(file: string, options: Options, kind: Sniffed): Promise<pl.DataFrame> {
  refuseUnknown(options, ARROW_OPTIONS, "arrow");
  if (kind !== "arrow-file" && kind !== "arrow-stream") {
    throw new AppError("PARSE_FAILED", "not Arrow IPC data: expected the ARROW1 file magic or a stream's 0xFFFFFFFF continuation marker", {
      details: { format: "arrow", byteOffset: 0 },
    });
  }
  try {
    // The file format can be scanned from disk; the stream format must be read from memory.
    const frame = kind === "arrow-file" ? pl.scanIPC(file).collectSync() : pl.readIPCStream(await readFile(file));
    return applyDtypeHints(frame, readDtypeHints(options.dtype));
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError("PARSE_FAILED", `Arrow IPC could not be read: ${(error as Error).message.split("\n")[0]}`, {
      details: { format: "arrow" },
    });
  }
}
