// Brings polars frames into types every consumer handles: 128-bit integers become 64-bit when they fit.
import pl from "nodejs-polars";
import { carryPandasDtypes } from "./dtype-names.ts";

/** The polars type name of a column, or the name in the error when nodejs-polars cannot describe it. */
export function variantOf(frame: pl.DataFrame, column: string): string {
  try {
    return frame.getColumn(column).dtype.variant;
  } catch (error) {
    return /DataType (\w+)/.exec((error as Error).message)?.[1] ?? "Unknown";
  }
}

/**
 * polars reads integers beyond int64 (such as unsigned 64-bit ids) as Int128, which neither Arrow
 * readers nor pandas know. pandas reads them as uint64, or as float64 when signs are mixed: so do we.
 */
export function normalizeFrame(frame: pl.DataFrame): pl.DataFrame {
  let out = frame;
  for (const column of frame.columns) {
    const variant = variantOf(frame, column);
    if (variant !== "Int128" && variant !== "UInt128") continue;
    for (const type of [pl.UInt64, pl.Int64, pl.Float64]) {
      try {
        out = out.withColumns(pl.col(column).cast(type, true).alias(column));
        break;
      } catch {
        // does not fit: try the next, wider-range type
      }
    }
  }
  return out === frame ? out : carryPandasDtypes(frame, out);
}
