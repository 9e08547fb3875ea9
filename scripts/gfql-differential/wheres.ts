// Same-path `where` cases for the GFQL differential (run.ts --focus where): random graphs with a number and a
// text column on the nodes and a number on the edges, and chains of named steps (one or two hops, every
// direction) whose `where` compares columns of two named steps (eq, neq, gt, lt, ge, le), one or two clauses,
// the earlier step on the left (earlierFirst).

import type { CallCase } from "./calls.ts";
import { smallGraph } from "./graphs.ts";
import { seeded } from "./seeded.ts";

const POSITION: Record<string, number> = { a: 0, r: 1, b: 2, s: 3, c: 4 };
const FLIPPED: Record<string, string> = { eq: "eq", neq: "neq", gt: "lt", lt: "gt", ge: "le", le: "ge" };

/**
 * The clause with its earlier step on the left (the same comparison): pygraphistry (snapshot f6edc14) answers
 * nothing for a clause whose left side is the later step (`b.k > a.k` is empty where `a.k < b.k` is not), which
 * we do not copy; this focus compares the rest.
 */
function earlierFirst(clause: Record<string, { left: string; right: string }>): Record<string, { left: string; right: string }> {
  const [op, { left, right }] = Object.entries(clause)[0] as [string, { left: string; right: string }];
  const at = (ref: string) => POSITION[ref.split(".")[0] as string] as number;
  return at(left) <= at(right) ? clause : { [FLIPPED[op] as string]: { left: right, right: left } };
}

export function generateWhereCase(seed: number): CallCase {
  const random = seeded(seed, 8);
  const { rnd, int, pick } = random;
  const { nodes, edges, end } = smallGraph(random, "w");
  const filter = () =>
    pick<Record<string, unknown>>([{}, {}, { type: pick(["person", "company"]) }, { k: { type: "GT", val: int(0, 3) } }]);
  const edge = (name: string): Record<string, unknown> => {
    const step: Record<string, unknown> = { type: "Edge", direction: pick(["forward", "reverse", "undirected"]), hops: 1, name };
    if (rnd() < 0.2) step.edge_match = { w: { type: "GT", val: int(0, 2) } };
    return step;
  };
  const op = () => pick(["eq", "neq", "gt", "lt", "ge", "le"]);
  const queries: unknown[] = [];
  for (let q = 0; q < 30; q++) {
    const two = rnd() < 0.4;
    const chain: unknown[] = [
      { type: "Node", name: "a", filter_dict: filter() },
      edge("r"),
      { type: "Node", name: "b", filter_dict: filter() },
    ];
    if (two) chain.push(edge("s"), { type: "Node", name: "c", filter_dict: filter() });
    const nodeNames = two ? ["a", "b", "c"] : ["a", "b"];
    const clause = () => {
      const kind = int(0, 3);
      if (kind === 3) {
        // an edge's number against another edge's, or against a node's number
        const left = two && rnd() < 0.5 ? "s.w" : "r.w";
        return { [op()]: { left, right: rnd() < 0.5 ? `${pick(nodeNames)}.k` : "r.w" } };
      }
      const [x, y] = [pick(nodeNames), pick(nodeNames)];
      const column = kind === 2 ? "type" : "k";
      return { [kind === 2 ? pick(["eq", "neq"]) : op()]: { left: `${x}.${column}`, right: `${y}.${column}` } };
    };
    queries.push({ type: "Chain", chain, where: Array.from({ length: int(1, 2) }, () => earlierFirst(clause())) });
  }
  return { nodes, edges, queries, names: [], columns: [] };
}
