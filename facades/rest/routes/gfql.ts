// pygraphistry's remote GFQL route: a query on a dataset, answered in JSON.
import { RestError } from "../errors.ts";
import { GFQL } from "../operations.ts";
import type { RestRoute, RouteInput } from "../route-types.ts";

/** Rows returned per table over REST: the counts always say how many matched. */
const ROW_LIMIT = 10_000;

function queryOf({ body }: RouteInput): unknown {
  if (body.gfql_query !== undefined && body.gfql_query !== null) return body.gfql_query;
  if (Array.isArray(body.gfql_operations) && body.gfql_operations.length > 0) return body.gfql_operations;
  throw new RestError("INVALID_INPUT", "send gfql_query (a Chain or Let) or gfql_operations (a list of operations)", {
    field: "gfql_operations",
  });
}

function outputOf({ params, body }: RouteInput): string {
  if (body.format !== undefined && body.format !== "json") {
    throw new RestError("INVALID_INPUT", `format "${String(body.format)}" is not supported yet; use json`, { field: "format" });
  }
  for (const field of ["node_col_subset", "edge_col_subset", "persist"]) {
    if (body[field] !== undefined && body[field] !== null && body[field] !== false) {
      throw new RestError("INVALID_INPUT", `${field} is not supported yet`, { field });
    }
  }
  return params.output ?? "";
}

export const GFQL_ROUTES: readonly RestRoute[] = [
  {
    path: "/api/v2/etl/datasets/:id/gfql/:output{all|nodes|edges|shape}",
    methods: ["POST"],
    body: { schema: "gfql-remote-body", required: true },
    document: GFQL,
    variables: (input) => ({ datasetId: input.params.id, query: queryOf(input), output: outputOf(input), limit: ROW_LIMIT }),
    shape: (data, { params }) => {
      const r = data.gfql as { nodeCount: number; edgeCount: number; nodes: unknown[] | null; edges: unknown[] | null };
      if (params.output === "shape") return { body: { nodes: r.nodeCount, edges: r.edgeCount } };
      return {
        body: {
          ...(r.nodes ? { nodes: r.nodes } : {}),
          ...(r.edges ? { edges: r.edges } : {}),
          metadata: { node_count: r.nodeCount, edge_count: r.edgeCount, truncated: r.nodeCount > ROW_LIMIT || r.edgeCount > ROW_LIMIT },
        },
      };
    },
  },
];
