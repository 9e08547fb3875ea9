// GFQL_MAX_INTERMEDIATE_ROWS: hop expansion, same-path joins and Let bindings refuse to grow past the cap.

import pl from "nodejs-polars";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { GfqlGraph } from "../../src/gfql/execute.ts";
import { DEFAULT_MAX_INTERMEDIATE_ROWS, innerJoinSize, maxIntermediateRows } from "../../src/gfql/limits.ts";
import { errorOf, run } from "./helpers.ts";

/** The complete directed graph on n nodes: n(n-1) edges. */
function complete(n: number): GfqlGraph {
  const s: string[] = [];
  const d: string[] = [];
  const eid: string[] = [];
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      if (i === j) continue;
      s.push(`n${i}`);
      d.push(`n${j}`);
      eid.push(`e${i}_${j}`);
    }
  const ids = Array.from({ length: n }, (_, i) => `n${i}`);
  return {
    nodes: pl.DataFrame({ id: ids, k: ids.map((_, i) => i % 3) }),
    edges: pl.DataFrame({ eid, s, d }),
    nodeId: "id",
    source: "s",
    destination: "d",
  };
}

const ENV = "GFQL_MAX_INTERMEDIATE_ROWS";
const K30 = complete(30); // 30 nodes, 870 edges

describe("the intermediate-row cap", () => {
  beforeEach(() => {
    process.env[ENV] = "1000";
  });
  afterEach(() => {
    delete process.env[ENV];
  });

  it("defaults to 50M rows and validates the variable", () => {
    delete process.env[ENV];
    expect(maxIntermediateRows()).toBe(DEFAULT_MAX_INTERMEDIATE_ROWS);
    expect(DEFAULT_MAX_INTERMEDIATE_ROWS).toBe(50_000_000);
    expect(maxIntermediateRows({ [ENV]: "" })).toBe(50_000_000);
    expect(maxIntermediateRows({ [ENV]: "12" })).toBe(12);
    expect(() => maxIntermediateRows({ [ENV]: "0" })).toThrow(/GFQL_MAX_INTERMEDIATE_ROWS must be an integer >= 1/);
    expect(() => maxIntermediateRows({ [ENV]: "lots" })).toThrow(/GFQL_MAX_INTERMEDIATE_ROWS/);
  });

  it("hop expansion: one hop (870 edge rows) fits, two hops (1740) do not", () => {
    expect(run([{ type: "Edge", direction: "forward", hops: 1 }], K30).edges).toHaveLength(870);
    const e = errorOf(() => run([{ type: "Edge", direction: "forward", hops: 2 }], K30));
    expect(e.code).toBe("INVALID_INPUT");
    expect(e.message).toMatch(/^\[result-too-large\] the hop expansion \(2 hops\) would hold 1740 rows, over the limit of 1000/);
    expect(e.path).toBe("chain[0]");
    expect(errorOf(() => run([{ type: "Edge", direction: "undirected", to_fixed_point: true }], K30)).message).toMatch(
      /^\[result-too-large\]/,
    );
  });

  it("same-path where: the table of two-edge paths (30*29*29 rows) is refused before it is built", () => {
    const chain = [
      { type: "Node", name: "x" },
      { type: "Edge", direction: "forward" },
      { type: "Node" },
      { type: "Edge", direction: "forward" },
      { type: "Node", name: "z" },
    ];
    const e = errorOf(() => run({ type: "Chain", chain, where: [{ eq: { left: "x.k", right: "z.k" } }] }, K30));
    expect(e.message).toMatch(/^\[result-too-large\] the same-path table of matched paths would hold 25230 rows/);
    expect(e.path).toBe("where");
    // without the where clause the same chain needs no path table
    expect(run(chain, K30).edges).toHaveLength(870);
  });

  it("Let: the bindings held together count", () => {
    const one = { type: "Let", bindings: { a: [{ type: "Edge", direction: "forward" }] } };
    expect(run(one, K30).edges).toHaveLength(870);
    const two = { type: "Let", bindings: { a: [{ type: "Edge", direction: "forward" }], b: { type: "Ref", ref: "a", chain: [] } } };
    const e = errorOf(() => run(two, K30));
    expect(e.message).toMatch(/^\[result-too-large\] the Let bindings would hold 1800 rows/);
    expect(e.path).toBe("bindings.b");
  });

  it("Calls: only one that grows the largest table is checked", () => {
    // 600 edges between 1200 distinct endpoints, a one-row node table
    const ends = (p: string) => Array.from({ length: 600 }, (_, i) => `${p}${i}`);
    const g: GfqlGraph = {
      nodes: pl.DataFrame({ id: ["s0"] }),
      edges: pl.DataFrame({ eid: ends("e"), s: ends("s"), d: ends("d") }),
      nodeId: "id",
      source: "s",
      destination: "d",
    };
    const call = (fn: string, params: Record<string, unknown> = {}) => ({ type: "Call", function: fn, params });
    const e = errorOf(() => run([call("materialize_nodes", { reuse: false })], g));
    expect(e.message).toMatch(/^\[result-too-large\] the result of 'materialize_nodes' would hold 1200 rows/);
    expect(e.path).toBe("chain[0]");
    // a graph over the cap that a call only filters is not refused
    const big = complete(40); // 1560 edges
    expect(run([call("filter_edges_by_dict", { filter_dict: { s: "n0" } })], big).edges).toHaveLength(39);
  });

  it("a raised cap lets the same queries run", () => {
    process.env[ENV] = "100000";
    expect(run([{ type: "Edge", direction: "forward", hops: 2 }], K30).edges).toHaveLength(870);
  });

  it("innerJoinSize counts the join without building it (null keys never match)", () => {
    const l = pl.DataFrame({ k: ["a", "a", "b", null] });
    const r = pl.DataFrame({ k: ["a", "b", "b", "c", null] });
    expect(innerJoinSize(l, "k", r, "k")).toBe(2 * 1 + 1 * 2);
  });
});
