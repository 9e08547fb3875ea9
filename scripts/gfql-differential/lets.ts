// Let cases for the GFQL differential (run.ts --focus let): random graphs (self-loops, multi-edges, isolated nodes)
// and Lets of two to four bindings — node filters, chains with hops, and Refs to earlier bindings (Refs of Refs
// included) that filter, hop or hop again over the referenced graph. The answer is the last binding's graph, as
// pygraphistry's Let answers.

import type { CallCase } from "./calls.ts";
import { smallGraph } from "./graphs.ts";
import { seeded } from "./seeded.ts";

export function generateLetCase(seed: number): CallCase {
  const random = seeded(seed, 8);
  const { rnd, int, pick } = random;
  const { nodes, edges, end } = smallGraph(random, "rel");
  const filter = () =>
    pick<Record<string, unknown>>([
      {},
      { type: pick(["person", "company"]) },
      { k: { type: "GT", val: int(0, 4) } },
      { id: { type: "IsIn", options: [end(), end()] } },
    ]);
  const edge = (): Record<string, unknown> => {
    const step: Record<string, unknown> = { type: "Edge", direction: pick(["forward", "reverse", "undirected"]) };
    const h = int(0, 3);
    if (h === 0) step.hops = int(1, 2);
    else if (h === 1) Object.assign(step, { hops: null, to_fixed_point: true });
    else step.hops = 1;
    if (rnd() < 0.3) step.edge_match = { rel: pick(["x", "y"]) };
    return step;
  };
  const chain = (): unknown[] => {
    const form = int(0, 3);
    if (form === 0) return [{ type: "Node", filter_dict: filter() }];
    if (form === 1) return [{ type: "Node", filter_dict: filter() }, edge(), { type: "Node", filter_dict: filter() }];
    if (form === 2) return [edge(), { type: "Node", filter_dict: filter() }];
    return [{ type: "Node", filter_dict: filter() }, edge(), { type: "Node" }, edge(), { type: "Node", filter_dict: filter() }];
  };
  const queries: unknown[] = [];
  for (let q = 0; q < 30; q++) {
    const names = ["a", "b", "c", "d"].slice(0, int(2, 4));
    const bindings: Record<string, unknown> = {};
    names.forEach((name, i) => {
      // the first binding reads the whole graph; a later one a Ref to an earlier binding, or the graph again
      if (i === 0 || rnd() < 0.2) {
        const steps = chain();
        bindings[name] = steps.length === 1 ? steps[0] : { type: "Chain", chain: steps };
      } else bindings[name] = { type: "Ref", ref: names[int(0, i - 1)], chain: chain() };
    });
    queries.push({ type: "Let", bindings });
  }
  return { nodes, edges, queries, names: [], columns: [] };
}
