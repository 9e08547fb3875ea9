// Chain traversal: hop directions and bounds, matches, dead-end pruning and named steps over the sample graph.
// Expected sets are derived by hand from pygraphistry's chain semantics; see helpers.ts for the graph:
//   e0 a->b x, e1 b->c y, e2 c->d x, e3 a->c y, e4 e->a x; types a,b,d,f person, c company, e bot.

import pl from "nodejs-polars";
import { describe, expect, it } from "vitest";
import { parseGfql } from "../../src/gfql/parse.ts";
import { executeBoth } from "./engines.ts";
import { run, sampleGraph } from "./helpers.ts";

const A = { type: "Node", filter_dict: { id: "a" } };
const ANY = { type: "Node" };
const edge = (direction: string, extra: Record<string, unknown> = {}) => ({ type: "Edge", direction, ...extra });

describe("single hop", () => {
  it("forward, reverse and undirected from a", () => {
    expect(run([A, edge("forward", { hops: 1 }), ANY])).toEqual({ nodes: ["a", "b", "c"], edges: ["e0", "e3"] });
    expect(run([A, edge("reverse"), ANY])).toEqual({ nodes: ["a", "e"], edges: ["e4"] });
    expect(run([A, edge("undirected"), ANY])).toEqual({ nodes: ["a", "b", "c", "e"], edges: ["e0", "e3", "e4"] });
  });

  it("a leading or trailing edge gets an implicit Node()", () => {
    // every edge has a source, so all edges and all their endpoints; isolated f is not reached
    expect(run([edge("forward")])).toEqual({ nodes: ["a", "b", "c", "d", "e"], edges: ["e0", "e1", "e2", "e3", "e4"] });
    expect(run([A, edge("forward")])).toEqual({ nodes: ["a", "b", "c"], edges: ["e0", "e3"] });
  });

  it("edge_match filters the edges taken", () => {
    expect(run([edge("forward", { edge_match: { rel: "x" } })])).toEqual({
      nodes: ["a", "b", "c", "d", "e"],
      edges: ["e0", "e2", "e4"],
    });
    expect(run([A, edge("undirected", { edge_match: { w: { type: "GE", val: 4 } } })])).toEqual({
      nodes: ["a", "c", "e"],
      edges: ["e3", "e4"],
    });
  });

  it("source and destination node matches", () => {
    // person -> company edges: e1 (b->c) and e3 (a->c)
    const q = [edge("forward", { source_node_match: { type: "person" }, destination_node_match: { type: "company" } })];
    expect(run(q)).toEqual({ nodes: ["a", "b", "c"], edges: ["e1", "e3"] });
    // reverse walks from the destination side: leaving a person towards a bot is e4 read backwards (a <- e)
    const r = [edge("reverse", { source_node_match: { type: "person" }, destination_node_match: { type: "bot" } })];
    expect(run(r)).toEqual({ nodes: ["a", "e"], edges: ["e4"] });
  });

  it("node-only chains return no edges", () => {
    expect(run([{ type: "Node", filter_dict: { type: "person" } }])).toEqual({ nodes: ["a", "b", "d", "f"], edges: [] });
  });
});

