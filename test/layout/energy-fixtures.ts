// Shared graphs and the igraph comparison for the energy-layout suites (energy-*.test.ts): a grid, a tree, a
// random graph and two planted communities, and python-igraph's own layout stress over several seeds.
import { computeGraph } from "../../kernels/cpu/csr.ts";
import { answerValue, runReference } from "../helpers/graph-reference.ts";
import { layoutStress, randomGraph } from "../helpers/layout-quality.ts";

export type TestGraph = { name: string; n: number; edges: [number, number][] };

export function gridGraph(side: number): TestGraph {
  const edges: [number, number][] = [];
  for (let r = 0; r < side; r++)
    for (let c = 0; c < side; c++) {
      const v = r * side + c;
      if (c + 1 < side) edges.push([v, v + 1]);
      if (r + 1 < side) edges.push([v, v + side]);
    }
  return { name: `grid ${side}x${side}`, n: side * side, edges };
}

/** A complete `arity`-ary tree of n vertices (vertex i's parent is floor((i - 1) / arity)). */
export function treeGraph(n: number, arity: number): TestGraph {
  const edges: [number, number][] = [];
  for (let i = 1; i < n; i++) edges.push([Math.floor((i - 1) / arity), i]);
  return { name: `${arity}-ary tree of ${n}`, n, edges };
}

/** A random graph with a path through every vertex, so it is connected. */
export function connectedRandom(n: number, extra: number, seed: number): TestGraph {
  const edges: [number, number][] = [];
  for (let i = 1; i < n; i++) edges.push([i - 1, i]);
  const seen = new Set(edges.map(([a, b]) => a * n + b));
  for (const [a, b] of randomGraph(n, extra + n, seed)) {
    const key = Math.min(a, b) * n + Math.max(a, b);
    if (seen.has(key) || edges.length >= n - 1 + extra) continue;
    seen.add(key);
    edges.push([a, b]);
  }
  return { name: `random ${n} vertices ${edges.length} edges`, n, edges };
}

/** Two dense random halves joined by a few edges. */
export function twoCommunities(half: number, inner: number, bridges: number, seed: number): TestGraph {
  const a = connectedRandom(half, inner, seed).edges;
  const b = connectedRandom(half, inner, seed + 1).edges.map(([s, t]): [number, number] => [s + half, t + half]);
  const across = randomGraph(half, bridges, seed + 2).map(([s, t]): [number, number] => [s, t + half]);
  return { name: `two communities of ${half}`, n: 2 * half, edges: [...a, ...b, ...across] };
}

export const graphOf = (g: TestGraph) => computeGraph(g.n, g.edges, { directed: false });

export const median = (values: number[]) => {
  const s = [...values].sort((x, y) => x - y);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};

/** python-igraph's `call` (an expression on g returning a Layout) under random.seed(k) for k < runs: each run's stress. */
export async function igraphStress(graphs: TestGraph[], call: string, runs: number, dims: 2 | 3 = 2): Promise<number[][]> {
  const answers = await runReference(
    graphs.map((g) => ({
      n: g.n,
      edges: g.edges,
      directed: false,
      calls: Array.from({ length: runs }, (_, k) => `__import__("random").seed(${k}) or ${call}.coords`),
    })),
  );
  return graphs.map((g, i) => (answers[i] ?? []).map((answer) => layoutStress(g.n, g.edges, answerValue<number[][]>(answer).flat(), dims)));
}

/** The field a refusal names: a 400's details.field (parse) or a ComputeInputError's field (the layout itself). */
export function refusedField(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    const e = error as { field?: string; details?: { field?: string } };
    return e.details?.field ?? e.field ?? "(no field)";
  }
  return undefined;
}
