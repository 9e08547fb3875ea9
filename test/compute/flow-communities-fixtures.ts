// Graphs and reference calls shared by the flow-community suites (walktrap, edge betweenness, infomap, spinglass).
import { computeGraph } from "../../kernels/cpu/csr.ts";
import { findAlgorithm } from "../../src/compute/registry.ts";
import { cpuContext } from "../../src/compute/types.ts";
import { answerValue, runReference } from "../helpers/graph-reference.ts";
import { seeded } from "../helpers/seeded.ts";

export type Case = { n: number; edges: [number, number][]; directed?: boolean; weight?: number[] };

/** k planted groups of `size` nodes: inside pairs linked with probability pin, across with pout. */
export function planted(seed: number, k: number, size: number, pin: number, pout: number, weighted = false): Case {
  const r = seeded(seed);
  const n = k * size;
  const edges: [number, number][] = [];
  const weight: number[] = [];
  for (let a = 0; a < n; a++) {
    for (let b = a + 1; b < n; b++) {
      const same = Math.floor(a / size) === Math.floor(b / size);
      if (r.next() < (same ? pin : pout)) {
        edges.push(r.next() < 0.5 ? [a, b] : [b, a]);
        weight.push(weighted ? r.int(1, 9) / 2 : 1);
      }
    }
  }
  return weighted ? { n, edges, weight } : { n, edges };
}

/** Zachary's karate club, as igraph lists its edges. */
export async function karate(): Promise<Case> {
  const [answers] = await runReference([{ n: 1, edges: [], calls: ["[list(e.tuple) for e in ig.Graph.Famous('Zachary').es]"] }]);
  const edges = answerValue<[number, number][]>(answers?.[0]);
  return { n: 34, edges };
}

/** Our membership from the registered igraph algorithm `alg` (the graph undirected unless the case says). */
export function membershipOf(alg: string, c: Case, params: Record<string, unknown>): Int32Array {
  const entry = findAlgorithm("igraph", alg);
  if (!entry) throw new Error(`${alg} is not registered`);
  const graph = computeGraph(c.n, c.edges, { directed: c.directed ?? false });
  const out = entry.run(graph, params, cpuContext, "community");
  if (out.kind !== "nodes") throw new Error("expected node columns");
  return out.columns[0]?.values as Int32Array;
}

/** igraph's membership from `call` (a clustering expression over g), or its refusal. */
export async function theirMembership(c: Case, call: string): Promise<{ ok: boolean; membership?: number[]; error?: string }> {
  const [answers] = await runReference([
    { n: c.n, edges: c.edges, directed: c.directed ?? false, edgeAttrs: c.weight ? { weight: c.weight } : {}, calls: [call] },
  ]);
  const a = answers?.[0];
  if (!a?.ok) return { ok: false, error: a?.ok === false ? a.error : "no answer" };
  return { ok: true, membership: (a.value as { membership: number[] }).membership };
}

/** igraph's modularity of our membership and of igraph's own answer to `call` (same weights for both). */
export async function compareModularity(c: Case, call: string, membership: Int32Array, weighted: boolean) {
  const w = weighted ? ", weights='weight'" : "";
  // igraph runs once: its membership's modularity and cluster count come from the same answer.
  const [answers] = await runReference([
    {
      n: c.n,
      edges: c.edges,
      directed: c.directed ?? false,
      edgeAttrs: c.weight ? { weight: c.weight } : {},
      calls: [
        `g.modularity(${JSON.stringify(Array.from(membership))}${w})`,
        // python-igraph draws from python's random: seeded, so the reference answer is the same every run.
        `(lambda m: [g.modularity(m${w}), len(set(m))])((__import__('random').seed(7), ${call})[1].membership)`,
      ],
    },
  ]);
  const [theirs, theirCount] = answerValue<[number, number]>(answers?.[1]);
  return { ours: answerValue<number>(answers?.[0]), theirs, theirCount };
}

/** How many clusters a membership has. */
export function clusterCount(membership: Int32Array): number {
  return new Set(membership).size;
}
