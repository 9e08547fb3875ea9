// Seeded graphs and helpers for the modularity community suites: planted partitions, power-law graphs, weights,
// disconnected parts and isolated nodes; entries run directly with their defaults; igraph's modularity as the judge.
import { type ComputeGraph, computeGraph } from "../../kernels/cpu/csr.ts";
import { entries } from "../../src/compute/algorithms/modularity/index.ts";
import { type AlgorithmEntry, type ComputeContext, cpuContext } from "../../src/compute/types.ts";
import { answerValue, runReference } from "../helpers/graph-reference.ts";
import { seeded } from "../helpers/seeded.ts";

export type Fixture = { name: string; n: number; edges: [number, number][]; weight: number[] | null };

/** `groups` groups of `size` nodes; an edge inside a group with probability pin, across with pout. */
export function planted(seed: number, groups: number, size: number, pin: number, pout: number, weighted = false): Fixture {
  const r = seeded(seed);
  const n = groups * size;
  const edges: [number, number][] = [];
  const weight: number[] = [];
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++) {
      const same = Math.floor(i / size) === Math.floor(j / size);
      if (r.next() < (same ? pin : pout)) {
        edges.push(r.next() < 0.5 ? [i, j] : [j, i]);
        weight.push(same ? 1 + r.int(0, 4) : 1 + r.next());
      }
    }
  return { name: `planted ${groups}x${size}${weighted ? " weighted" : ""}`, n, edges, weight: weighted ? weight : null };
}

/** A Chung-Lu power-law graph (expected degrees ∝ rank^-0.7), with some parallel edges and self-loops kept. */
export function powerLaw(seed: number, n: number, m: number, weighted = false): Fixture {
  const r = seeded(seed);
  const cum: number[] = [];
  let acc = 0;
  for (let i = 0; i < n; i++) {
    acc += (i + 1) ** -0.7;
    cum.push(acc);
  }
  const draw = () => {
    const x = r.next() * acc;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cum[mid] as number) < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const edges: [number, number][] = [];
  const weight: number[] = [];
  for (let e = 0; e < m; e++) {
    const s = draw();
    // Half the edges stay local, so there is community structure to find.
    const d = r.next() < 0.5 ? (s + 1 + r.int(0, 20)) % n : draw();
    edges.push([s, d]);
    weight.push(0.5 + r.int(0, 6));
  }
  return { name: `power-law n=${n} m=${m}${weighted ? " weighted" : ""}`, n, edges, weight: weighted ? weight : null };
}

/** Two planted graphs side by side, a triangle apart, and `isolated` nodes with no edge. */
export function disconnected(seed: number, isolated: number): Fixture {
  const a = planted(seed, 3, 15, 0.5, 0.03);
  const b = planted(seed + 1, 2, 20, 0.4, 0.05);
  const edges: [number, number][] = [...a.edges];
  for (const [s, d] of b.edges) edges.push([s + a.n, d + a.n]);
  const t = a.n + b.n;
  edges.push([t, t + 1], [t + 1, t + 2], [t + 2, t]);
  return { name: `disconnected + ${isolated} isolated`, n: t + 3 + isolated, edges, weight: null };
}

export function graphOf(f: Fixture, directed = false): ComputeGraph {
  return computeGraph(f.n, f.edges, { directed, weight: f.weight });
}

export function entry(library: string, name: string): AlgorithmEntry {
  const e = entries.find((x) => x.library === library && x.name === name);
  if (!e) throw new Error(`${library} ${name} is not registered`);
  return e;
}

/** Runs an entry as the service would (defaults filled); answers its membership column. */
export function membershipOf(
  library: string,
  name: string,
  graph: ComputeGraph,
  params: Record<string, unknown> = {},
  ctx: ComputeContext = cpuContext,
): Int32Array {
  const e = entry(library, name);
  const full: Record<string, unknown> = {};
  for (const [k, spec] of Object.entries(e.params)) if (spec.default !== undefined) full[k] = spec.default;
  Object.assign(full, params);
  const out = e.run(graph, full, ctx, "community");
  if (out.kind !== "nodes") throw new Error("expected node columns");
  const col = out.columns[0];
  if (col?.name !== "community" || !(col.values instanceof Int32Array)) throw new Error("expected an int membership column");
  return col.values;
}

export type Clustering = { membership: number[]; modularity: number };

/**
 * igraph on the fixture: each of `calls` (clusterings) and igraph's modularity of each of `ours`
 * (g.modularity(membership, weights, resolution)).
 */
export async function judge(
  f: Fixture,
  calls: string[],
  ours: Int32Array[],
  options: { weights?: boolean; resolution?: number } = {},
): Promise<{ reference: Clustering[]; ourQ: number[] }> {
  const weights = options.weights ? '"weight"' : "None";
  const res = options.resolution ?? 1;
  const qCalls = ours.map((m) => `g.modularity([${Array.from(m).join(",")}], weights=${weights}, resolution=${res})`);
  const [answers] = await runReference([
    { n: f.n, edges: f.edges, directed: false, edgeAttrs: f.weight ? { weight: f.weight } : {}, calls: [...calls, ...qCalls] },
  ]);
  const list = answers ?? [];
  return {
    reference: list.slice(0, calls.length).map((a) => answerValue<Clustering>(a)),
    ourQ: list.slice(calls.length).map((a) => answerValue<number>(a)),
  };
}

/** Whether two memberships are the same partition. */
export function samePartition(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false;
  const ab = new Map<number, number>();
  const ba = new Map<number, number>();
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    if ((ab.get(x) ?? y) !== y || (ba.get(y) ?? x) !== x) return false;
    ab.set(x, y);
    ba.set(y, x);
  }
  return true;
}
