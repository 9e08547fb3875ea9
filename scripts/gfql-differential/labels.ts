// Hop-label cases for the GFQL differential (run.ts --focus labels): Node-Edge-Node chains whose Edge step labels
// nodes and edges with the hop that reached them (label_node_hops, label_edge_hops, label_seeds) and slices its output
// by hop (output_min_hops, output_max_hops), in every direction and hop range; the label columns (named with "hop":
// pygraphistry drops the others from a chain's answer) are compared value
// by value on both tables.

import { seeded } from "./seeded.ts";

export type LabelCase = {
  nodes: Record<string, unknown[]>;
  edges: Record<string, unknown[]>;
  queries: unknown[];
  names: string[];
  columns: string[];
  edgeColumns: string[];
};

export function generateLabelCase(seed: number): LabelCase {
  const { rnd, int, pick } = seeded(seed, 8);
  const n = int(3, 10);
  const nodes = { id: [] as string[], k: [] as number[] };
  for (let i = 0; i < n; i++) {
    nodes.id.push(`n${i}`);
    nodes.k.push(int(0, 5));
  }
  const m = int(1, 16);
  const edges = { eid: [] as string[], s: [] as string[], d: [] as string[] };
  for (let j = 0; j < m; j++) {
    edges.eid.push(`e${j}`);
    edges.s.push(`n${int(0, n - 1)}`);
    edges.d.push(`n${int(0, n - 1)}`);
  }
  const queries: unknown[] = [];
  for (let q = 0; q < 30; q++) {
    const edge: Record<string, unknown> = { type: "Edge", direction: pick(["forward", "reverse", "undirected"]) };
    const range = int(0, 3);
    if (range === 0) edge.hops = int(1, 3);
    else if (range === 1) Object.assign(edge, { hops: null, min_hops: int(1, 2), max_hops: int(2, 4) });
    else if (range === 2) Object.assign(edge, { hops: null, to_fixed_point: true });
    else edge.hops = 1;
    if (rnd() < 0.7) edge.label_node_hops = "node_hop";
    if (rnd() < 0.7) edge.label_edge_hops = "edge_hop";
    if (rnd() < 0.4) edge.label_seeds = true;
    if (rnd() < 0.3) edge.output_min_hops = int(1, 2);
    if (rnd() < 0.3) edge.output_max_hops = int(1, 3);
    const start = { type: "Node", filter_dict: rnd() < 0.5 ? { k: { type: "LE", val: int(0, 3) } } : { id: `n${int(0, n - 1)}` } };
    queries.push({ type: "Chain", chain: [start, edge, { type: "Node" }] });
  }
  return { nodes, edges, queries, names: [], columns: ["node_hop"], edgeColumns: ["edge_hop"] };
}
