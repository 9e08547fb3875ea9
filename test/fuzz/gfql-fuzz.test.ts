// Fuzzing GFQL (issue 18): chains built from the operation vocabulary with fuzzed fields, predicates and calls, and
// Cypher strings built from its grammar, broken or not, through GraphQL (dataset and session) and the REST route.
// Property: never a 5xx, no stack trace or file path, an answer within the time limit; healthy after.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SAFELIST_V1 } from "../../src/gfql/call-names.ts";
import { createFuzzWorld, expectHealthy, FUZZ_SEED, type FuzzWorld, probe, runs } from "./fuzz-world.ts";

let world: FuzzWorld;
beforeAll(async () => {
  world = await createFuzzWorld();
});
afterAll(async () => world?.close());

const column = fc.constantFrom("s", "d", "w", "kind", "id", "node", "missing", "", "__proto__");
const scalar = fc.oneof(fc.constantFrom("a", "b", "x", "y", 1, 1.5, 0, -1, true, null), fc.string({ maxLength: 6 }), fc.integer());
const predicate = fc.oneof(
  fc.record({ type: fc.constantFrom("GT", "LT", "GE", "LE", "EQ", "NE"), val: scalar }),
  fc.record({ type: fc.constant("IsIn"), options: fc.array(scalar, { maxLength: 4 }) }),
  fc.record({ type: fc.constant("Between"), lower: scalar, upper: scalar, inclusive: fc.boolean() }),
  fc.record({
    type: fc.constantFrom("Contains", "Startswith", "Endswith", "Match", "Fullmatch"),
    pat: fc.string({ maxLength: 6 }),
    case: fc.boolean(),
  }),
  fc.record({ type: fc.constantFrom("Duplicated", "AllOf", "IsNull", "NotNull", "Nope"), keep: fc.constantFrom("first", "last", false) }),
);
const filterDict = fc.dictionary(column, fc.oneof(scalar, predicate), { maxKeys: 3 });
const nodeOp = fc.record(
  { type: fc.constant("Node"), filter_dict: filterDict, name: fc.string({ maxLength: 4 }), query: fc.string({ maxLength: 12 }) },
  { requiredKeys: ["type"] },
);
const edgeOp = fc.record(
  {
    type: fc.constant("Edge"),
    direction: fc.constantFrom("forward", "reverse", "undirected", "sideways"),
    hops: fc.oneof(fc.integer({ min: -2, max: 5 }), fc.constant(1e9)),
    min_hops: fc.integer({ min: -1, max: 4 }),
    max_hops: fc.integer({ min: -1, max: 6 }),
    to_fixed_point: fc.boolean(),
    edge_match: filterDict,
    source_node_match: filterDict,
    destination_node_match: filterDict,
    name: fc.string({ maxLength: 4 }),
  },
  { requiredKeys: ["type"] },
);
const callOp = fc.record({
  type: fc.constant("Call"),
  function: fc.oneof(fc.constantFrom(...SAFELIST_V1), fc.string({ maxLength: 8 })),
  params: fc.dictionary(
    fc.constantFrom("n", "col", "cols", "keys", "ascending", "by", "columns", "value", "k", "alpha", "iterations", "seed"),
    fc.jsonValue({ maxDepth: 2 }),
    { maxKeys: 3 },
  ),
});
const op = fc.oneof(
  { weight: 3, arbitrary: nodeOp },
  { weight: 3, arbitrary: edgeOp },
  { weight: 1, arbitrary: callOp },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
);
const chain = fc.array(op, { maxLength: 5 });
const gfqlJson = fc.oneof(
  chain,
  chain.map((c) => ({ type: "Chain", chain: c })),
  fc
    .dictionary(
      fc.string({ maxLength: 4 }),
      fc.oneof(
        chain.map((c) => ({ type: "Chain", chain: c })),
        fc.record({ type: fc.constant("Ref"), ref: fc.string({ maxLength: 4 }), chain }),
      ),
      { maxKeys: 3 },
    )
    .map((bindings) => ({ type: "Let", bindings })),
  fc.record({
    type: fc.constantFrom("RemoteGraph", "QueryDAG", "Ref"),
    dataset_id: fc.string({ maxLength: 10 }),
    ref: fc.string({ maxLength: 3 }),
  }),
);

const ident = fc.constantFrom("a", "b", "e", "n", "r", "x");
const label = fc.constantFrom("", ":x", ":y", ":Person", ":x|y");
const nodePattern = fc.tuple(ident, label, fc.constantFrom("", " {s: 'a'}", " {w: 1}", " {id: $p}")).map(([v, l, p]) => `(${v}${l}${p})`);
const relPattern = fc
  .tuple(ident, fc.constantFrom("", ":x", "*1..3", "*", "*0..", "*..2", ":x*2"), fc.constantFrom(["-", "->"], ["<-", "-"], ["-", "-"]))
  .map(([v, t, [l, r]]) => `${l}[${v}${t}]${r}`);
const pattern = fc
  .tuple(nodePattern, fc.array(fc.tuple(relPattern, nodePattern), { maxLength: 3 }))
  .map(([first, rest]) => first + rest.map(([r, n]) => r + n).join(""));
