// Small hand-built graphs and result readers shared by the GFQL tests.

import pl from "nodejs-polars";
import type { GfqlGraph, GfqlRunOptions } from "../../src/gfql/execute.ts";
import { parseGfql } from "../../src/gfql/parse.ts";
import { executeBoth } from "./engines.ts";

/**
 * People and companies:
 *   e0 a->b rel=x   e1 b->c rel=y   e2 c->d rel=x   e3 a->c rel=y   e4 e->a rel=x     (f is isolated)
 */
export function sampleGraph(): GfqlGraph {
  return {
    nodes: pl.DataFrame({
      id: ["a", "b", "c", "d", "e", "f"],
      type: ["person", "person", "company", "person", "bot", "person"],
      age: [30, 20, null, 50, 10, 40],
      nick: ["Al", "bob", null, "Dee", "e-1", "Fay"],
    }),
    edges: pl.DataFrame({
      eid: ["e0", "e1", "e2", "e3", "e4"],
      s: ["a", "b", "c", "a", "e"],
      d: ["b", "c", "d", "c", "a"],
      rel: ["x", "y", "x", "y", "x"],
      w: [1, 2, 3, 4, 5],
    }),
    nodeId: "id",
    source: "s",
    destination: "d",
  };
}

/** Runs a JSON query and returns the sorted node ids and edge ids. */
export function run(query: unknown, graph: GfqlGraph = sampleGraph(), options: GfqlRunOptions = {}): { nodes: string[]; edges: string[] } {
  const out = executeBoth(graph, parseGfql(query), options);
  const nodes = (out.nodes.getColumn(graph.nodeId).toArray() as string[]).slice().sort();
  const edges = out.edges.columns.includes("eid") ? (out.edges.getColumn("eid").toArray() as string[]).slice().sort() : [];
  return { nodes, edges };
}

/** Node ids matched by a single Node step with this filter_dict. */
export function nodesWhere(filter: unknown, graph: GfqlGraph = sampleGraph(), options: GfqlRunOptions = {}): string[] {
  return run([{ type: "Node", filter_dict: filter }], graph, options).nodes;
}

export function errorOf(fn: () => unknown): { code: string; message: string; path: unknown } {
  try {
    fn();
  } catch (err) {
    const e = err as { code: string; message: string; details?: { path?: unknown } };
    return { code: e.code, message: e.message, path: e.details?.path };
  }
  throw new Error("expected an error");
}
