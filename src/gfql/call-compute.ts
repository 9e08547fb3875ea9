// GFQL Calls compute_igraph and compute_cugraph (pygraphistry's names: alg, out_col, params, directed; cugraph's
// kind): the registry's algorithms run synchronously on the current graph; an algorithm answering a graph replaces it.
import { lookupAlgorithm } from "../compute/algorithm-lookup.ts";
import { createComputeContext } from "../compute/backend.ts";
import { configuredBackend } from "../compute/compute-pool.ts";
import { unknownNameHint, withArticle } from "../compute/name-hint.ts";
import { type ParsedEntry, parseEntry } from "../compute/params.ts";
import { runEntries } from "../compute/run-entries.ts";
import { AppError } from "../errors/app-error.ts";
import type { CallSpec } from "./ast.ts";
import { gfqlError, isPlainObject } from "./gfql-error.ts";
import type { GfqlGraph } from "./graph-frames.ts";

export const COMPUTE_CALLS = ["compute_igraph", "compute_cugraph"] as const;
export type ComputeCallName = (typeof COMPUTE_CALLS)[number];

export const COMPUTE_CALL_PARAMS = {
  compute_igraph: { allowed: ["alg", "out_col", "directed", "use_vids", "params", "stringify_rich_types"], required: ["alg"] },
  compute_cugraph: { allowed: ["alg", "out_col", "params", "kind", "directed", "G"], required: ["alg"] },
} as const;

const CUGRAPH_KINDS = ["Graph", "MultiGraph", "BiPartiteGraph"];

const invalid = (fn: string, key: string, want: string, path: string) =>
  gfqlError("E201", `invalid parameter '${key}' for '${fn}': expected ${want}`, `${path}.params.${key}`);

/**
 * A compute service refusal (AppError with details.field, a path inside the Call) as a GFQL error at that path; a
 * parameter the algorithm does not take is an unknown key (E303), as for the Call's own parameters.
 */
export function asGfqlError(error: unknown, fallback: string): unknown {
  if (!(error instanceof AppError) || error.code !== "INVALID_INPUT") return error;
  const field = typeof error.details?.field === "string" && error.details.field.startsWith(fallback) ? error.details.field : fallback;
  return gfqlError(error.details?.unknownParameter ? "E303" : "E201", error.message, field);
}

/** Parses a compute Call's params into a checked registry entry. */
export function parseComputeCall(fn: ComputeCallName, p: Record<string, unknown>, path: string): CallSpec {
  const library = fn === "compute_igraph" ? "igraph" : "cugraph";
  const alg = p.alg;
  if (typeof alg !== "string" || alg === "") throw invalid(fn, "alg", "an algorithm name", path);
  const outCol = p.out_col ?? null;
  if (outCol !== null && (typeof outCol !== "string" || outCol === "")) throw invalid(fn, "out_col", "a column name or null", path);
  if (p.directed !== undefined && p.directed !== null && typeof p.directed !== "boolean")
    throw invalid(fn, "directed", "a boolean or null", path);
  if (p.params !== undefined && p.params !== null && !isPlainObject(p.params)) throw invalid(fn, "params", "an object", path);
  if (fn === "compute_igraph") {
    if (p.use_vids !== undefined && p.use_vids !== false)
      throw gfqlError("unsupported-call", "parameter 'use_vids' of 'compute_igraph' is not supported", `${path}.params.use_vids`);
    if (p.stringify_rich_types !== undefined && typeof p.stringify_rich_types !== "boolean")
      throw invalid(fn, "stringify_rich_types", "a boolean", path);
  } else {
    if (p.kind !== undefined && p.kind !== null && !CUGRAPH_KINDS.includes(p.kind as string))
      throw invalid(fn, "kind", `one of ${CUGRAPH_KINDS.join(", ")}`, path);
    if (p.G !== undefined && p.G !== null)
      throw gfqlError("unsupported-call", "parameter 'G' of 'compute_cugraph' is not supported", `${path}.params.G`);
  }
  const entry = lookupAlgorithm(library, alg);
  if (!entry)
    throw gfqlError(
      "E201",
      `'${alg}' is not ${withArticle(library)} algorithm this server runs${unknownNameHint(library, alg, lookupAlgorithm)}`,
      `${path}.params.alg`,
    );
  // pygraphistry: compute_igraph's directed=None tries directed then undirected; compute_cugraph's default is directed
  const directed = typeof p.directed === "boolean" ? p.directed : !(fn === "compute_igraph" && entry.undirectedOnly);
  const base = `${path}.params`;
  try {
    const parsed = parseEntry(outCol ?? alg, { libraries: [library], alg, params: p.params ?? {}, directed }, base);
    return { fn, entry: parsed };
  } catch (error) {
    throw asGfqlError(error, path);
  }
}

/** Runs a parsed compute Call on the current graph. */
export function runComputeCall(g: GfqlGraph, parsed: ParsedEntry, path: string): GfqlGraph {
  const backend = configuredBackend();
  const tables = {
    nodes: g.nodes,
    edges: g.edges,
    nodeId: g.nodeId,
    source: g.source,
    destination: g.destination,
    edgeWeight: g.edgeWeight,
  };
  try {
    const { tables: out } = runEntries(tables, [parsed], () => createComputeContext({ backend }));
    return { ...g, nodes: out.nodes, edges: out.edges ?? g.edges };
  } catch (error) {
    throw asGfqlError(error, path);
  }
}
