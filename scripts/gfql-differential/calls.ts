// Call cases for the GFQL differential (run.ts --focus calls): random graphs (self-loops, multi-edges, isolated
// nodes) and Chains and Lets of pygraphistry's graph Calls — degrees, filters by dict,
// materialize_nodes, prune_self_edges, drop_nodes/keep_nodes, hop with its parameters — mixed with plain steps. The
// degree columns are compared value by value, beside the node and edge ids.

import { smallGraph } from "./graphs.ts";
import { seeded } from "./seeded.ts";

export type CallCase = {
  nodes: Record<string, unknown[]>;
  edges: Record<string, unknown[]>;
  queries: unknown[];
  names: string[];
  /** Node columns compared value by value (where either side has them). */
  columns: string[];
};

export function generateCallCase(seed: number): CallCase {
  const random = seeded(seed, 8);
  const { rnd, int, pick } = random;
  const { nodes, edges, end } = smallGraph(random, "rel");
  const ids = () => Array.from({ length: int(1, 3) }, end);
  const filter = () => pick<Record<string, unknown>>([{}, { type: pick(["person", "company"]) }, { k: { type: "GT", val: int(0, 4) } }]);
  // Inside a Call's params pygraphistry reads a filter dict's values as they come, so a predicate's JSON there is a
  // dict no cell equals (its own ASTCall.to_json does not serialize predicates either): plain values only, which both
  // read alike. We read predicates there too (docs/api.md), which pygraphistry's Python API does.
  const plainFilter = () => pick<Record<string, unknown>>([{}, { type: pick(["person", "company"]) }, { k: int(0, 4) }]);
  const call = (): Record<string, unknown> => {
    const kind = pick(["degrees", "in", "out", "fnodes", "fedges", "materialize", "prune", "drop", "keep", "hop", "hop"]);
    const c = (fn: string, params: Record<string, unknown> = {}) => ({ type: "Call", function: fn, params });
    if (kind === "degrees") return c("get_degrees", rnd() < 0.5 ? {} : { col: "deg", degree_in: "din", degree_out: "dout" });
    if (kind === "in") return c("get_indegrees", rnd() < 0.5 ? {} : { col: "din" });
    if (kind === "out") return c("get_outdegrees", rnd() < 0.5 ? {} : { col: "dout" });
    if (kind === "fnodes") return c("filter_nodes_by_dict", { filter_dict: plainFilter() });
    if (kind === "fedges") return c("filter_edges_by_dict", { filter_dict: { rel: pick(["x", "y"]) } });
    if (kind === "materialize") return c("materialize_nodes");
    if (kind === "prune") return c("prune_self_edges");
    if (kind === "drop") return c("drop_nodes", { nodes: ids() });
    if (kind === "keep") return c("keep_nodes", { nodes: ids() });
    const params: Record<string, unknown> = { direction: pick(["forward", "reverse", "undirected"]) };
    const h = int(0, 3);
    if (h === 0) params.hops = int(1, 2);
    else if (h === 1) params.to_fixed_point = true;
    else if (h === 2) Object.assign(params, { min_hops: 1, max_hops: int(1, 3) });
    if (rnd() < 0.3) params.edge_match = { rel: pick(["x", "y"]) };
    if (rnd() < 0.3) params.source_node_match = plainFilter();
    if (rnd() < 0.3) params.destination_node_match = plainFilter();
    return c("hop", params);
  };
  const queries: unknown[] = [];
  for (let q = 0; q < 30; q++) {
    const form = int(0, 3);
    if (form === 0) queries.push({ type: "Chain", chain: [call()] });
    else if (form === 1) queries.push({ type: "Chain", chain: [call(), call()] });
    else if (form === 2) {
      // a Call on the result of a traversal, in a Let
      const dir = pick(["forward", "reverse", "undirected"]);
      queries.push({
        type: "Let",
        bindings: {
          a: {
            type: "Chain",
            chain: [{ type: "Node", filter_dict: filter() }, { type: "Edge", direction: dir, hops: 1 }, { type: "Node" }],
          },
          b: { type: "Ref", ref: "a", chain: [call()] },
        },
      });
    } else queries.push({ type: "Chain", chain: [call(), { type: "Node", filter_dict: filter() }] });
  }
  return { nodes, edges, queries, names: [], columns: ["degree", "degree_in", "degree_out", "deg", "din", "dout"] };
}
