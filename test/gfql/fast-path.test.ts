// The fast path against the polars path on a graph large enough for its shortcuts to matter: integer ids (mapped
// through a lookup array) and string ids (through a join), range filters found by binary search, nulls, a float
// column holding NaN (left to polars), edge filters in adjacency order, Lets over Refs, and hops from frontiers
// large enough to scan every edge once (forward, reverse, undirected with self-loops, edge filters in row order,
// endpoint matches, a text column polars tests, within a Ref's edges). executeBoth checks that both engines give the same rows in the same order.
// A number column is tested by polars until the thread has been idle once, then in JavaScript: both are checked.
import pl from "nodejs-polars";
import { describe, expect, it } from "vitest";
import type { GfqlGraph } from "../../src/gfql/execute.ts";
import { idleReads, readColumnData } from "../../src/gfql/fast/columns.ts";
import { fastRows } from "../../src/gfql/fast/fast-query.ts";
import { parseGfql } from "../../src/gfql/parse.ts";
import { executeBoth } from "./engines.ts";

const NODES = 3_000;
const EDGES = 40_000;

function graph(stringIds: boolean): GfqlGraph {
  let seed = 11;
  const next = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed / 4294967296;
  };
  const id = (i: number) => (stringIds ? `n${i}` : i);
  const idType = stringIds ? pl.Utf8 : pl.Int64;
  const nodes = pl.DataFrame([
    pl.Series(
      "id",
      Array.from({ length: NODES }, (_, i) => id(NODES - 1 - i)),
      idType,
    ),
    pl.Series(
      "score",
      Array.from({ length: NODES }, (_, i) => (i % 17 === 0 ? null : Math.floor(next() * 1000))),
      pl.Float64,
    ),
    pl.Series(
      "kind",
      Array.from({ length: NODES }, (_, i) => (i % 23 === 0 ? null : ["a", "b", "c"][i % 3])),
      pl.Utf8,
    ),
    pl.Series(
      "odd",
      Array.from({ length: NODES }, (_, i) => (i % 29 === 0 ? Number.NaN : next())),
      pl.Float64,
    ),
  ]);
  const pick = () => id(Math.floor(next() * NODES));
  const edges = pl.DataFrame([
    pl.Series("s", Array.from({ length: EDGES }, pick), idType),
    pl.Series(
      "d",
      Array.from({ length: EDGES }, (_, i) => (i % 97 === 0 ? id(i % NODES) : pick())),
      idType,
    ),
    pl.Series(
      "w",
      Array.from({ length: EDGES }, () => next()),
      pl.Float64,
    ),
    pl.Series(
      "rel",
      Array.from({ length: EDGES }, (_, i) => (i % 31 === 0 ? null : ["knows", "likes"][i % 2])),
      pl.Utf8,
    ),
  ]);
  // a few self-loops, which undirected hops take once
  return { nodes, edges, nodeId: "id", source: "s", destination: "d", endpointsInNodes: true };
}

