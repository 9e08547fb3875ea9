// Entry point of GFQL execution: runs a parsed Chain or Let over node and edge DataFrames.

import type pl from "nodejs-polars";
import type { Binding, ChainOp, GfqlQuery, LetQuery } from "./ast.ts";
import { runChain } from "./chain.ts";
import type { GfqlGraph } from "./graph-frames.ts";
import { letOrder } from "./let-order.ts";

export type { GfqlGraph } from "./graph-frames.ts";

function runBinding(root: GfqlGraph, binding: Binding, env: ReadonlyMap<string, GfqlGraph>, path: string): GfqlGraph {
  const at = (prefix: string) => (i: number) => `${prefix}[${i}]`;
  switch (binding.type) {
    case "Node":
    case "Edge":
      return runChain(root, [binding as ChainOp], () => path);
    case "Chain":
      return runChain(root, binding.chain, at(`${path}.chain`));
    case "Ref": {
      const base = env.get(binding.ref);
      if (base === undefined) throw new Error(`unresolved Ref '${binding.ref}' (parse should have refused it)`);
      return runChain(base, binding.chain, at(`${path}.chain`));
    }
    case "Let":
      return runLet(root, binding, env, path);
  }
}

function runLet(root: GfqlGraph, query: LetQuery, outer: ReadonlyMap<string, GfqlGraph>, path: string): GfqlGraph {
  const env = new Map(outer);
  let last: GfqlGraph = root;
  for (const i of letOrder(query, path, new Set(outer.keys()))) {
    const b = query.bindings[i];
    if (b === undefined) continue;
    last = runBinding(root, b.value, env, `${path === "" ? "" : `${path}.`}bindings.${b.name}`);
    env.set(b.name, last);
  }
  return query.output === undefined ? last : (env.get(query.output) ?? last);
}

/** Runs `query` (from parseGfql) and returns the matched nodes and edges with their original attributes. */
export function executeGfql(graph: GfqlGraph, query: GfqlQuery): { nodes: pl.DataFrame; edges: pl.DataFrame } {
  const result = query.type === "Chain" ? runChain(graph, query.chain, (i) => `chain[${i}]`) : runLet(graph, query, new Map(), "");
  return { nodes: result.nodes, edges: result.edges };
}
