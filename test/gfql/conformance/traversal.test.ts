// Conformance: hops (directions, bounds, fixed point, output slicing), matches, backward pruning and name tags.
// Expected ids are derived by hand from the pictures in graphs.ts and the reference's chain evaluation rules:
// forward pass from the wavefront, backward pass keeping only what lies on a path through the whole chain,
// union of the pruned steps (a multi-hop step contributes the nodes its kept walks pass through).

import { describe, it } from "vitest";
import { type Case, CYCLE, checkCase, DIAMOND, E, id, LINE, N, STAR } from "./graphs.ts";

const ALL_LINE_NODES = ["n0", "n1", "n2", "n3", "n4"];
const ALL_LINE_EDGES = ["c01", "c12", "c23", "c34"];

const line: Case[] = [
  { name: "forward one hop", graph: LINE, query: [id("n0"), E("forward"), N()], nodes: ["n0", "n1"], edges: ["c01"] },
  { name: "reverse one hop", graph: LINE, query: [id("n2"), E("reverse"), N()], nodes: ["n1", "n2"], edges: ["c12"] },
  { name: "undirected one hop", graph: LINE, query: [id("n2"), E("undirected"), N()], nodes: ["n1", "n2", "n3"], edges: ["c12", "c23"] },
  {
    name: "hops 2 keeps walks of length 1 and 2 (trailing Edge gets an implicit Node)",
    graph: LINE,
    query: [id("n0"), E("forward", { hops: 2 })],
    nodes: ["n0", "n1", "n2"],
    edges: ["c01", "c12"],
  },
  {
    name: "min_hops 2 max_hops 3: the walk's earlier edges stay",
    graph: LINE,
    query: [id("n0"), E("forward", { min_hops: 2, max_hops: 3 }), N()],
    nodes: ["n0", "n1", "n2", "n3"],
    edges: ["c01", "c12", "c23"],
  },
  {
    name: "exactly 3 hops to n3",
    graph: LINE,
    query: [id("n0"), E("forward", { min_hops: 3, max_hops: 3 }), id("n3")],
    nodes: ["n0", "n1", "n2", "n3"],
    edges: ["c01", "c12", "c23"],
  },
  {
    name: "exactly 3 hops cannot end at n2 (only 2 away): empty",
    graph: LINE,
    query: [id("n0"), E("forward", { min_hops: 3, max_hops: 3 }), id("n2")],
    nodes: [],
    edges: [],
  },
  {
    name: "to_fixed_point walks to the end",
    graph: LINE,
    query: [id("n0"), E("forward", { to_fixed_point: true })],
    nodes: ALL_LINE_NODES,
    edges: ALL_LINE_EDGES,
  },
  { name: "no outgoing edge: the seed is pruned too", graph: LINE, query: [id("n4"), E("forward")], nodes: [], edges: [] },
  {
    name: "a named edge step that keeps nothing",
    graph: LINE,
    query: [id("n4"), E("forward", { name: "x" }), N({}, { name: "y" })],
    nodes: [],
    edges: [],
  },
  {
    name: "reverse to_fixed_point",
    graph: LINE,
    query: [id("n3"), E("reverse", { to_fixed_point: true })],
    nodes: ["n0", "n1", "n2", "n3"],
    edges: ["c01", "c12", "c23"],
  },
  {
    name: "output_min_hops 2: edges first taken at hops 2..4, nodes their endpoints",
    graph: LINE,
    query: [id("n0"), E("forward", { hops: 4, output_min_hops: 2 })],
    nodes: ["n1", "n2", "n3", "n4"],
    edges: ["c12", "c23", "c34"],
  },
  {
    name: "output_max_hops 2",
    graph: LINE,
    query: [id("n0"), E("forward", { hops: 4, output_max_hops: 2 })],
    nodes: ["n0", "n1", "n2"],
    edges: ["c01", "c12"],
  },
  {
    name: "output_min_hops 2 and output_max_hops 3",
    graph: LINE,
    query: [id("n0"), E("forward", { hops: 4, output_min_hops: 2, output_max_hops: 3 })],
    nodes: ["n1", "n2", "n3"],
    edges: ["c12", "c23"],
  },
  {
    name: "leading Edge with an edge_match predicate",
    graph: LINE,
    query: [E("forward", { edge_match: { w: { type: "GE", val: 3 } } })],
    nodes: ["n2", "n3", "n4"],
    edges: ["c23", "c34"],
  },
  {
    name: "even to even in one hop: none",
    graph: LINE,
    query: [N({ tag: "even" }), E("forward"), N({ tag: "even" })],
    nodes: [],
    edges: [],
  },
  {
    name: "even to odd in one hop",
    graph: LINE,
    query: [N({ tag: "even" }), E("forward"), N({ tag: "odd" })],
    nodes: ["n0", "n1", "n2", "n3"],
    edges: ["c01", "c23"],
  },
  {
    name: "even, odd, even over two edge steps",
    graph: LINE,
    query: [N({ tag: "even" }), E("forward"), N(), E("forward"), N({ tag: "even" })],
    nodes: ALL_LINE_NODES,
    edges: ALL_LINE_EDGES,
  },
  {
    name: "backward pruning: two steps that must end at n2",
    graph: LINE,
    query: [N(), E("forward"), N(), E("forward"), id("n2")],
    nodes: ["n0", "n1", "n2"],
    edges: ["c01", "c12"],
  },
  {
    name: "name tags on a node, an edge and the end node",
    graph: LINE,
    query: [N({ id: "n1" }, { name: "start" }), E("forward", { name: "hop" }), N({}, { name: "end" })],
    nodes: ["n1", "n2"],
    edges: ["c12"],
    marks: { nodes: { start: ["n1"], end: ["n2"] }, edges: { hop: ["c12"] } },
  },
  {
    name: "name tags per edge step after pruning",
    graph: LINE,
    query: [N(), E("forward", { name: "e1" }), N(), E("forward", { name: "e2" }), id("n4")],
    nodes: ["n2", "n3", "n4"],
    edges: ["c23", "c34"],
    marks: { edges: { e1: ["c23"], e2: ["c34"] } },
  },
  {
    name: "max_hops 0 keeps the seed and no edge",
    graph: LINE,
    query: [id("n1"), E("forward", { max_hops: 0 })],
    nodes: ["n1"],
    edges: [],
  },
  {
    name: "min_hops 0 max_hops 2",
    graph: LINE,
    query: [id("n1"), E("forward", { min_hops: 0, max_hops: 2 }), N()],
    nodes: ["n1", "n2", "n3"],
    edges: ["c12", "c23"],
  },
  {
    name: "source_node_match on the walk's departure node",
    graph: LINE,
    query: [E("forward", { source_node_match: { v: { type: "GT", val: 1 } } })],
    nodes: ["n2", "n3", "n4"],
    edges: ["c23", "c34"],
  },
  {
    name: "reverse: destination_node_match is the node arrived at (the edge's source)",
    graph: LINE,
    query: [E("reverse", { destination_node_match: { v: { type: "LT", val: 2 } } })],
    nodes: ["n0", "n1", "n2"],
    edges: ["c01", "c12"],
  },
];

