// pygraphistry's remote GFQL route: a query on a dataset, answered as pygraphistry's chain_remote reads it: JSON
// (all: {nodes, edges, metadata}; nodes or edges: the rows; shape: one row per axis), or parquet / csv files
// (all: a zip of nodes.<ext>, edges.<ext> and metadata.json). pygraphistry asks for parquet unless told otherwise;
// node_col_subset / edge_col_subset keep only those columns; gfql_output picks the binding a Let answers.
import { zipSync } from "fflate";
import { RestError } from "../errors.ts";
import { GFQL } from "../operations.ts";
import type { RestRoute, RouteInput, Shaped } from "../route-types.ts";

const CONTENT_TYPES = { parquet: "application/vnd.apache.parquet", csv: "text/csv; charset=utf-8" } as const;

type Answer = {
  nodeCount: number;
  edgeCount: number;
  warnings: string[];
  nodes: Record<string, unknown>[] | null;
  edges: Record<string, unknown>[] | null;
  nodesFile: string | null;
  edgesFile: string | null;
  shapeFile: string | null;
};

function queryOf({ body }: RouteInput): unknown {
  return withOutput(givenQuery(body), body.gfql_output);
}

/**
 * pygraphistry's `gfql_remote(let, output="name")` sends `gfql_output` beside the query (a Let's JSON carries no
 * output): the Let answers that binding. Its client refuses output= for anything but a Let; so do we.
 */
function withOutput(query: unknown, output: unknown): unknown {
  if (output === undefined || output === null) return query;
  if (typeof output !== "string" || output === "")
    throw new RestError("INVALID_INPUT", "gfql_output must name a binding of the Let to answer", { field: "gfql_output" });
  if (typeof query === "string" && /^\s*\{/.test(query)) {
    try {
      query = JSON.parse(query); // GFQL JSON as text
    } catch {
      // not JSON, so not a Let: refused below
    }
  }
  const isLet =
    typeof query === "object" &&
    query !== null &&
    !Array.isArray(query) &&
    ["Let", "QueryDAG"].includes(String((query as { type?: unknown }).type));
  if (!isLet)
    throw new RestError("INVALID_INPUT", "gfql_output names a binding to answer and needs a Let (gfql_query with type Let)", {
      field: "gfql_output",
    });
  return { ...(query as Record<string, unknown>), output };
}

function givenQuery(body: RouteInput["body"]): unknown {
  // an object is a Chain or Let; text is one read-only Cypher query (or GFQL JSON as text), as on GraphQL and /mcp
  if (body.gfql_query !== undefined && body.gfql_query !== null) return body.gfql_query;
  // an empty list is the whole graph, as pygraphistry's chain([]) (and what its client says an older server does)
  if (Array.isArray(body.gfql_operations)) return body.gfql_operations;
  throw new RestError(
    "INVALID_INPUT",
    "send gfql_query (a Chain or Let, or one Cypher query as text) or gfql_operations (a list of operations)",
    {
      field: "gfql_operations",
    },
  );
}

function formatOf({ body }: RouteInput): "json" | "parquet" | "csv" {
  const format = body.format ?? "json";
  if (format !== "json" && format !== "parquet" && format !== "csv") {
    throw new RestError("INVALID_INPUT", `format "${String(format)}" is not supported; use json, parquet or csv`, { field: "format" });
  }
  return format;
}

/** pygraphistry's `strictness` (strict, warn or quiet; a bool as strict/quiet); an absent one or "default" is warn. */
function strictnessOf({ body }: RouteInput): "strict" | "warn" | "quiet" {
  const value = body.strictness;
  if (value === undefined || value === null || value === "default") return "warn";
  if (value === true) return "strict";
  if (value === false) return "quiet";
  if (value === "strict" || value === "warn" || value === "quiet") return value;
  throw new RestError("INVALID_INPUT", `strictness must be strict, warn or quiet, not ${JSON.stringify(value)}`, { field: "strictness" });
}

/**
 * The answer's metadata: true counts, whether rows were cut (at most GFQL_MAX_ROWS per table are sent), and the
 * run's warnings (absent columns) when any.
 */
const metadataOf = (answer: Answer, maxRows: number) => ({
  node_count: answer.nodeCount,
  edge_count: answer.edgeCount,
  truncated: answer.nodeCount > maxRows || answer.edgeCount > maxRows,
  ...(answer.warnings.length > 0 ? { warnings: answer.warnings } : {}),
});

function outputOf({ params, body }: RouteInput): string {
  if (body.persist !== undefined && body.persist !== null && body.persist !== false) {
    throw new RestError("INVALID_INPUT", "persist is not supported yet", { field: "persist" });
  }
  return params.output ?? "";
}

const bytesOf = (file: string | null) => new Uint8Array(Buffer.from(file ?? "", "base64"));

function asFiles(answer: Answer, output: string, format: "parquet" | "csv", datasetId: string, maxRows: number): Shaped {
  const headers = { "content-type": CONTENT_TYPES[format] };
  if (output === "shape") return { bytes: bytesOf(answer.shapeFile), headers };
  if (output === "nodes") return { bytes: bytesOf(answer.nodesFile), headers };
  if (output === "edges") return { bytes: bytesOf(answer.edgesFile), headers };
  const metadata = { dataset_id: datasetId, ...metadataOf(answer, maxRows) };
  const zip = zipSync({
    [`nodes.${format}`]: bytesOf(answer.nodesFile),
    [`edges.${format}`]: bytesOf(answer.edgesFile),
    "metadata.json": new TextEncoder().encode(JSON.stringify(metadata)),
  });
  return { bytes: zip, headers: { "content-type": "application/zip" } };
}

function asJson(answer: Answer, output: string, maxRows: number): Shaped {
  // pandas.DataFrame(answer) is what the client builds: rows for one axis, one row per axis for the shape.
  if (output === "shape")
    return {
      body: [
        { kind: "nodes", rows: answer.nodeCount },
        { kind: "edges", rows: answer.edgeCount },
      ],
    };
  if (output === "nodes") return { body: answer.nodes ?? [] };
  if (output === "edges") return { body: answer.edges ?? [] };
  return {
    body: {
      nodes: answer.nodes ?? [],
      edges: answer.edges ?? [],
      metadata: metadataOf(answer, maxRows),
    },
  };
}

export const GFQL_ROUTES: readonly RestRoute[] = [
  {
    path: "/api/v2/etl/datasets/:id/gfql/:output{all|nodes|edges|shape}",
    methods: ["POST"],
    body: { schema: "gfql-remote-body", required: true },
    document: GFQL,
    variables: (input) => {
      const format = formatOf(input);
      return {
        datasetId: input.params.id,
        query: queryOf(input),
        output: outputOf(input),
        limit: input.gfqlMaxRows,
        fileFormat: format === "json" ? null : format,
        nodeColumns: input.body.node_col_subset ?? null,
        edgeColumns: input.body.edge_col_subset ?? null,
        strictness: strictnessOf(input),
      };
    },
    shape: (data, input) => {
      const answer = data.gfql as Answer;
      const output = input.params.output ?? "all";
      const format = formatOf(input);
      return format === "json"
        ? asJson(answer, output, input.gfqlMaxRows)
        : asFiles(answer, output, format, input.params.id ?? "", input.gfqlMaxRows);
    },
  },
];
