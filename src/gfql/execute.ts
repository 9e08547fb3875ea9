// Entry point of GFQL execution: runs a parsed Chain, Let or Call over node and edge DataFrames.

import type pl from "nodejs-polars";
import type { Binding, ChainOp, ChainQuery, GfqlQuery, LetQuery } from "./ast.ts";
import { rowsAtMost, startQuery } from "./chain.ts";
import { fastRows, gatherRows, traverses } from "./fast/fast-query.ts";
import type { GfqlGraph } from "./graph-frames.ts";
import { letOrder } from "./let-order.ts";
import { checkRows, maxIntermediateRows } from "./limits.ts";
import { runOps } from "./run-ops.ts";
import type { WhereSpec } from "./same-path.ts";
import { beginRun, runWarnings, type Strictness } from "./strictness.ts";

export type { GfqlGraph } from "./graph-frames.ts";

/**
 * A query's result. After a row pipeline (a chain ending in rows/select/group_by/...), `rows` is true: `nodes` then
 * holds the row table and `edges` is empty. Otherwise `rows` is absent and nodes/edges are the matched subgraph.
 */
export type GfqlResult = { nodes: pl.DataFrame; edges: pl.DataFrame; rows?: true; warnings: string[] };

/** How a run treats filters on absent columns (strictness.ts); "warn" by default, as pygraphistry. */
export type GfqlRunOptions = { strictness?: Strictness };

function whereOf(chain: ChainQuery, path: string): WhereSpec | undefined {
  return chain.where === undefined ? undefined : { clauses: chain.where, path: path === "" ? "where" : `${path}.where` };
}

function runBinding(root: GfqlGraph, binding: Binding, env: ReadonlyMap<string, GfqlGraph>, path: string): GfqlGraph {
  const at = (prefix: string) => (i: number) => `${prefix}[${i}]`;
  switch (binding.type) {
    case "Node":
    case "Edge":
    case "Call":
      return runOps(root, [binding as ChainOp], () => path);
    case "Chain":
      return runOps(root, binding.chain, at(`${path}.chain`), whereOf(binding, path));
    case "Ref": {
      const base = env.get(binding.ref);
      if (base === undefined) throw new Error(`unresolved Ref '${binding.ref}' (parse should have refused it)`);
      return runOps(base, binding.chain, at(`${path}.chain`));
    }
    case "Let":
      return runLet(root, binding, env, path);
  }
}

function runLet(root: GfqlGraph, query: LetQuery, outer: ReadonlyMap<string, GfqlGraph>, path: string): GfqlGraph {
  const env = new Map(outer);
  let last: GfqlGraph = root;
  const kept: GfqlGraph[] = [];
  let held = 0; // rows of the bindings this Let keeps (at most), capped by GFQL_MAX_INTERMEDIATE_ROWS
  for (const i of letOrder(query, path, new Set(outer.keys()))) {
    const b = query.bindings[i];
    if (b === undefined) continue;
    const at = `${path === "" ? "" : `${path}.`}bindings.${b.name}`;
    last = runBinding(root, b.value, env, at);
    kept.push(last);
    held += rowsAtMost(last);
    // a bound over the cap is settled by the exact count (which builds any table not built yet)
    if (held > maxIntermediateRows()) held = kept.reduce((n, g) => n + g.nodes.height + g.edges.height, 0);
    checkRows(held, "the Let bindings", at);
    env.set(b.name, last);
  }
  return query.output === undefined ? last : (env.get(query.output) ?? last);
}

/**
 * Which engine runs a query: `auto` takes the fast path (fast/) for a traversal that fits it when the graph has
 * an adjacency index (built for tables kept between queries); a query of Node steps only is one polars filter,
 * which builds the node table faster than gathering the rows the fast path finds. `index` takes the fast path
 * whenever the query fits it, building the index if need be; `polars` never does. Both give the same answer;
 * tests run both.
 */
export type GfqlEngine = "auto" | "index" | "polars";

/** Runs `query` (from parseGfql) and returns the matched nodes and edges with their original attributes. */
export function executeGfql(graph: GfqlGraph, query: GfqlQuery, engine: GfqlEngine = "auto", options: GfqlRunOptions = {}): GfqlResult {
  beginRun(options.strictness);
  const fast = engine === "index" || (engine === "auto" && traverses(query)) ? fastRows(graph, query, engine === "index") : null;
  if (fast !== null) {
    return { nodes: gatherRows(graph.nodes, fast.nodeRows()), edges: gatherRows(graph.edges, fast.edgeRows()), warnings: runWarnings() };
  }
  startQuery();
  const result =
    query.type === "Chain" ? runOps(graph, query.chain, (i) => `chain[${i}]`, whereOf(query, "")) : runLet(graph, query, new Map(), "");
  const out: GfqlResult = { nodes: result.nodes, edges: result.edges, warnings: runWarnings() };
  if (result.rows === true) out.rows = true;
  return out;
}