const diamond: Case[] = [
  {
    name: "both two-hop paths to d",
    graph: DIAMOND,
    query: [id("a"), E("forward", { hops: 2 }), id("d")],
    nodes: ["a", "b", "c", "d"],
    edges: ["ab", "ac", "bd", "cd"],
  },
  {
    name: "edge_match keeps the left path only",
    graph: DIAMOND,
    query: [id("a"), E("forward", { hops: 2, edge_match: { lbl: "l" } }), id("d")],
    nodes: ["a", "b", "d"],
    edges: ["ab", "bd"],
  },
  {
    name: "src, mid, sink over two edge steps",
    graph: DIAMOND,
    query: [N({ kind: "src" }), E("forward"), N({ kind: "mid" }), E("forward"), N({ kind: "sink" })],
    nodes: ["a", "b", "c", "d"],
    edges: ["ab", "ac", "bd", "cd"],
  },
  {
    name: "reverse two hops from d",
    graph: DIAMOND,
    query: [id("d"), E("reverse", { hops: 2 })],
    nodes: ["a", "b", "c", "d"],
    edges: ["ab", "ac", "bd", "cd"],
  },
  {
    name: "undirected two hops from b reaches everything connected",
    graph: DIAMOND,
    query: [id("b"), E("undirected", { hops: 2 }), N()],
    nodes: ["a", "b", "c", "d"],
    edges: ["ab", "ac", "bd", "cd"],
  },
  { name: "an isolated node has no walk", graph: DIAMOND, query: [id("z"), E("undirected")], nodes: [], edges: [] },
  { name: "edges into c", graph: DIAMOND, query: [N(), E("forward"), id("c")], nodes: ["a", "c"], edges: ["ac"] },
  {
    name: "source and destination matches together",
    graph: DIAMOND,
    query: [E("forward", { source_node_match: { kind: "mid" }, destination_node_match: { kind: "sink" } })],
    nodes: ["b", "c", "d"],
    edges: ["bd", "cd"],
  },
  {
    name: "named two-hop step marks every kept edge",
    graph: DIAMOND,
    query: [N({ id: "a" }, { name: "s" }), E("forward", { hops: 2, name: "p" }), N({ id: "d" }, { name: "t" })],
    nodes: ["a", "b", "c", "d"],
    edges: ["ab", "ac", "bd", "cd"],
    marks: { nodes: { s: ["a"], t: ["d"] }, edges: { p: ["ab", "ac", "bd", "cd"] } },
  },
  {
    name: "dead end pruned: c's only way on is an r edge",
    graph: DIAMOND,
    query: [id("a"), E("forward"), N(), E("forward", { edge_match: { lbl: "l" } })],
    nodes: ["a", "b", "d"],
    edges: ["ab", "bd"],
  },
];

