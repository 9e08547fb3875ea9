// RETURN DISTINCT over an unbounded variable-length segment binds each (start, end) pair once (trail-pairs.ts)
// instead of once per trail: checked against the trail enumeration the same query runs without DISTINCT, on random
// multigraphs (self-loops, parallel and antiparallel relationships, several components), and on a graph whose trails
// are too many to list.

import pl from "nodejs-polars";
import { describe, expect, it } from "vitest";
import { parseCypher } from "../../../src/gfql/cypher/index.ts";
import { executeGfql, type GfqlGraph } from "../../../src/gfql/execute.ts";

function randomGraph(seed: number): GfqlGraph {
  let s = seed;
  const rnd = () => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return s / 4294967296;
  };
  const n = 2 + Math.floor(rnd() * 6);
  const m = Math.floor(rnd() * 7);
  const id = Array.from({ length: n }, (_, i) => `n${i}`);
  const src: string[] = [];
  const dst: string[] = [];
  const rel: string[] = [];
  for (let j = 0; j < m; j++) {
    src.push(id[Math.floor(rnd() * n)] as string);
    dst.push(id[Math.floor(rnd() * n)] as string);
    rel.push(rnd() < 0.7 ? "x" : "y");
  }
  return {
    nodes: pl.DataFrame({ id, k: id.map((_, i) => i % 3) }),
    edges: pl.DataFrame({ s: pl.Series("s", src, pl.Utf8), d: pl.Series("d", dst, pl.Utf8), rel: pl.Series("rel", rel, pl.Utf8) }),
    nodeId: "id",
    source: "s",
    destination: "d",
    endpointsInNodes: true,
  };
}

// Both engines run Cypher's row plan the same way (rows.test.ts runs them side by side): one suffices here.
const pairs = (g: GfqlGraph, cypher: string) =>
  [
    ...new Set(
      (executeGfql(g, parseCypher(cypher), "polars").nodes.toRecords() as Array<Record<string, unknown>>).map((r) => `${r.s}>${r.t}`),
    ),
  ].sort();

describe("DISTINCT pairs of an unbounded variable-length segment", () => {
  it("are the pairs of the listed trails, in every direction, with *0.., property maps and WHERE", () => {
    const patterns = ["-[*]->", "<-[*]-", "-[*]-", "-[*1..]-", "-[*0..]->", "-[*0..]-", "-[* {rel: 'x'}]-", "-[* {rel: 'x'}]->"];
    let compared = 0;
    for (let seed = 1; seed <= 12; seed++) {
      const g = randomGraph(seed);
      for (const p of patterns) {
        for (const where of ["", " WHERE a.k = 0"]) {
          const body = `MATCH (a)${p}(b)${where}`;
          const listed = pairs(g, `${body} RETURN a.id AS s, b.id AS t ORDER BY s, t`);
          expect(pairs(g, `${body} RETURN DISTINCT a.id AS s, b.id AS t ORDER BY s, t`), `seed ${seed}: ${body}`).toEqual(listed);
          compared += 1;
        }
      }
      // a cycle back to the start: (a)-[*]-(a) holds where a closed trail does
      const cyc = "MATCH (a)-[*]-(a)";
      expect(pairs(g, `${cyc} RETURN DISTINCT a.id AS s, a.id AS t ORDER BY s`), `seed ${seed}: ${cyc}`).toEqual(
        pairs(g, `${cyc} RETURN a.id AS s, a.id AS t ORDER BY s`),
      );
    }
    expect(compared).toBe(192);
  }, 60_000);

  it("answers where listing the trails would pass the limit", () => {
    // 12 nodes in a ring, each neighbour pair joined three times: far more than a million trails
    const id = Array.from({ length: 12 }, (_, i) => `n${i}`);
    const src = id.flatMap((x) => [x, x, x]);
    const dst = id.flatMap((_, i) => {
      const next = id[(i + 1) % id.length] as string;
      return [next, next, next];
    });
    const g: GfqlGraph = {
      nodes: pl.DataFrame({ id }),
      edges: pl.DataFrame({ s: src, d: dst }),
      nodeId: "id",
      source: "s",
      destination: "d",
    };
    expect(() => pairs(g, "MATCH (a)-[*]-(b) RETURN a.id AS s, b.id AS t ORDER BY s, t")).toThrow(/more than 1000000 paths/);
    const all = pairs(g, "MATCH (a)-[*]-(b) RETURN DISTINCT a.id AS s, b.id AS t ORDER BY s, t");
    expect(all.length).toBe(144); // every ordered pair, each node with itself included (it lies on a cycle)
    // a bridge: n12 hangs off n0 by one relationship, so it has no closed trail
    const tail: GfqlGraph = {
      ...g,
      nodes: pl.DataFrame({ id: [...id, "n12"] }),
      edges: pl.DataFrame({ s: [...src, "n0"], d: [...dst, "n12"] }),
    };
    const withTail = pairs(tail, "MATCH (a)-[*]-(b) RETURN DISTINCT a.id AS s, b.id AS t ORDER BY s, t");
    expect(withTail).toContain("n12>n0");
    expect(withTail).not.toContain("n12>n12");
    expect(withTail.length).toBe(13 * 13 - 1);
  });
});
