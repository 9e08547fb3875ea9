// Named fixture graphs and the table-driven case runner of the GFQL conformance suite. Every expected result in
// the conformance files is worked out by hand from the reference semantics (shared/reference, section 3), from
// the pictures below, not copied from the engine's output.

import pl from "nodejs-polars";
import { expect } from "vitest";
import type { GfqlGraph } from "../../../src/gfql/execute.ts";
import { parseGfql } from "../../../src/gfql/parse.ts";
import { executeBoth } from "../engines.ts";

function graph(
  nodes: Record<string, unknown[]>,
  edges: { eid: string[]; s: string[]; d: string[] } & Record<string, unknown[]>,
): GfqlGraph {
  return { nodes: pl.DataFrame(nodes), edges: pl.DataFrame(edges), nodeId: "id", source: "s", destination: "d" };
}

/**
 * LINE: n0 -c01-> n1 -c12-> n2 -c23-> n3 -c34-> n4
 *   v = 0..4, tag even/odd by v; edge w = 1..4 (c01 w1 ... c34 w4)
 */
export const LINE = (): GfqlGraph =>
  graph(
    { id: ["n0", "n1", "n2", "n3", "n4"], v: [0, 1, 2, 3, 4], tag: ["even", "odd", "even", "odd", "even"] },
    { eid: ["c01", "c12", "c23", "c34"], s: ["n0", "n1", "n2", "n3"], d: ["n1", "n2", "n3", "n4"], w: [1, 2, 3, 4] },
  );

/**
 * DIAMOND: a -ab-> b -bd-> d, a -ac-> c -cd-> d; z is isolated.
 *   kind: a src, b mid, c mid, d sink, z lone; score: a 1.0, b 2.5, c null, d 4.0, z 0.0
 *   edge lbl: ab l, ac r, bd l, cd r; w: ab 1, ac 2, bd 3, cd 4
 */
export const DIAMOND = (): GfqlGraph =>
  graph(
    { id: ["a", "b", "c", "d", "z"], kind: ["src", "mid", "mid", "sink", "lone"], score: [1.0, 2.5, null, 4.0, 0.0] },
    { eid: ["ab", "ac", "bd", "cd"], s: ["a", "a", "b", "c"], d: ["b", "c", "d", "d"], lbl: ["l", "r", "l", "r"], w: [1, 2, 3, 4] },
  );

/**
 * CYCLE: p -pq-> q -qr-> r -rp-> p, plus the tail r -rs-> s.
 *   grp: p x, q y, r x, s y
 */
export const CYCLE = (): GfqlGraph =>
  graph(
    { id: ["p", "q", "r", "s"], grp: ["x", "y", "x", "y"] },
    { eid: ["pq", "qr", "rp", "rs"], s: ["p", "q", "r", "r"], d: ["q", "r", "p", "s"] },
  );

/**
 * STAR: hub h -h1-> l1, h -h2-> l2, h -h3-> l3 (kind out), l4 -h4-> h (kind in).
 *   size: h 10, l1 1, l2 2, l3 3, l4 4; color (in this row order): h red, l1 blue, l2 blue, l3 green, l4 red
 */
export const STAR = (): GfqlGraph =>
  graph(
    { id: ["h", "l1", "l2", "l3", "l4"], size: [10, 1, 2, 3, 4], color: ["red", "blue", "blue", "green", "red"] },
    { eid: ["h1", "h2", "h3", "h4"], s: ["h", "h", "h", "l4"], d: ["l1", "l2", "l3", "h"], kind: ["out", "out", "out", "in"] },
  );

const day = (iso: string | null) => (iso === null ? null : new Date(`${iso}T00:00:00Z`));

