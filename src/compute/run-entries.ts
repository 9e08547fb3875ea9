// Runs checked compute entries one after another on a graph's frames (synchronously: in a worker thread, or inside
// the GFQL worker): the graph of each, its parameters resolved, the algorithm, its output applied.
import { applyOutput } from "./apply-output.ts";
import { computeGraphOf, type GraphTables } from "./graph-from-tables.ts";
import { invalidField, type ParsedEntry, resolveParams } from "./params.ts";
import { type ComputeContext, ComputeInputError } from "./types.ts";

/** What one entry did, for answers and logs. */
export type EntrySummary = { label: string; library: string; alg: string; output: "nodes" | "edges" | "graph"; columns: string[] };

/** The 400 a ComputeInputError becomes: the field it names under the entry, or the entry itself. */
export function inputErrorField(parsed: ParsedEntry, error: ComputeInputError): string {
  const { field } = error;
  if (!field) return parsed.field;
  if (field === "directed" || field.startsWith("params.")) return `${parsed.field}.${field}`;
  return `${parsed.field}.params.${field}`;
}

/** Runs `entries` in order (each sees the tables the previous ones left); `contextFor` makes each entry's context. */
export function runEntries(
  start: GraphTables,
  entries: readonly ParsedEntry[],
  contextFor: (parsed: ParsedEntry, index: number) => ComputeContext,
): { tables: GraphTables; summaries: EntrySummary[] } {
  let tables = start;
  const summaries: EntrySummary[] = [];
  for (const [index, parsed] of entries.entries()) {
    const graph = computeGraphOf(tables, parsed.directed);
    const params = resolveParams(parsed, tables);
    const ctx = contextFor(parsed, index);
    ctx.checkCancelled();
    let output: ReturnType<typeof parsed.entry.run>;
    try {
      output = parsed.entry.run(graph, params, ctx, parsed.label);
    } catch (error) {
      if (error instanceof ComputeInputError) throw invalidField(`${parsed.field}: ${error.message}`, inputErrorField(parsed, error));
      throw error;
    }
    tables = applyOutput(tables, output, graph, parsed.field);
    const columns =
      output.kind === "graph"
        ? [...(output.edgeColumns ?? []), ...(output.newEdges?.columns ?? [])].map((c) => c.name)
        : output.columns.map((c) => c.name);
    summaries.push({ label: parsed.label, library: parsed.entry.library, alg: parsed.entry.name, output: output.kind, columns });
  }
  return { tables, summaries };
}