const cycle: Case[] = [
  {
    name: "to_fixed_point terminates on the cycle",
    graph: CYCLE,
    query: [id("p"), E("forward", { to_fixed_point: true })],
    nodes: ["p", "q", "r", "s"],
    edges: ["pq", "qr", "rp", "rs"],
  },
  {
    name: "back to p within 3 hops",
    graph: CYCLE,
    query: [id("p"), E("forward", { hops: 3 }), id("p")],
    nodes: ["p", "q", "r"],
    edges: ["pq", "qr", "rp"],
  },
  {
    name: "exactly 2 hops",
    graph: CYCLE,
    query: [id("p"), E("forward", { min_hops: 2, max_hops: 2 }), N()],
    nodes: ["p", "q", "r"],
    edges: ["pq", "qr"],
  },
  {
    name: "s is 3 hops away: hops 2 finds nothing",
    graph: CYCLE,
    query: [id("p"), E("forward", { hops: 2 }), id("s")],
    nodes: [],
    edges: [],
  },
  {
    name: "s within 3 hops",
    graph: CYCLE,
    query: [id("p"), E("forward", { hops: 3 }), id("s")],
    nodes: ["p", "q", "r", "s"],
    edges: ["pq", "qr", "rs"],
  },
  { name: "reverse one hop into p", graph: CYCLE, query: [id("p"), E("reverse")], nodes: ["p", "r"], edges: ["rp"] },
  {
    name: "reverse to_fixed_point from s",
    graph: CYCLE,
    query: [id("s"), E("reverse", { to_fixed_point: true })],
    nodes: ["p", "q", "r", "s"],
    edges: ["pq", "qr", "rp", "rs"],
  },
  { name: "undirected from s", graph: CYCLE, query: [id("s"), E("undirected"), N()], nodes: ["r", "s"], edges: ["rs"] },
  { name: "x to x", graph: CYCLE, query: [N({ grp: "x" }), E("forward"), N({ grp: "x" })], nodes: ["p", "r"], edges: ["rp"] },
  {
    name: "exactly 4 hops goes round the cycle and takes pq twice",
    graph: CYCLE,
    query: [id("p"), E("forward", { min_hops: 4, max_hops: 4 }), N()],
    nodes: ["p", "q", "r"],
    edges: ["pq", "qr", "rp"],
  },
  {
    // every node is a seed; q -> r -> p and p -> q -> r -> p also end at p, not just r -> p
    name: "to_fixed_point into p from everywhere, through the whole cycle",
    graph: CYCLE,
    query: [N(), E("forward", { to_fixed_point: true }), id("p")],
    nodes: ["p", "q", "r"],
    edges: ["pq", "qr", "rp"],
  },
  {
    // walks from p of length >= 5 that end at p: p q r p q r p (6), 9, ...; the walk must go on past the point
    // where nothing new is seen (hop 3) to reach min_hops
    name: "to_fixed_point with min_hops 5 back to p",
    graph: CYCLE,
    query: [id("p"), E("forward", { to_fixed_point: true, min_hops: 5 }), id("p")],
    nodes: ["p", "q", "r"],
    edges: ["pq", "qr", "rp"],
  },
  {
    // length 5 ends at r, 6 at p or s, 7 at q: every node and edge
    name: "to_fixed_point with min_hops 5 to anywhere",
    graph: CYCLE,
    query: [id("p"), E("forward", { to_fixed_point: true, min_hops: 5 }), N()],
    nodes: ["p", "q", "r", "s"],
    edges: ["pq", "qr", "rp", "rs"],
  },
  {
    name: "undirected there and back again: exactly 2 hops from b to b",
    graph: DIAMOND,
    query: [id("b"), E("undirected", { min_hops: 2, max_hops: 2 }), id("b")],
    nodes: ["a", "b", "d"],
    edges: ["ab", "bd"],
  },
  {
    name: "to_fixed_point with output_min_hops 3 (edges first taken at hop 3: rp and rs)",
    graph: CYCLE,
    query: [id("p"), E("forward", { to_fixed_point: true, output_min_hops: 3 })],
    nodes: ["p", "r", "s"],
    edges: ["rp", "rs"],
  },
];