describe("multi-hop", () => {
  // From a: hop 1 takes e0, e3 (reaching b, c); hop 2 takes e1 (b->c), e2 (c->d) (reaching c, d).
  it("hops: 2 keeps every walk of length 1 or 2", () => {
    expect(run([A, edge("forward", { hops: 2 }), ANY])).toEqual({
      nodes: ["a", "b", "c", "d"],
      edges: ["e0", "e1", "e2", "e3"],
    });
  });

  it("min/max bounds decide which walk lengths count", () => {
    const toC = { type: "Node", filter_dict: { id: "c" } };
    // c is reached directly (e3, length 1) and via b (e0 e1, length 2)
    expect(run([A, edge("forward", { max_hops: 2 }), toC])).toEqual({ nodes: ["a", "b", "c"], edges: ["e0", "e1", "e3"] });
    expect(run([A, edge("forward", { min_hops: 2, max_hops: 2 }), toC])).toEqual({ nodes: ["a", "b", "c"], edges: ["e0", "e1"] });
    expect(run([A, edge("forward", { min_hops: 1, max_hops: 1 }), toC])).toEqual({ nodes: ["a", "c"], edges: ["e3"] });
    // d only at length 2 via c (a->c->d); the 3-hop walk a->b->c->d needs max_hops 3
    const toD = { type: "Node", filter_dict: { id: "d" } };
    expect(run([A, edge("forward", { hops: 2 }), toD])).toEqual({ nodes: ["a", "c", "d"], edges: ["e2", "e3"] });
    expect(run([A, edge("forward", { min_hops: 3, max_hops: 3 }), toD])).toEqual({
      nodes: ["a", "b", "c", "d"],
      edges: ["e0", "e1", "e2"],
    });
  });

  it("to_fixed_point follows until nothing new is reached", () => {
    const fromE = { type: "Node", filter_dict: { id: "e" } };
    expect(run([fromE, edge("forward", { to_fixed_point: true })])).toEqual({
      nodes: ["a", "b", "c", "d", "e"],
      edges: ["e0", "e1", "e2", "e3", "e4"],
    });
    expect(run([{ type: "Node", filter_dict: { id: "d" } }, edge("reverse", { to_fixed_point: true, edge_match: { rel: "x" } })])).toEqual({
      nodes: ["c", "d"],
      edges: ["e2"],
    });
  });

  it("to_fixed_point terminates on cycles", () => {
    const g = {
      nodes: pl.DataFrame({ id: ["x", "y", "z", "q"] }),
      edges: pl.DataFrame({ eid: ["xy", "yx", "yz", "qx"], s: ["x", "y", "y", "q"], d: ["y", "x", "z", "x"] }),
      nodeId: "id",
      source: "s",
      destination: "d",
    };
    expect(run([{ type: "Node", filter_dict: { id: "x" } }, edge("forward", { to_fixed_point: true })], g)).toEqual({
      nodes: ["x", "y", "z"],
      edges: ["xy", "yx", "yz"],
    });
  });
});

describe("pruning and names", () => {
  it("prunes dead ends found by a later node step", () => {
    // persons a, b, d, f hop forward along e0 (a->b), e1 (b->c), e3 (a->c); only c is a company, so e0 and
    // its target b (as a target) are pruned; a and b stay as sources of e3 and e1.
    const q = [{ type: "Node", filter_dict: { type: "person" } }, edge("forward"), { type: "Node", filter_dict: { type: "company" } }];
    expect(run(q)).toEqual({ nodes: ["a", "b", "c"], edges: ["e1", "e3"] });
    // nothing person -> d: the whole chain is empty
    expect(run([q[0], edge("forward"), { type: "Node", filter_dict: { id: "d" } }])).toEqual({ nodes: [], edges: [] });
  });

  it("prunes across two edge steps", () => {
    // a -> {b,c} -> then a second hop must land on d: only a->c->d survives (b->c lands on c, not d)
    const q = [A, edge("forward"), ANY, edge("forward"), { type: "Node", filter_dict: { id: "d" } }];
    expect(run(q)).toEqual({ nodes: ["a", "c", "d"], edges: ["e2", "e3"] });
  });

  it("named steps add boolean columns", () => {
    const g = sampleGraph();
    const q = parseGfql([
      { type: "Node", filter_dict: { id: "a" }, name: "start" },
      edge("forward", { name: "hop" }),
      { type: "Node", name: "end" },
    ]);
    const out = executeBoth(g, q);
    const nodes = out.nodes.sort("id").toRecords();
    expect(nodes.map((r) => [r.id, r.start, r.end])).toEqual([
      ["a", true, false],
      ["b", false, true],
      ["c", false, true],
    ]);
    expect(
      out.edges
        .sort("eid")
        .toRecords()
        .map((r) => [r.eid, r.hop]),
    ).toEqual([
      ["e0", true],
      ["e3", true],
    ]);
    expect(out.nodes.columns).toEqual(["id", "type", "age", "nick", "start", "end"]);
    expect(out.edges.columns).toEqual(["eid", "s", "d", "rel", "w", "hop"]);
  });

  it("appends edge endpoints missing from the node table", () => {
    const g = sampleGraph();
    g.edges = pl.DataFrame({ eid: ["n1"], s: ["a"], d: ["ghost"] });
    expect(run([A, edge("forward")], g)).toEqual({ nodes: ["a", "ghost"], edges: ["n1"] });
  });
});
