// Builds the INVALID_INPUT AppErrors GFQL raises, with a pygraphistry-style code and the query path.

import { AppError } from "../errors/app-error.ts";

/** `extra` adds details (a query string's error gives its `position`, the 1-based column in the string). */
export function gfqlError(code: string, message: string, path: string, extra: Record<string, unknown> = {}): AppError {
  const where = path === "" ? "" : ` (at ${path})`;
  return new AppError("INVALID_INPUT", `[${code}] ${message}${where}`, { details: { ...extra, path, gfqlCode: code } });
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Refuses keys outside the allowed set, naming the first unknown one. */
export function checkKeys(obj: Record<string, unknown>, allowed: readonly string[], path: string): void {
  for (const key of Object.keys(obj)) {
    if (!allowed.includes(key)) throw gfqlError("E102", `unknown key '${key}'`, path);
  }
}

/** Appends a key to a query path ("" is the root). */
export function sub(path: string, key: string): string {
  return path === "" ? key : `${path}.${key}`;
}