const star: Case[] = [
  { name: "out of the hub", graph: STAR, query: [id("h"), E("forward")], nodes: ["h", "l1", "l2", "l3"], edges: ["h1", "h2", "h3"] },
  { name: "into the hub", graph: STAR, query: [id("h"), E("reverse")], nodes: ["h", "l4"], edges: ["h4"] },
  {
    name: "both ways",
    graph: STAR,
    query: [id("h"), E("undirected")],
    nodes: ["h", "l1", "l2", "l3", "l4"],
    edges: ["h1", "h2", "h3", "h4"],
  },
  {
    name: "blue to blue: leaves only touch the hub",
    graph: STAR,
    query: [N({ color: "blue" }), E("undirected"), N({ color: "blue" })],
    nodes: [],
    edges: [],
  },
  {
    name: "undirected two hops from a leaf",
    graph: STAR,
    query: [id("l1"), E("undirected", { hops: 2 }), N()],
    nodes: ["h", "l1", "l2", "l3", "l4"],
    edges: ["h1", "h2", "h3", "h4"],
  },
  {
    name: "exactly two hops to a red node (the hub is red but only one hop away)",
    graph: STAR,
    query: [id("l1"), E("undirected", { min_hops: 2, max_hops: 2 }), N({ color: "red" })],
    nodes: ["h", "l1", "l4"],
    edges: ["h1", "h4"],
  },
  {
    name: "into small nodes",
    graph: STAR,
    query: [N(), E("forward"), N({ size: { type: "LT", val: 3 } })],
    nodes: ["h", "l1", "l2"],
    edges: ["h1", "h2"],
  },
  {
    // l1 - h - l1, l1 - h - l2 - h - l1, ...: every spoke lies on a walk back to l1
    name: "undirected to_fixed_point back to the seed",
    graph: STAR,
    query: [id("l1"), E("undirected", { to_fixed_point: true }), id("l1")],
    nodes: ["h", "l1", "l2", "l3", "l4"],
    edges: ["h1", "h2", "h3", "h4"],
  },
  {
    name: "edge_match with a list",
    graph: STAR,
    query: [E("undirected", { edge_match: { kind: ["in"] } })],
    nodes: ["h", "l4"],
    edges: ["h4"],
  },
];

describe.each([
  ["LINE", line],
  ["DIAMOND", diamond],
  ["CYCLE", cycle],
  ["STAR", star],
])("conformance: %s", (_, cases) => {
  it.each((cases as Case[]).map((c) => [c.name, c]))("%s", (_name, c) => checkCase(c as Case));
});
