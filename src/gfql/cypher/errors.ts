// Cypher errors: AppError INVALID_INPUT with an [E101] message that ends in the source position.

import { AppError } from "../../errors/app-error.ts";

export type Pos = { line: number; column: number };

export function cypherError(message: string, pos: Pos): AppError {
  return new AppError("INVALID_INPUT", `[E101] ${message} (at ${pos.line}:${pos.column})`, {
    details: { path: "cypher", line: pos.line, column: pos.column },
  });
}

/** A construct outside the supported subset. */
export function unsupported(what: string, pos: Pos): AppError {
  return cypherError(`${what} not supported yet`, pos);
}

/** A clause that would write to the graph. */
export function readOnly(clause: string, pos: Pos): AppError {
  return cypherError(`read-only: ${clause} is not allowed`, pos);
}
