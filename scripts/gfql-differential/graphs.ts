// The small random graphs the Call, Let and where focuses share: 3-10 nodes (a type and a number k), 1-16 edges
// (self-loops and parallel edges as they fall) with a text column `rel` or a number column `w`.

import type { Seeded } from "./seeded.ts";

export type SmallGraph = {
  nodes: { id: string[]; type: string[]; k: number[] };
  edges: Record<string, unknown[]> & { eid: string[]; s: string[]; d: string[] };
  /** A random node id. */
  end: () => string;
};

export function smallGraph({ int, pick }: Seeded, edgeColumn: "rel" | "w"): SmallGraph {
  const n = int(3, 10);
  const nodes = { id: [] as string[], type: [] as string[], k: [] as number[] };
  for (let i = 0; i < n; i++) {
    nodes.id.push(`n${i}`);
    nodes.type.push(pick(["person", "company"]));
    nodes.k.push(int(0, 5));
  }
  const m = int(1, 16);
  const values: unknown[] = [];
  const edges = { eid: [] as string[], s: [] as string[], d: [] as string[], [edgeColumn]: values };
  // Every endpoint has a node row, as in a dataset (whose creation adds the missing ones as nodes).
  const end = () => `n${int(0, n - 1)}`;
  for (let j = 0; j < m; j++) {
    edges.eid.push(`e${j}`);
    edges.s.push(end());
    edges.d.push(end());
    values.push(edgeColumn === "rel" ? pick(["x", "y"]) : int(0, 4));
  }
  return { nodes, edges, end };
}
