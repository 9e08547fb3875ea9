// Runs a query with both engines (the polars path, and the fast path over an adjacency index, which falls back to
// polars for what it does not take) and checks they agree: same rows in the same order, or the same error.
import { expect } from "vitest";
import type { GfqlQuery } from "../../src/gfql/ast.ts";
import { executeGfql, type GfqlGraph, type GfqlResult, type GfqlRunOptions } from "../../src/gfql/execute.ts";

type Outcome = { result: GfqlResult } | { error: unknown };

function attempt(graph: GfqlGraph, query: GfqlQuery, engine: "polars" | "index", options: GfqlRunOptions): Outcome {
  try {
    return { result: executeGfql(graph, query, engine, options) };
  } catch (error) {
    return { error };
  }
}

const plain = (value: unknown) => JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? `${v}n` : v));

/** The polars path's result (or error), after checking that the fast path gives the same. */
export function executeBoth(graph: GfqlGraph, query: GfqlQuery, options: GfqlRunOptions = {}): GfqlResult {
  const slow = attempt(graph, query, "polars", options);
  const fast = attempt(graph, query, "index", options);
  if ("error" in slow || "error" in fast) {
    const message = (o: Outcome) => ("error" in o ? String((o.error as Error).message) : "no error");
    expect(message(fast), "fast path error").toBe(message(slow));
    throw "error" in slow ? slow.error : (fast as { error: unknown }).error;
  }
  for (const axis of ["nodes", "edges"] as const) {
    expect(fast.result[axis].columns, `fast path ${axis} columns`).toEqual(slow.result[axis].columns);
    expect(plain(fast.result[axis].toRecords()), `fast path ${axis}`).toBe(plain(slow.result[axis].toRecords()));
  }
  expect(fast.result.rows, "fast path rows flag").toBe(slow.result.rows);
  expect(fast.result.warnings, "fast path warnings").toEqual(slow.result.warnings);
  return slow.result;
}
