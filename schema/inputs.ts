// Helpers shared by resolvers for their arguments: paging bounds, and GraphQL nulls made undefined.
import { AppError } from "../src/errors/app-error.ts";

export function pageArgs(limit: number | null | undefined, offset: number | null | undefined) {
  const l = limit ?? 50;
  const o = offset ?? 0;
  if (!Number.isInteger(l) || l < 1 || l > 1000)
    throw new AppError("INVALID_INPUT", "limit must be between 1 and 1000", { details: { field: "limit" } });
  if (!Number.isInteger(o) || o < 0) throw new AppError("INVALID_INPUT", "offset must be >= 0", { details: { field: "offset" } });
  return { limit: l, offset: o };
}

/** GraphQL gives null for absent optional inputs; services take undefined. */
export function defined<T extends Record<string, unknown>>(input: T): { [K in keyof T]: Exclude<T[K], null> } {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== null && v !== undefined)) as never;
}
