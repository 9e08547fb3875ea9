// bench/gfql: GFQL over a 5M-edge graph against DuckDB answering the same questions in SQL over the same data.
// Run: npm install --prefix .tools/duckdb @duckdb/node-api@1.5.6-r.1 && node bench/gfql.ts [edges] [rounds]
// (defaults 5000000 and 5). DuckDB is not a dependency (its registry package lists platform builds the registry
// lacks, breaking npm ci).
//
// Like with like: each question is one SQL statement whose intermediate results are MATERIALIZED CTEs (as DuckDB's
// documentation recommends for a result read more than once), and both sides produce the same output: the matched
// node rows and edge rows with every column (GFQL as two polars frames, DuckDB as one materialized result holding
// both, kept in DuckDB's memory). A check outside the timings compares the counts and the sums of the ids. Runs are
// interleaved (round by round, query by query, the side that goes first alternating), the first run of each query
// is reported beside the best, and the load average is printed before and after.

import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import pl from "nodejs-polars";
import { executeGfql, type GfqlGraph } from "../src/gfql/execute.ts";
import { idleReads } from "../src/gfql/fast/columns.ts";
import { graphIndex, keepFrame } from "../src/gfql/fast/graph-index.ts";
import { parseGfql } from "../src/gfql/parse.ts";
import { warmGfqlEngine } from "../src/gfql/warm-up.ts";
import { loadAverageLine } from "./load-average.ts";

const EDGES = Number(process.argv[2] ?? 5_000_000);
const ROUNDS = Math.max(2, Number(process.argv[3] ?? 5));
const NODES = Math.max(10, Math.floor(EDGES / 10));
const require = createRequire(path.resolve(".tools/duckdb/node_modules/"));
type Connection = {
  run(sql: string): Promise<{ rowCount: number }>;
  runAndReadAll(sql: string): Promise<{ getRows(): unknown[][] }>;
};
const duckdb = require("@duckdb/node-api") as {
  DuckDBInstance: { create(path: string): Promise<{ connect(): Promise<Connection> }> };
};

