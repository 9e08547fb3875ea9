// Integers beyond 2^53 in GFQL answers: rows carry them as bigint from the worker (run-query.ts reads 64-bit
// columns exactly), and here, on the main thread, each becomes a raw JSON number (JSON.rawJSON), so every
// JSON.stringify downstream (GraphQL responses, the REST route, /mcp text) writes all its digits.

type RawJson = (text: string) => unknown;
const rawJSON = (JSON as unknown as { rawJSON?: RawJson }).rawJSON;

/** A value as exact JSON: a bigint becomes a raw JSON number; anything else is as it was. */
function exact(value: unknown): unknown {
  if (typeof value !== "bigint") return value;
  // rawJSON exists from Node 21 on; without it the digits are kept as text rather than rounded
  return rawJSON ? rawJSON(value.toString()) : value.toString();
}

/** Rows with their bigint values made raw JSON numbers (a row without one is returned as it was). */
export function exactRows(rows: Record<string, unknown>[] | undefined): Record<string, unknown>[] | undefined {
  if (rows === undefined) return undefined;
  return rows.map((row) => {
    let out: Record<string, unknown> | undefined;
    for (const [key, value] of Object.entries(row)) {
      if (typeof value !== "bigint") continue;
      out ??= { ...row };
      out[key] = exact(value);
    }
    return out ?? row;
  });
}

/** Whether any row holds a bigint. */
export const hasBigInt = (rows: Record<string, unknown>[] | undefined): boolean =>
  rows?.some((row) => Object.values(row).some((v) => typeof v === "bigint")) ?? false;
