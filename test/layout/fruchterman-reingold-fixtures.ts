// Shared pieces of the Fruchterman-Reingold suites: graphs, starts from other seeds (igraph's start is random, so
// quality is compared as medians over several starts), and the stress of python-igraph's own layouts.
import { computeGraph } from "../../kernels/cpu/csr.ts";
import type { ComputeContext } from "../../src/compute/types.ts";
import { randomStart } from "../../src/layout/algorithms/fruchterman-reingold/start.ts";
import { findLayout } from "../../src/layout/registry.ts";
import { answerValue, runReference } from "../helpers/graph-reference.ts";
import { layoutStress } from "../helpers/layout-quality.ts";

export type Case = { n: number; edges: [number, number][]; weights?: number[] };

export const median = (values: number[]): number => {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
};

/** A start matrix (python-igraph's `seed` rows) drawn as igraph draws its start, from `seed`. */
export function startRows(n: number, dims: 2 | 3, seed: number): number[][] {
  const flat = randomStart(n, dims, { lower: [], upper: [] }, seed);
  return Array.from({ length: n }, (_, i) => Array.from(flat.subarray(i * dims, i * dims + dims)));
}

/** Our layout's stress from `starts` different starts. */
export function ourStresses(c: Case, dims: 2 | 3, params: Record<string, unknown>, ctx: ComputeContext, starts: number[]): number[] {
  const entry = findLayout("igraph", dims === 3 ? "fr_3d" : "fr");
  if (!entry) throw new Error("fr is not registered");
  const graph = computeGraph(c.n, c.edges, { directed: false });
  const weights = c.weights ? Float64Array.from(c.weights) : null;
  return starts.map((s) =>
    layoutStress(c.n, c.edges, entry.place(graph, { ...params, weights, seed: startRows(c.n, dims, s) }, ctx), dims),
  );
}

/** python-igraph's layout_fruchterman_reingold stress after random.seed(k) for each k. */
export async function igraphStresses(c: Case, dims: 2 | 3, grid: string, seeds: number[]): Promise<number[]> {
  const w = c.weights ? ', weights="weight"' : "";
  const calls = seeds.map(
    (k) => `(__import__("random").seed(${k}), g.layout_fruchterman_reingold(dim=${dims}, grid="${grid}"${w}).coords)[1]`,
  );
  const [answers] = await runReference([
    { n: c.n, edges: c.edges, directed: false, ...(c.weights ? { edgeAttrs: { weight: c.weights } } : {}), calls },
  ]);
  return (answers ?? []).map((a) => layoutStress(c.n, c.edges, answerValue<number[][]>(a).flat(), dims));
}
