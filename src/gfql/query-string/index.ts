// pandas DataFrame.query strings in GFQL steps (Node `query`; Edge `edge_query`, `source_node_query`,
// `destination_node_query`): parsed when the query is parsed, compiled to a polars filter per table. As
// pygraphistry applies them (ASTNode.execute, hop.py query_if_not_none), a step's query string filters the rows its
// filter dict keeps, so the two are ANDed.

import type pl from "nodejs-polars";
import { queryFilterExpr } from "./compile.ts";
import type { QueryExpr } from "./parse.ts";

export type { QueryExpr } from "./parse.ts";
export { parseQueryString } from "./parse.ts";

/** `expr` (a filter dict's expression, or null for none) ANDed with the query string's filter when there is one. */
export function withQuery(expr: pl.Expr | null, df: pl.DataFrame, query: QueryExpr | undefined, path: string): pl.Expr | null {
  if (query === undefined) return expr;
  const q = queryFilterExpr(df, query, path);
  return expr === null ? q : expr.and(q);
}
