// A query worker's warm-up: a few small queries of the common shapes run on a tiny graph of its own while the worker
// waits for its first job, so that the first question a user asks finds the engine's code parsed, compiled and its
// inline caches filled (the parser, the index fast path, polars' filters, Let and Ref), not only the schema.
import { setImmediate } from "node:timers";
import pl from "nodejs-polars";
import { executeGfql, type GfqlGraph } from "./execute.ts";
import { parseGfql } from "./parse.ts";

const NODES = 2000;
const EDGES = 8000;

/** Queries of the shapes people ask most (filters of each kind, hops with predicates, seeds, Let and Ref). */
const QUERIES: unknown[] = [
  [{ type: "Node", filter_dict: { kind: "a" } }],
  [{ type: "Node", filter_dict: { score: { type: "GT", val: 0.5 } } }],
  [{ type: "Node", filter_dict: { name: { type: "Contains", pat: "ab" } } }],
  [
    { type: "Node", filter_dict: { kind: "a" } },
    { type: "Edge", direction: "forward", hops: 1, edge_match: { w: { type: "GT", val: 0.5 } } },
    { type: "Node", filter_dict: { score: { type: "GT", val: 0.5 } } },
  ],
  [
    { type: "Node", filter_dict: { kind: "b" } },
    { type: "Edge", direction: "forward", hops: 1 },
    { type: "Node", filter_dict: { score: { type: "LT", val: 0.5 } } },
    { type: "Edge", direction: "reverse", hops: 1, edge_match: { w: { type: "LT", val: 0.5 } } },
    { type: "Node" },
  ],
  [
    { type: "Node", filter_dict: { id: { type: "IsIn", options: [1, 2, 3, 5, 8, 13] } } },
    { type: "Edge", direction: "undirected", hops: 3 },
    { type: "Node" },
  ],
  [{ type: "Node", filter_dict: { id: { type: "LT", val: 100 } } }, { type: "Edge", direction: "forward", hops: 2 }, { type: "Node" }],
  {
    type: "Let",
    bindings: {
      start: { type: "Node", filter_dict: { kind: "a" } },
      out: { type: "Ref", ref: "start", chain: [{ type: "Node", filter_dict: { score: { type: "GT", val: 0.5 } } }] },
    },
  },
  {
    type: "Let",
    bindings: {
      near: {
        type: "Chain",
        chain: [
          { type: "Node", filter_dict: { id: { type: "LT", val: 200 } } },
          { type: "Edge", direction: "forward", hops: 1, edge_match: { w: { type: "GT", val: 0.5 } } },
          { type: "Node", filter_dict: {} },
        ],
      },
      inner: {
        type: "Ref",
        ref: "near",
        chain: [{ type: "Node", filter_dict: { kind: "a" } }, { type: "Edge", direction: "forward", hops: 1 }, { type: "Node" }],
      },
    },
  },
];

/** How many queries the warm-up runs. */
export const WARM_UP_QUERIES = QUERIES.length;

function tinyGraph(): GfqlGraph {
  let seed = 11;
  const next = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed / 4294967296;
  };
  const kinds = ["a", "b", "c"];
  const nodes = pl.DataFrame([
    pl.Series(
      "id",
      Array.from({ length: NODES }, (_, i) => i),
      pl.Int64,
    ),
    pl.Series(
      "score",
      Float64Array.from({ length: NODES }, () => next()),
    ),
    pl.Series(
      "kind",
      Array.from({ length: NODES }, (_, i) => kinds[i % kinds.length] as string),
    ),
    pl.Series(
      "name",
      Array.from({ length: NODES }, (_, i) => `n${i.toString(16)}ab`),
    ),
  ]);
  const edges = pl.DataFrame([
    pl.Series(
      "src",
      Array.from({ length: EDGES }, () => Math.floor(next() * NODES)),
      pl.Int64,
    ),
    pl.Series(
      "dst",
      Array.from({ length: EDGES }, () => Math.floor(next() * NODES)),
      pl.Int64,
    ),
    pl.Series(
      "w",
      Float64Array.from({ length: EDGES }, () => next()),
    ),
  ]);
  return { nodes, edges, nodeId: "id", source: "src", destination: "dst", endpointsInNodes: true };
}

/** Runs warm-up query `index` on `graph`; false where it failed (a failure only leaves that path cold). */
function runOne(graph: GfqlGraph, index: number): boolean {
  try {
    executeGfql(graph, parseGfql(QUERIES[index]));
    return true;
  } catch {
    // the first real query reports whatever this one met
    return false;
  }
}

/** Runs every warm-up query now; answers how many ran without an error. */
export function warmGfqlEngine(): number {
  const graph = tinyGraph();
  let ran = 0;
  for (let index = 0; index < QUERIES.length; index += 1) if (runOne(graph, index)) ran += 1;
  return ran;
}

/**
 * Runs the warm-up queries one per turn of the event loop, stopping for good once `stop()` is true (a job has come:
 * it waits for one small query at most, about 30 ms the first time, instead of the whole warm-up).
 */
export function startWarmUp(stop: () => boolean): void {
  let graph: GfqlGraph | undefined;
  const step = (index: number) => {
    if (index >= QUERIES.length || stop()) return;
    graph ??= tinyGraph();
    runOne(graph, index);
    setImmediate(() => step(index + 1));
  };
  setImmediate(() => step(0));
}