const N = (filter_dict: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({ type: "Node", filter_dict, ...extra });
const E = (direction: string, extra: Record<string, unknown> = {}) => ({ type: "Edge", direction, ...extra });

const QUERIES: Array<[string, unknown]> = [
  [
    "a range, one hop, an edge filter",
    [N({ score: { type: "LT", val: 40 } }), E("forward", { edge_match: { w: { type: "GT", val: 0.5 } } }), N()],
  ],
  [
    "a range both ends, reverse",
    [N({ score: { type: "Between", lower: 100, upper: 140, inclusive: true } }), E("reverse"), N({ kind: "a" })],
  ],
  ["equality on a number, undirected 2 hops", [N({ score: 500 }), E("undirected", { hops: 2 }), N()]],
  [
    "nulls and strings",
    [N({ kind: { type: "IsNull" } }), E("forward", { edge_match: { rel: "likes" } }), N({ score: { type: "NotNull" } })],
  ],
  ["min and max hops", [N({ score: { type: "GE", val: 990 } }), E("forward", { min_hops: 2, max_hops: 3 }), N({ kind: ["b", "c", null] })]],
  [
    "endpoint matches",
    [
      N({ score: { type: "LE", val: 30 } }),
      E("undirected", { source_node_match: { kind: "a" }, destination_node_match: { score: { type: "GT", val: 500 } } }),
      N(),
    ],
  ],
  ["a NaN column is left to polars", [N({ odd: { type: "GT", val: 0.99 } }), E("forward"), N({ odd: { type: "LT", val: 0.5 } })]],
  [
    "an edge regex is a polars mask",
    [N({ score: { type: "LT", val: 20 } }), E("forward", { edge_match: { rel: { type: "Startswith", pat: "kn" } } }), N()],
  ],
  [
    "two edge steps",
    [N({ score: { type: "LT", val: 15 } }), E("forward"), N(), E("reverse", { edge_match: { w: { type: "LT", val: 0.3 } } }), N()],
  ],
  [
    "a Let over Refs",
    {
      type: "Let",
      bindings: {
        seeds: N({ score: { type: "LT", val: 50 } }),
        // a Ref to a Node-only result has no edges to walk: the walk starts from the root
        out: { type: "Chain", chain: [N({ score: { type: "LT", val: 50 } }), E("forward"), N()] },
        far: { type: "Ref", ref: "out", chain: [N({ kind: ["a", "b"] }), E("forward"), N()] },
        none: { type: "Ref", ref: "seeds", chain: [E("forward"), N()] },
        last: { type: "Ref", ref: "far", chain: [N({ score: { type: "NotNull" } })] },
      },
    },
  ],
  ["dense: every node, every edge", [N(), E("forward"), N()]],
  [
    "dense: reverse, edge filters on a number and on text",
    [N({ kind: "b" }), E("reverse", { edge_match: { w: { type: "GT", val: 0.7 }, rel: "knows" } }), N({ score: { type: "LT", val: 500 } })],
  ],
  ["dense: undirected 2 hops (self-loops once)", [N({ kind: ["a", "c"] }), E("undirected", { hops: 2 }), N({ kind: "a" })]],
  [
    "dense: endpoint matches and a text regex on the edges",
    [
      N({ score: { type: "GT", val: 300 } }),
      E("forward", {
        source_node_match: { kind: "a" },
        destination_node_match: { score: { type: "NotNull" } },
        edge_match: { rel: { type: "Contains", pat: "ik" } },
      }),
      N(),
      E("forward", { edge_match: { w: { type: "LT", val: 0.5 } } }),
      N(),
    ],
  ],
  [
    "dense: a Let whose Ref walks a large subgraph",
    {
      type: "Let",
      bindings: {
        wide: { type: "Chain", chain: [N({ kind: ["a", "b"] }), E("forward", { edge_match: { w: { type: "GT", val: 0.3 } } }), N()] },
        inner: {
          type: "Ref",
          ref: "wide",
          chain: [N({ kind: "a" }), E("undirected", { hops: 2 }), N({ score: { type: "GT", val: 200 } })],
        },
      },
    },
  ],
];

describe.each([false, true])("the fast path agrees with polars (string ids: %s)", (stringIds) => {
  const g = graph(stringIds);
  it.each(QUERIES)("%s", (_name, query) => {
    const out = executeBoth(g, parseGfql(query));
    expect(out.nodes.height + out.edges.height).toBeGreaterThan(0);
  });

  it("takes the sparse queries and the dense ones", () => {
    const sparse = fastRows(g, parseGfql(QUERIES[0]?.[1]), true);
    expect(sparse?.edgeCount).toBeGreaterThan(0);
    const dense = fastRows(g, parseGfql([N(), E("forward"), N()]), true);
    expect(dense?.edgeCount).toBe(EDGES);
  });
});

describe("a number column no query has read", () => {
  it("is tested by polars the first time, read into JavaScript once the thread is idle, with the same rows", async () => {
    const g = graph(false);
    const query = parseGfql([N({ kind: "a" }), E("forward", { edge_match: { w: { type: "GT", val: 0.5 } } }), N()]);
    expect(readColumnData(g.edges, "w")).toBeUndefined();
    const first = executeBoth(g, query);
    expect(first.edges.height).toBeGreaterThan(0);
    // Tested through polars: the copy waits for an idle moment.
    expect(readColumnData(g.edges, "w")).toBeUndefined();
    await idleReads();
    expect(readColumnData(g.edges, "w")?.kind).toBe("number");
    const again = executeBoth(g, query);
    expect(again.edges.frameEqual(first.edges)).toBe(true);
    expect(again.nodes.frameEqual(first.nodes)).toBe(true);
  });

  it("a column holding NaN is read once and stays with polars", async () => {
    const g = graph(false);
    const query = parseGfql([N({ odd: { type: "GT", val: 0.5 } }), E("forward"), N()]);
    executeBoth(g, query);
    await idleReads();
    expect(readColumnData(g.nodes, "odd")).toBeNull();
    expect(executeBoth(g, query).nodes.height).toBeGreaterThan(0);
  });
});
