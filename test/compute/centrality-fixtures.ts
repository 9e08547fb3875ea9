// Shared by the centrality suites: seeded fixture-like graphs, running an entry as the service would (defaults
// filled), and comparing with the reference libraries within the tolerance.
import { expect } from "vitest";
import { type ComputeGraph, computeGraph } from "../../kernels/cpu/csr.ts";
import { type AlgorithmEntry, type ComputeOutput, cpuContext } from "../../src/compute/types.ts";
import { type ReferenceAnswer, runReference } from "../helpers/graph-reference.ts";
import { seeded } from "../helpers/seeded.ts";

export type TestGraph = { n: number; edges: [number, number][]; weight: number[] };

/**
 * A seeded graph of n nodes and m edges: a preferential-attachment-ish core (so it has hubs and is mostly
 * connected), `isolated` extra nodes with no edge, optional self-loops and repeated edges (`simple`: no pair twice,
 * either way round), integer weights 1..9.
 */
export function fixture(
  seed: number,
  n: number,
  m: number,
  options: { isolated?: number; loops?: number; multi?: number; simple?: boolean } = {},
): TestGraph {
  const rng = seeded(seed);
  const edges: [number, number][] = [];
  const ends: number[] = [];
  for (let i = 1; i < n && edges.length < m; i++) {
    const j = ends.length > 0 && rng.next() < 0.7 ? (rng.pick(ends) as number) : rng.int(0, i - 1);
    const pair: [number, number] = rng.next() < 0.5 ? [i, j] : [j, i];
    edges.push(pair);
    ends.push(i, j);
  }
  while (edges.length < m) {
    const a = rng.int(0, n - 1);
    const b = rng.next() < 0.5 ? (rng.pick(ends) as number) : rng.int(0, n - 1);
    if (a === b) continue;
    if (options.simple && edges.some(([x, y]) => (x === a && y === b) || (x === b && y === a))) continue;
    edges.push([a, b]);
  }
  for (let k = 0; k < (options.loops ?? 0); k++) {
    const a = rng.int(0, n - 1);
    if (!(options.simple && edges.some(([x, y]) => x === a && y === a))) edges.push([a, a]);
  }
  for (let k = 0; k < (options.multi ?? 0); k++) edges.push([...(rng.pick(edges) as [number, number])]);
  const weight = edges.map(() => rng.int(1, 9));
  return { n: n + (options.isolated ?? 0), edges, weight };
}

export function asCompute(g: TestGraph, directed: boolean, weighted = false): ComputeGraph {
  return computeGraph(g.n, g.edges, { directed, weight: weighted ? g.weight : null });
}

/** Runs an entry with the request's params over the entry's defaults (what the service's validation fills in). */
export function runEntry(
  entry: AlgorithmEntry,
  graph: ComputeGraph,
  params: Record<string, unknown> = {},
  label = entry.name,
): ComputeOutput {
  const full: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(entry.params)) if (spec.default !== undefined) full[name] = spec.default;
  return entry.run(graph, { ...full, ...params }, cpuContext, label);
}

/** The values of a named output column as plain numbers, NaN/Infinity/invalid as null (as the service stores them). */
export function column(output: ComputeOutput, name: string): (number | null)[] {
  if (output.kind === "graph") throw new Error("a graph output has no column");
  const col = output.columns.find((c) => c.name === name);
  if (!col) throw new Error(`no column ${name} (have ${output.columns.map((c) => c.name).join(", ")})`);
  const out: (number | null)[] = [];
  for (let i = 0; i < col.values.length; i++) {
    const v = col.values[i] as number;
    out.push(col.valid && col.valid[i] === 0 ? null : Number.isFinite(v) ? v : null);
  }
  return out;
}

/** Within `rel` relative (1e-6 by default), with an absolute floor for values at zero; nulls must agree. */
export function expectClose(
  actual: readonly (number | null)[],
  expected: readonly (number | null)[],
  what = "",
  rel = 1e-6,
  floor = 1e-12,
): void {
  expect(actual.length).toBe(expected.length);
  const bad: string[] = [];
  for (let i = 0; i < expected.length; i++) {
    const a = actual[i] ?? null;
    const b = expected[i] ?? null;
    if (a === null || b === null) {
      if (a !== b) bad.push(`[${i}] ${a} vs ${b}`);
      continue;
    }
    if (Math.abs(a - b) > rel * Math.max(Math.abs(a), Math.abs(b)) + floor) bad.push(`[${i}] ${a} vs ${b}`);
  }
  expect(bad.slice(0, 10), `${what}: ${bad.length} of ${expected.length} differ`).toEqual([]);
}

/** A networkx dict answer (keys are node rows as text) as a list by node row. */
export function byNode(value: unknown, n: number): (number | null)[] {
  const dict = value as Record<string, number | null>;
  return Array.from({ length: n }, (_, i) => dict[String(i)] ?? null);
}

/**
 * Every graph read directed and undirected, with its reference answers from ONE python run (python-igraph and
 * networkx take seconds to import: one process per test, not per graph).
 */
export async function eachReference(
  graphs: readonly TestGraph[],
  request: (g: TestGraph, directed: boolean) => { calls: string[]; weighted?: boolean },
): Promise<{ g: TestGraph; directed: boolean; answers: ReferenceAnswer[] }[]> {
  const combos = graphs.flatMap((g) => [true, false].map((directed) => ({ g, directed, ...request(g, directed) })));
  const all = await runReference(
    combos.map(({ g, directed, calls, weighted }) => ({
      n: g.n,
      edges: g.edges,
      directed,
      ...(weighted === false ? {} : { edgeAttrs: { weight: g.weight } }),
      calls,
    })),
  );
  return combos.map(({ g, directed }, i) => ({ g, directed, answers: all[i] ?? [] }));
}