/**
 * MIXED: nulls, strings and dates. m1 -x1-> m2 -x2-> m3 -x3-> m4 -x5-> m6, m5 -x4-> m1.
 *   name:  m1 "Alice", m2 "bob", m3 "Carol", m4 null, m5 "dave99", m6 "  "
 *   score: m1 1.5, m2 null, m3 3.0, m4 4.0, m5 null, m6 0.0
 *   born:  m1 2020-01-01, m2 2020-02-29, m3 2021-03-31, m4 null, m5 2019-12-31, m6 2020-06-15
 *   code:  m1 "123", m2 "abc", m3 "ABC", m4 "1a", m5 "Abc Def", m6 "x"
 *   edge since: x1 2020-01-01, x2 null, x3 2022-05-05, x4 2019-01-01, x5 2021-01-01
 */
export const MIXED = (): GfqlGraph => ({
  nodes: pl.DataFrame({
    id: ["m1", "m2", "m3", "m4", "m5", "m6"],
    name: ["Alice", "bob", "Carol", null, "dave99", "  "],
    score: [1.5, null, 3.0, 4.0, null, 0.0],
    born: pl.Series("born", ["2020-01-01", "2020-02-29", "2021-03-31", null, "2019-12-31", "2020-06-15"].map(day)),
    code: ["123", "abc", "ABC", "1a", "Abc Def", "x"],
  }),
  edges: pl.DataFrame({
    eid: ["x1", "x2", "x3", "x4", "x5"],
    s: ["m1", "m2", "m3", "m5", "m4"],
    d: ["m2", "m3", "m4", "m1", "m6"],
    since: pl.Series("since", ["2020-01-01", null, "2022-05-05", "2019-01-01", "2021-01-01"].map(day)),
  }),
  nodeId: "id",
  source: "s",
  destination: "d",
});

/** A traversal case: the expected node and edge ids (any order), and optionally the ids a named step marks true. */
export type Case = {
  name: string;
  graph: () => GfqlGraph;
  query: unknown;
  nodes: string[];
  edges: string[];
  marks?: { nodes?: Record<string, string[]>; edges?: Record<string, string[]> };
};

/** A row-pipeline case: the expected row table, in order. */
export type RowCase = { name: string; graph: () => GfqlGraph; query: unknown; rows: Array<Record<string, unknown>> };

const trueIds = (df: pl.DataFrame, id: string, col: string): string[] => df.filter(pl.col(col)).getColumn(id).toArray().map(String).sort();

export function checkCase(c: Case): void {
  const g = c.graph();
  const out = executeBoth(g, parseGfql(c.query));
  expect((out.nodes.getColumn("id").toArray() as string[]).slice().sort(), "nodes").toEqual(c.nodes.slice().sort());
  expect((out.edges.getColumn("eid").toArray() as string[]).slice().sort(), "edges").toEqual(c.edges.slice().sort());
  for (const [col, ids] of Object.entries(c.marks?.nodes ?? {}))
    expect(trueIds(out.nodes, "id", col), `node mark ${col}`).toEqual(ids.sort());
  for (const [col, ids] of Object.entries(c.marks?.edges ?? {}))
    expect(trueIds(out.edges, "eid", col), `edge mark ${col}`).toEqual(ids.sort());
}

export function checkRowCase(c: RowCase): void {
  const out = executeBoth(c.graph(), parseGfql(c.query));
  expect(out.rows).toBe(true);
  const rows = out.nodes
    .toRecords()
    .map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === "bigint" ? Number(v) : v])));
  expect(rows).toEqual(c.rows);
}

/** Query builders, to keep the tables short. */
export const N = (filter_dict: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({
  type: "Node",
  filter_dict,
  ...extra,
});
export const E = (direction: string, extra: Record<string, unknown> = {}) => ({ type: "Edge", direction, ...extra });
export const P = (type: string, extra: Record<string, unknown> = {}) => ({ type, ...extra });
export const call = (fn: string, params: Record<string, unknown> = {}) => ({ type: "Call", function: fn, params });
export const id = (v: string) => N({ id: v });
