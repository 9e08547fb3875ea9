// Graph Calls (degrees, dict filters, hop, drop/keep, pruning) as chain prefixes/suffixes, Let bindings and top-level.
// Sample graph (helpers.ts): e0 a->b x w1, e1 b->c y w2, e2 c->d x w3, e3 a->c y w4, e4 e->a x w5; f isolated.

import pl from "nodejs-polars";
import { describe, expect, it } from "vitest";
import { parseGfql } from "../../src/gfql/parse.ts";
import { executeBoth } from "./engines.ts";
import { errorOf, run, sampleGraph } from "./helpers.ts";

const call = (fn: string, params: Record<string, unknown> = {}) => ({ type: "Call", function: fn, params });
const A = { type: "Node", filter_dict: { id: "a" } };
const exec = (q: unknown, g = sampleGraph()) => executeBoth(g, parseGfql(q));
/** [id, ...cols] per node, sorted by id. */
const cols = (q: unknown, names: string[]) =>
  exec(q)
    .nodes.sort("id")
    .toRecords()
    .map((r) => [r.id, ...names.map((n) => r[n])]);

describe("degree calls", () => {
  it("get_degrees adds degree_in, degree_out and degree (their sum)", () => {
    // in: a<-e4, b<-e0, c<-e1,e3, d<-e2; out: a->e0,e3, b->e1, c->e2, e->e4; f has no edges
    expect(cols([call("get_degrees")], ["degree_in", "degree_out", "degree"])).toEqual([
      ["a", 1, 2, 3],
      ["b", 1, 1, 2],
      ["c", 2, 1, 3],
      ["d", 1, 0, 1],
      ["e", 0, 1, 1],
      ["f", 0, 0, 0],
    ]);
    const out = exec([call("get_degrees", { col: "deg", degree_in: "i", degree_out: "o" })]);
    expect(out.nodes.columns).toEqual(["id", "type", "age", "nick", "i", "o", "deg"]);
    expect(out.edges.height).toBe(5);
  });

  it("get_indegrees and get_outdegrees, top-level and with a custom column", () => {
    expect(cols({ type: "Call", function: "get_indegrees" }, ["degree_in"]).map((r) => r[1])).toEqual([1, 1, 2, 1, 0, 0]);
    expect(cols([call("get_outdegrees", { col: "fanout" })], ["fanout"]).map((r) => r[1])).toEqual([2, 1, 1, 0, 1, 0]);
  });

  it("a suffix call runs on the traversal's result", () => {
    // a -> b (e0), a -> c (e3): inside that subgraph a has out-degree 2, b and c in-degree 1
    expect(cols([A, { type: "Edge", direction: "forward" }, call("get_degrees")], ["degree_in", "degree_out"])).toEqual([
      ["a", 0, 2],
      ["b", 1, 0],
      ["c", 1, 0],
    ]);
  });
});