const expression = fc.oneof(
  fc
    .tuple(
      ident,
      fc.constantFrom(".w", ".s", ".kind", ".id", ""),
      fc.constantFrom(" > ", " = ", " <> ", " IN ", " STARTS WITH ", " =~ ", " IS NULL", " CONTAINS "),
      fc.constantFrom("1", "'a'", "[1, 2]", "$p", "null", "'(a+)+$'", ""),
    )
    .map((p) => p.join("")),
  fc.string({ maxLength: 10 }),
);
const cypherQuery = fc
  .tuple(
    fc.constantFrom("MATCH ", "OPTIONAL MATCH ", "MATCH p = ", "match "),
    pattern,
    fc.option(
      expression.map((e) => ` WHERE ${e}`),
      { nil: "" },
    ),
    fc.constantFrom(
      " RETURN a",
      " RETURN a, b",
      " RETURN count(*)",
      " RETURN a.w AS w ORDER BY w DESC",
      " RETURN DISTINCT a.s",
      " WITH a RETURN a",
      " RETURN *",
      " RETURN a LIMIT 2",
      " RETURN a SKIP -1",
      " RETURN collect(a)",
      " UNWIND [1,2] AS z RETURN z",
      " CALL db.labels()",
      "",
    ),
  )
  .map((parts) => parts.join(""));
const cypher = fc.oneof(
  { weight: 4, arbitrary: cypherQuery },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(cypherQuery, fc.nat(), fc.nat({ max: 4 }), fc.string({ maxLength: 3 }))
      .map(([q, at, cut, ins]) => q.slice(0, at % (q.length + 1)) + ins + q.slice((at % (q.length + 1)) + cut)),
  },
);

/** Queries of the right shape with fuzzed values, so that many cases run to an answer (not only to validation). */
const wellFormed = fc.oneof(
  fc
    .tuple(
      fc.constantFrom("x", "y", "z"),
      fc.constantFrom("forward", "reverse", "undirected"),
      fc.integer({ min: 1, max: 3 }),
      fc.double({ min: -1, max: 4, noNaN: true }),
    )
    .map(([kind, direction, hops, w]) => [
      { type: "Node", filter_dict: {} },
      { type: "Edge", direction, hops, edge_match: { kind } },
      { type: "Node", filter_dict: {} },
      ...(w > 2 ? [{ type: "Edge", direction: "forward", edge_match: { w: { type: "GT", val: w } } }] : []),
    ]),
  fc
    .tuple(
      fc.constantFrom("-", "<-"),
      fc.constantFrom("->", "-"),
      fc.integer({ min: -1, max: 4 }),
      fc.constantFrom("a", "b", "a, b", "count(*) AS n"),
    )
    .map(([l, r, w, out]) => `MATCH (a)${l}[e]${r === "->" && l === "<-" ? "-" : r}(b) WHERE e.w > ${w} RETURN ${out}`),
);

const graphql = (query: string, variables: Record<string, unknown>) =>
  new Request("http://gateway.test/graphql", {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${world.user}` },
    body: JSON.stringify({ query, variables }),
  });

const GFQL = `query($d: ID, $s: ID, $q: JSON!, $o: GfqlOutput, $st: GfqlStrictness, $l: Int) {
  gfql(datasetId: $d, sessionId: $s, query: $q, output: $o, strictness: $st, limit: $l) { nodeCount edgeCount nodes edges } }`;

describe("GFQL fuzzing", () => {
  it("JSON chains and Cypher strings through GraphQL, on a dataset and on a session", async () => {
    let answered = 0;
    const target = fc.constantFrom({ d: world.datasetId }, { s: world.sessionId });
    const options = fc.record(
      {
        o: fc.constantFrom("all", "nodes", "edges", "shape"),
        st: fc.constantFrom("default", "strict", "lenient"),
        l: fc.integer({ min: -1, max: 100 }),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(fc.oneof(wellFormed, gfqlJson, cypher), target, options, async (query, where, opts) => {
        const answer = await probe(world, graphql(GFQL, { ...where, ...opts, q: query }), JSON.stringify(query).slice(0, 160));
        if (answer.text.includes('"nodeCount"')) answered += 1;
      }),
      { seed: FUZZ_SEED, numRuns: runs(200) },
    );
    // Not every case stops at validation: some run to an answer.
    expect(answered).toBeGreaterThan(10);
  });

  it("the REST route with fuzzed bodies", async () => {
    const body = fc.record(
      {
        gfql_query: fc.oneof(gfqlJson, cypher),
        gfql_operations: chain,
        format: fc.constantFrom("json", "csv", "parquet", "arrow", "x"),
        engine: fc.constantFrom("pandas", "cudf", "auto", 3),
        strictness: fc.constantFrom("default", "strict", null),
        params: fc.dictionary(fc.string({ maxLength: 3 }), scalar, { maxKeys: 2 }),
      },
      { requiredKeys: [] },
    );
    const output = fc.constantFrom("all", "nodes", "edges", "shape");
    await fc.assert(
      fc.asyncProperty(body, output, async (payload, out) => {
        const request = new Request(`http://gateway.test/api/v2/etl/datasets/${world.datasetId}/gfql/${out}`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${world.user}` },
          body: JSON.stringify(payload),
        });
        await probe(world, request, JSON.stringify(payload).slice(0, 160));
      }),
      { seed: FUZZ_SEED, numRuns: runs(200) },
    );
  });

  it("the service is healthy afterwards", async () => {
    await expectHealthy(world);
  });
});
