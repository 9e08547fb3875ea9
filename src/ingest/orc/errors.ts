// Builds the AppError every ORC parse failure is reported with (code PARSE_FAILED, details.format "orc").
import { AppError } from "../../errors/app-error.ts";

export type OrcErrorDetails = { byteOffset?: number; column?: string; [key: string]: unknown };

export function orcError(message: string, details: OrcErrorDetails = {}, cause?: unknown): AppError {
  const clean: Record<string, unknown> = { format: "orc" };
  for (const [key, value] of Object.entries(details)) if (value !== undefined) clean[key] = value;
  return new AppError("PARSE_FAILED", `ORC: ${message}`, cause === undefined ? { details: clean } : { details: clean, cause });
}

/** Where a failure happened, for error details: the file offset of the thing being read and the column path. */
export type OrcContext = { byteOffset?: number; column?: string; stream?: string };
