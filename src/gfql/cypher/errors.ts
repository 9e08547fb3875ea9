// Cypher errors: AppError INVALID_INPUT with an [E101] message that ends in the source position.

import { AppError } from "../../errors/app-error.ts";

export type Pos = { line: number; column: number };

export function cypherError(message: string, pos: Pos): AppError {
  return new AppError("INVALID_INPUT", `[E101] ${message} (at ${pos.line}:${pos.column})`, {
    details: { path: "cypher", line: pos.line, column: pos.column },
  });
}

const UNSUPPORTED = new WeakSet<object>();

/** A construct outside the supported subset. */
export function unsupported(what: string, pos: Pos): AppError {
  const e = cypherError(`${what} not supported yet`, pos);
  UNSUPPORTED.add(e);
  return e;
}

/** Whether `e` came from unsupported(): the Chain lowering then hands the query to the per-path row plan. */
export function isUnsupported(e: unknown): boolean {
  return typeof e === "object" && e !== null && UNSUPPORTED.has(e);
}

/** A clause that would write to the graph. */
export function readOnly(clause: string, pos: Pos): AppError {
  return cypherError(`read-only: ${clause} is not allowed`, pos);
}
