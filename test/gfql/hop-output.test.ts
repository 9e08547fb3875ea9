// Edge hop-number options: label_node_hops / label_edge_hops / label_seeds, output_min/max_hops slicing, zero hops.
// Sample graph (helpers.ts): e0 a->b, e1 b->c, e2 c->d, e3 a->c, e4 e->a. From a, forward: hop 1 takes e0 and e3
// (reaching b, c), hop 2 takes e1 (b->c) and e2 (c->d).

import pl from "nodejs-polars";
import { describe, expect, it } from "vitest";
import { parseGfql } from "../../src/gfql/parse.ts";
import { executeBoth } from "./engines.ts";
import { errorOf, run, sampleGraph } from "./helpers.ts";

const A = { type: "Node", filter_dict: { id: "a" } };
const twoHops = (extra: Record<string, unknown>) => [A, { type: "Edge", direction: "forward", hops: 2, ...extra }];
const exec = (q: unknown) => executeBoth(sampleGraph(), parseGfql(q));
const pairs = (df: ReturnType<typeof exec>["nodes"], key: string, col: string) =>
  df
    .sort(key)
    .toRecords()
    .map((r) => [r[key], r[col]]);

describe("hop labels", () => {
  it("label the first hop an edge is taken at and a node is reached at", () => {
    const out = exec(twoHops({ label_node_hops: "nh", label_edge_hops: "eh" }));
    expect(pairs(out.edges, "eid", "eh")).toEqual([
      ["e0", 1],
      ["e1", 2],
      ["e2", 2],
      ["e3", 1],
    ]);
    // c is reached at hop 1 (e3) and again at hop 2 (e1): the first counts; the seed a is never arrived at
    expect(pairs(out.nodes, "id", "nh")).toEqual([
      ["a", null],
      ["b", 1],
      ["c", 1],
      ["d", 2],
    ]);
  });

  it("label_seeds labels the start node 0", () => {
    const out = exec(twoHops({ label_node_hops: "nh", label_seeds: true }));
    expect(pairs(out.nodes, "id", "nh")[0]).toEqual(["a", 0]);
    expect(out.edges.columns).not.toContain("eh");
  });

  it("the hop call takes the label params too", () => {
    // every node is a seed, so every edge is first taken at hop 1 (from its own source)
    const out = exec([{ type: "Call", function: "hop", params: { hops: 2, label_edge_hops: "eh" } }]);
    expect(out.edges.getColumn("eh").toArray()).toEqual([1, 1, 1, 1, 1]);
  });
});

describe("output slicing", () => {
  it("output_min_hops keeps later hops; nodes are the kept edges' endpoints", () => {
    expect(run(twoHops({ output_min_hops: 2 }))).toEqual({ nodes: ["b", "c", "d"], edges: ["e1", "e2"] });
  });

  it("a node whose hop lies outside the slice stays unlabelled (pygraphistry's own answer on a path a->b->c->d)", () => {
    const path = {
      nodes: pl.DataFrame({ id: ["a", "b", "c", "d"] }),
      edges: pl.DataFrame({ eid: ["e0", "e1", "e2"], s: ["a", "b", "c"], d: ["b", "c", "d"] }),
      nodeId: "id",
      source: "s",
      destination: "d",
    };
    const edge = { type: "Edge", direction: "forward", hops: null, to_fixed_point: true, label_node_hops: "nh", label_edge_hops: "eh" };
    const out = executeBoth(path, parseGfql([A, { ...edge, output_min_hops: 2 }, { type: "Node" }]));
    expect(pairs(out.nodes, "id", "nh")).toEqual([
      ["b", null],
      ["c", 2],
      ["d", 3],
    ]);
    expect(pairs(out.edges, "eid", "eh")).toEqual([
      ["e1", 2],
      ["e2", 3],
    ]);
  });

  it("output_max_hops keeps earlier hops", () => {
    expect(run(twoHops({ output_max_hops: 1 }))).toEqual({ nodes: ["a", "b", "c"], edges: ["e0", "e3"] });
    // past the traversal bound: hop.py resolve_hop_bounds raises ("output_min_hops (3) cannot exceed max_hops
    // traversal bound (2)"), refused here as E103
    expect(errorOf(() => run(twoHops({ output_min_hops: 3 }))).message).toMatch(/^\[E103\] output_min_hops \(3\) cannot exceed/);
  });
});

describe("zero hops", () => {
  it("max_hops 0 and min_hops 0 keep the wavefront node itself", () => {
    expect(run([A, { type: "Edge", direction: "forward", max_hops: 0 }])).toEqual({ nodes: ["a"], edges: [] });
    // a zero-length walk ends at a, which the last step requires
    expect(run([A, { type: "Edge", direction: "forward", min_hops: 0, max_hops: 1 }, A])).toEqual({ nodes: ["a"], edges: [] });
    expect(run([A, { type: "Edge", direction: "forward", min_hops: 0, max_hops: 1 }])).toEqual({
      nodes: ["a", "b", "c"],
      edges: ["e0", "e3"],
    });
  });
});

describe("label_seeds keeps the seeds, as pygraphistry does", () => {
  // Seeds a, d and f on the sample graph: a walks on, d has no edge out, f no edge at all. Each expectation is
  // pygraphistry's own answer to the same chain (scripts/gfql-differential/pygraphistry_run.py, snapshot f6edc14).
  const seeds = { type: "Node", filter_dict: { id: { type: "IsIn", options: ["a", "d", "f"] } } };
  const chain = (edge: Record<string, unknown>) => [seeds, { type: "Edge", direction: "forward", ...edge }, { type: "Node" }];
  const labels = (q: unknown, col: string, key = "id") => {
    const out = exec(q);
    const table = key === "id" ? out.nodes : out.edges;
    return table
      .sort(key)
      .toRecords()
      .map((r) => `${r[key]}=${r[col] ?? "null"}`);
  };

  it("with node labels, every seed comes back labelled 0, whether or not a walk from it survives", () => {
    for (const hops of [1, 2]) {
      const q = chain({ hops, label_node_hops: "node_hop", label_seeds: true });
      expect(run(q).nodes).toEqual(["a", "b", "c", "d", "f"]);
      expect(labels(q, "node_hop")).toEqual(["a=0", "b=1", "c=1", "d=0", "f=0"]);
    }
    expect(run(chain({ hops: 2, label_node_hops: "node_hop", label_seeds: true })).edges).toEqual(["e0", "e1", "e2", "e3"]);
  });

  it("with output slicing too, the seeds outside the slice included", () => {
    const q = chain({ hops: 2, label_node_hops: "node_hop", label_seeds: true, output_min_hops: 2 });
    expect(run(q)).toEqual({ nodes: ["a", "b", "c", "d", "f"], edges: ["e1", "e2"] });
    expect(labels(q, "node_hop")).toEqual(["a=0", "b=null", "c=null", "d=0", "f=0"]);
    // without label_seeds the slice keeps only its edges' endpoints
    expect(run(chain({ hops: 2, output_min_hops: 2 }))).toEqual({ nodes: ["b", "c", "d"], edges: ["e1", "e2"] });
  });

  it("without node labels or slicing, the seeds without a walk stay out", () => {
    expect(run(chain({ hops: 1, label_seeds: true }))).toEqual({ nodes: ["a", "b", "c"], edges: ["e0", "e3"] });
    expect(run(chain({ hops: 1, label_edge_hops: "edge_hop", label_seeds: true }))).toEqual({
      nodes: ["a", "b", "c"],
      edges: ["e0", "e3"],
    });
  });
});