function graph(): { nodes: pl.DataFrame; edges: pl.DataFrame } {
  let seed = 7;
  const next = () => {
    // 32-bit arithmetic: a plain multiply would lose precision past 2^53 and repeat values.
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed / 4294967296;
  };
  const kinds = ["a", "b", "c", "d", "e"];
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
      Array.from({ length: NODES }, () => kinds[Math.floor(next() * kinds.length)] ?? "a"),
    ),
    // a name as people give them: a word and a number in hex (about one in 1,500 contains "abc")
    pl.Series(
      "name",
      Array.from({ length: NODES }, (_, i) => `user-${Math.floor(next() * 0xffffff).toString(16)}-${i}`),
    ),
  ]);
  const edges = pl.DataFrame([
    pl.Series(
      "eid",
      Array.from({ length: EDGES }, (_, i) => i),
      pl.Int64,
    ),
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
  return { nodes, edges };
}

/** One question in SQL: CTEs ending in `mn` (the matched node rows) and `me` (the matched edge rows). */
type Case = { name: string; gfql: unknown; ctes: string[] };

const m = (name: string, body: string) => `${name} AS MATERIALIZED (${body})`;
/** The node rows at either end of the edges of `me` (GFQL keeps exactly those on these queries). */
const endpointsOf = (me: string, nodes = "nodes", name = "mn") =>
  m(name, `SELECT n.* FROM ${nodes} n SEMI JOIN (SELECT src AS id FROM ${me} UNION SELECT dst FROM ${me}) x ON n.id = x.id`);
const noEdges = m("me", "SELECT * FROM edges LIMIT 0");

/** The statement timed: every matched node row and edge row, in one result (columns by name, the other side's null). */
const output = (ctes: string[]) =>
  `WITH ${ctes.join(",\n")} SELECT 'node' AS part, * FROM mn UNION ALL BY NAME SELECT 'edge' AS part, * FROM me`;
/** The check, outside the timings: counts and id sums of both sides. */
const check = (ctes: string[]) =>
  `WITH ${ctes.join(",\n")} SELECT (SELECT count(*) FROM mn), (SELECT coalesce(sum(id), 0) FROM mn), (SELECT count(*) FROM me), (SELECT coalesce(sum(eid), 0) FROM me)`;

// Edges leaving a node set `f` (a CTE with an id column), by a semi join: DuckDB's own idiom for IN (subquery).
const out = (f: string, edges = "edges") => `SELECT e.* FROM ${edges} e SEMI JOIN ${f} ON e.src = ${f}.id`;
const into = (f: string, edges = "edges") => `SELECT e.* FROM ${edges} e SEMI JOIN ${f} ON e.dst = ${f}.id`;

const CASES: Case[] = [
  {
    name: "node filter (score > 0.9)",
    gfql: [{ type: "Node", filter_dict: { score: { type: "GT", val: 0.9 } } }],
    ctes: [m("mn", "SELECT * FROM nodes WHERE score > 0.9"), noEdges],
  },
  {
    name: "1 hop with predicates",
    gfql: [
      { type: "Node", filter_dict: { kind: "a" } },
      { type: "Edge", direction: "forward", hops: 1, edge_match: { w: { type: "GT", val: 0.5 } } },
      { type: "Node", filter_dict: { score: { type: "GT", val: 0.5 } } },
    ],
    ctes: [
      m(
        "me",
        "SELECT e.* FROM edges e JOIN nodes s ON e.src = s.id JOIN nodes d ON e.dst = d.id WHERE s.kind = 'a' AND e.w > 0.5 AND d.score > 0.5",
      ),
      endpointsOf("me"),
    ],
  },
  {
    name: "2-hop chain with predicates",
    gfql: [
      { type: "Node", filter_dict: { kind: "a" } },
      { type: "Edge", direction: "forward", hops: 1, edge_match: { w: { type: "GT", val: 0.5 } } },
      { type: "Node", filter_dict: {} },
      { type: "Edge", direction: "forward", hops: 1, edge_match: { w: { type: "GT", val: 0.5 } } },
      { type: "Node", filter_dict: { score: { type: "GT", val: 0.9 } } },
    ],
    // first edges from kind a (w > 0.5) whose far end starts a second edge (w > 0.5) into score > 0.9, and those
    ctes: [
      m("h1", "SELECT e.* FROM edges e JOIN nodes s ON e.src = s.id WHERE s.kind = 'a' AND e.w > 0.5"),
      m("h2", "SELECT e.* FROM edges e JOIN nodes d ON e.dst = d.id WHERE e.w > 0.5 AND d.score > 0.9"),
      m("k1", "SELECT h1.* FROM h1 SEMI JOIN h2 ON h1.dst = h2.src"),
      m("k2", "SELECT h2.* FROM h2 SEMI JOIN k1 ON h2.src = k1.dst"),
      m("me", "SELECT * FROM k1 UNION SELECT * FROM k2"),
      endpointsOf("me"),
    ],
  },
  {
    name: "3 undirected hops from 10 seeds",
    gfql: [
      { type: "Node", filter_dict: { id: { type: "LT", val: 10 } } },
      { type: "Edge", direction: "undirected", hops: 3 },
      { type: "Node", filter_dict: {} },
    ],
    // every edge touching the frontier, three times; each hop's edges hold the hop before's, so the last is all
    ctes: [
      m("f0", "SELECT id FROM nodes WHERE id < 10"),
      m("t1", `${out("f0")} UNION ${into("f0")}`),
      m("f1", "SELECT src AS id FROM t1 UNION SELECT dst FROM t1"),
      m("t2", `${out("f1")} UNION ${into("f1")}`),
      m("f2", "SELECT src AS id FROM t2 UNION SELECT dst FROM t2"),
      m("me", `${out("f2")} UNION ${into("f2")}`),
      endpointsOf("me"),
    ],
  },
  {
    name: "Let with two Refs",
    gfql: {
      type: "Let",
      bindings: {
        start: { type: "Node", filter_dict: { kind: "a" } },
        out: { type: "Ref", ref: "start", chain: [{ type: "Node", filter_dict: { score: { type: "GT", val: 0.5 } } }] },
        top: { type: "Ref", ref: "out", chain: [{ type: "Node", filter_dict: { score: { type: "GT", val: 0.9 } } }] },
      },
    },
    ctes: [m("mn", "SELECT * FROM nodes WHERE kind = 'a' AND score > 0.9"), noEdges],
  },
  {
    name: "text contains, then 1 hop",
    gfql: [
      { type: "Node", filter_dict: { name: { type: "Contains", pat: "abc" } } },
      { type: "Edge", direction: "forward", hops: 1 },
      { type: "Node", filter_dict: {} },
    ],
    ctes: [m("f0", "SELECT id FROM nodes WHERE contains(name, 'abc')"), m("me", out("f0")), endpointsOf("me")],
  },
  {
    name: "2 hops from 1,000 seeds",
    gfql: [
      { type: "Node", filter_dict: { id: { type: "LT", val: 1000 } } },
      { type: "Edge", direction: "forward", hops: 2 },
      { type: "Node", filter_dict: {} },
    ],
    ctes: [
      m("f0", "SELECT id FROM nodes WHERE id < 1000"),
      m("t1", out("f0")),
      m("f1", "SELECT DISTINCT dst AS id FROM t1"),
      m("me", `SELECT * FROM t1 UNION ${out("f1")}`),
      endpointsOf("me"),
    ],
  },
  {
    name: "Let, overlapping bindings",
    // `near` is the 1-hop neighbourhood of 2,000 seeds; `inner` the kind-a to score > 0.5 edges within it
    gfql: {
      type: "Let",
      bindings: {
        near: {
          type: "Chain",
          chain: [
            { type: "Node", filter_dict: { id: { type: "LT", val: 2000 } } },
            { type: "Edge", direction: "forward", hops: 1, edge_match: { w: { type: "GT", val: 0.5 } } },
            { type: "Node", filter_dict: {} },
          ],
        },
        inner: {
          type: "Ref",
          ref: "near",
          chain: [
            { type: "Node", filter_dict: { kind: "a" } },
            { type: "Edge", direction: "forward", hops: 1 },
            { type: "Node", filter_dict: { score: { type: "GT", val: 0.5 } } },
          ],
        },
      },
    },
    ctes: [
      m("f0", "SELECT id FROM nodes WHERE id < 2000"),
      m("near_e", `SELECT * FROM (${out("f0")}) WHERE w > 0.5`),
      endpointsOf("near_e", "nodes", "near_n"),
      m("me", "SELECT e.* FROM near_e e JOIN near_n s ON e.src = s.id JOIN near_n d ON e.dst = d.id WHERE s.kind = 'a' AND d.score > 0.5"),
      endpointsOf("me", "near_n"),
    ],
  },
];

const loadLine = loadAverageLine();
const work = await mkdtemp(path.join(os.tmpdir(), "bench-gfql-"));
try {
  const { nodes, edges } = graph();
  nodes.writeParquet(path.join(work, "nodes.parquet"));
  edges.writeParquet(path.join(work, "edges.parquet"));
  const db = await (await duckdb.DuckDBInstance.create(":memory:")).connect();
  await db.run(`CREATE TABLE nodes AS SELECT * FROM read_parquet('${path.join(work, "nodes.parquet")}')`);
  await db.run(`CREATE TABLE edges AS SELECT * FROM read_parquet('${path.join(work, "edges.parquet")}')`);
  // As in the service, whose dataset tables are materialized (every endpoint id here is a node id).
  const g: GfqlGraph = { nodes, edges, nodeId: "id", source: "src", destination: "dst", endpointsInNodes: true };
  // As the service's query workers do with the tables they keep: the adjacency index is built once, with the
  // first query the fast path takes (here up front, timed on its own).
  keepFrame(nodes);
  keepFrame(edges);
  const indexStart = performance.now();
  graphIndex({ nodes, nodeId: "id", source: "src", destination: "dst" }, edges);
  const indexMs = performance.now() - indexStart;

  if (process.env.BENCH_GFQL_COLD !== "1") console.log(`warm-up: ${warmGfqlEngine()} queries`);
  const queries = CASES.map((c) => parseGfql(c.gfql));
  const gfqlMs = CASES.map(() => [] as number[]);
  const duckMs = CASES.map(() => [] as number[]);
  const found = CASES.map(() => "");
  const duckFound = CASES.map(() => "");
  const time = async (run: () => unknown) => {
    const start = performance.now();
    await run();
    return performance.now() - start;
  };
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, c] of CASES.entries()) {
      const query = queries[i] as ReturnType<typeof parseGfql>;
      const gfql = async () => {
        let result: ReturnType<typeof executeGfql> | undefined;
        const ms = await time(() => {
          result = executeGfql(g, query);
        });
        gfqlMs[i]?.push(ms);
        // A column a query tested through polars is read into JavaScript once the thread is idle (columns.ts), as in
        // a query worker between two questions: done here before the next timing, not during DuckDB's.
        await idleReads();
        if (round === 0 && result) {
          const sum = (f: pl.DataFrame, col: string) => (f.height === 0 ? 0 : Number(f.getColumn(col).sum()));
          found[i] = `${result.nodes.height} ${sum(result.nodes, "id")} ${result.edges.height} ${sum(result.edges, "eid")}`;
        }
      };
      const duck = async () => {
        duckMs[i]?.push(await time(() => db.run(output(c.ctes))));
      };
      // the side that goes first alternates from round to round (and from query to query)
      if ((round + i) % 2 === 0) {
        await gfql();
        await duck();
      } else {
        await duck();
        await gfql();
      }
    }
  }
  for (const [i, c] of CASES.entries()) {
    const row = (await db.runAndReadAll(check(c.ctes))).getRows()[0] ?? [];
    duckFound[i] = row.map((v) => Number(v)).join(" ");
  }

  const best = (xs: number[]) => Math.min(...xs);
  const fmt = (ms: number) => `${ms.toFixed(0)} ms`;
  console.log(
    `gfql benchmark: ${EDGES.toLocaleString("en-US")} edges, ${NODES.toLocaleString("en-US")} nodes, ${os.cpus().length} cores, node ${process.version}, ${ROUNDS} interleaved rounds`,
  );
  console.log(loadLine());
  console.log(`adjacency index: built once in ${indexMs.toFixed(0)} ms (kept with the tables, like the query workers' table cache)`);
  console.log("| query | nodes / edges | DuckDB agrees | GFQL first | DuckDB first | first ratio | GFQL best | DuckDB best | best ratio |");
  console.log("|---|---|---|---:|---:|---:|---:|---:|---:|");
  for (const [i, c] of CASES.entries()) {
    const gs = gfqlMs[i] as number[];
    const ds = duckMs[i] as number[];
    const [n, , e] = (found[i] ?? "").split(" ");
    const same = found[i] === duckFound[i] ? "yes" : `no (DuckDB: ${duckFound[i]}, GFQL: ${found[i]})`;
    console.log(
      `| ${[
        c.name,
        `${n} / ${e}`,
        same,
        fmt(gs[0] as number),
        fmt(ds[0] as number),
        `${((gs[0] as number) / (ds[0] as number)).toFixed(2)}x`,
        fmt(best(gs)),
        fmt(best(ds)),
        `${(best(gs) / best(ds)).toFixed(2)}x`,
      ].join(" | ")} |`,
    );
  }
} finally {
  await rm(work, { recursive: true, force: true });
}