describe("graph calls", () => {
  it("a prefix call changes the graph the traversal walks", () => {
    // only rel=x edges remain, so a reaches b through e0 and not c through e3
    expect(run([call("filter_edges_by_dict", { filter_dict: { rel: "x" } }), A, { type: "Edge", direction: "forward" }])).toEqual({
      nodes: ["a", "b"],
      edges: ["e0"],
    });
    // without b (and its edges e0, e1): a -> c -> d in two hops
    expect(run([call("drop_nodes", { nodes: ["b"] }), A, { type: "Edge", direction: "forward", hops: 2 }])).toEqual({
      nodes: ["a", "c", "d"],
      edges: ["e2", "e3"],
    });
  });

  it("filter_nodes_by_dict keeps the edges; keep_nodes keeps edges between kept nodes", () => {
    expect(run([call("filter_nodes_by_dict", { filter_dict: { type: "person" } })])).toEqual({
      nodes: ["a", "b", "d", "f"],
      edges: ["e0", "e1", "e2", "e3", "e4"],
    });
    expect(run([call("keep_nodes", { nodes: { id: ["a", "b", "c"] } })])).toEqual({ nodes: ["a", "b", "c"], edges: ["e0", "e1", "e3"] });
  });

  it("after filter_nodes_by_dict, calls see the edges as pygraphistry's do (answers are pygraphistry's own)", () => {
    // e0 n3->n2, e1 n4->n2, e2 n0->n3, e3 n4->n4; k = 0 keeps n1, n2 and n4, and every edge
    const g = () => ({
      nodes: pl.DataFrame({ id: ["n0", "n1", "n2", "n3", "n4"], k: [1, 0, 0, 5, 0] }),
      edges: pl.DataFrame({ eid: ["e0", "e1", "e2", "e3"], s: ["n3", "n4", "n0", "n4"], d: ["n2", "n2", "n3", "n4"] }),
      nodeId: "id",
      source: "s",
      destination: "d",
      endpointsInNodes: true,
    });
    const only = call("filter_nodes_by_dict", { filter_dict: { k: 0 } });
    // a hop walks only edges both of whose ends are still nodes (pygraphistry joins the far end with the node table)
    expect(run([only, call("hop", { direction: "undirected", hops: 1 })], g())).toEqual({ nodes: ["n2", "n4"], edges: ["e1", "e3"] });
    // drop_nodes removes the edges touching a dropped id, keep_nodes keeps those between kept nodes
    expect(run([only, call("drop_nodes", { nodes: ["n4"] })], g())).toEqual({ nodes: ["n1", "n2"], edges: ["e0", "e2"] });
    expect(run([only, call("keep_nodes", { nodes: ["n2", "n4", "n3"] })], g())).toEqual({ nodes: ["n2", "n4"], edges: ["e1", "e3"] });
    // degrees count every edge
    const degrees = executeBoth(g(), parseGfql([only, call("get_degrees")])).nodes.sort("id");
    expect(degrees.getColumn("degree").toArray()).toEqual([0, 2, 3]);
  });

  it("hop takes the Edge op's params, forward by default, from every node", () => {
    expect(run([call("hop", { direction: "reverse", edge_match: { rel: "x" } })])).toEqual({
      nodes: ["a", "b", "c", "d", "e"],
      edges: ["e0", "e2", "e4"],
    });
    // two hops forward from persons only to a company: a->c (e3), b->c (e1), a->b->c (e0 e1)
    const q = [
      call("hop", {
        hops: 2,
        source_node_match: { type: "person" },
        destination_node_match: { type: { type: "IsIn", options: ["person", "company"] } },
      }),
    ];
    expect(run(q)).toEqual({ nodes: ["a", "b", "c"], edges: ["e0", "e1", "e3"] });
  });

  it("prune_self_edges and materialize_nodes", () => {
    const g = sampleGraph();
    g.edges = pl.DataFrame({ eid: ["l", "m"], s: ["a", "b"], d: ["a", "z"] });
    expect(run([call("prune_self_edges")], g).edges).toEqual(["m"]);
    // reuse=false rebuilds the node table from the endpoints (sources first, then destinations), id column only
    const out = exec([call("materialize_nodes", { reuse: false })], g);
    expect(out.nodes.toRecords()).toEqual([{ id: "a" }, { id: "b" }, { id: "z" }]);
    expect(exec([call("materialize_nodes")], g).nodes.height).toBe(6);
    // degrees merge onto the existing node table: z (missing from it) is not added; a's self-loop counts both ways
    const deg = exec([call("get_degrees")], g).nodes;
    expect(deg.height).toBe(6);
    expect(deg.toRecords().find((r) => r.id === "a")).toMatchObject({ degree_in: 1, degree_out: 1, degree: 2 });
  });

  it("Call bindings run on the root graph; Refs chain on their result", () => {
    const q = {
      type: "Let",
      bindings: {
        deg: call("get_degrees"),
        busy: { type: "Ref", ref: "deg", chain: [{ type: "Node", filter_dict: { degree: { type: "GE", val: 3 } } }] },
      },
    };
    expect(run(q)).toEqual({ nodes: ["a", "c"], edges: [] });
  });
});

describe("Call refusals", () => {
  const fail = (q: unknown) => errorOf(() => exec(q));
  it("refuses unknown and unimplemented functions and params by name", () => {
    expect(fail([call("pagerank")])).toMatchObject({ code: "INVALID_INPUT", path: "chain[0].function" });
    expect(fail([call("pagerank")]).message).toMatch(/^\[E303\] function 'pagerank' is not in the safelist/);
    const unsupported = fail([call("layout_graphviz", { prog: "dot" })]);
    expect(unsupported.message).toMatch(/^\[unsupported-call\] 'layout_graphviz' is not supported yet; supported: get_degrees, /);
    expect(unsupported.message).toContain("group_by");
    expect(unsupported.message).toContain("compute_igraph");
    expect(fail([call("get_degrees", { bogus: 1 })])).toMatchObject({ path: "chain[0].params.bogus" });
    expect(fail([call("get_degrees", { bogus: 1 })]).message).toMatch(/^\[E303\] unknown parameter 'bogus' for 'get_degrees'/);
    expect(fail([call("filter_nodes_by_dict")]).message).toMatch(/^\[E105\] missing required parameter 'filter_dict'/);
    expect(fail([call("limit", { value: -1 })]).message).toMatch(/^\[E201\]/);
    expect(fail([call("hop", { nodes: ["a"] })]).message).toMatch(/^\[unsupported-call\] parameter 'nodes'/);
    expect(fail({ type: "Let", bindings: { x: call("umap") } })).toMatchObject({ path: "bindings.x.function" });
  });

  it("refuses Calls between traversal steps and graph steps after a row table", () => {
    expect(fail([A, call("get_degrees"), { type: "Edge", direction: "forward" }])).toMatchObject({ path: "chain[1]" });
    expect(fail([call("rows"), call("get_degrees")]).message).toMatch(/^\[E101\] graph call 'get_degrees' cannot run on a row table/);
    expect(fail([call("rows"), A]).message).toMatch(/^\[E101\]/);
    const strict = errorOf(() =>
      executeBoth(sampleGraph(), parseGfql([call("filter_nodes_by_dict", { filter_dict: { salary: 1 } })]), { strictness: "strict" }),
    );
    expect(strict).toMatchObject({ path: "chain[0].params.filter_dict.salary" });
  });
});
