// bench/gfql: GFQL over a 5M-edge graph against DuckDB answering the same questions in SQL over the same data.
// Run: npm install --prefix .tools/duckdb @duckdb/node-api@1.5.6-r.1 && node bench/gfql.ts [edges]   (default 5000000)
// DuckDB is not a dependency (its registry package lists platform builds the registry lacks, breaking npm ci).

import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import pl from "nodejs-polars";
import { executeGfql, type GfqlGraph } from "../src/gfql/execute.ts";
import { graphIndex, keepFrame } from "../src/gfql/fast/graph-index.ts";
import { parseGfql } from "../src/gfql/parse.ts";

const EDGES = Number(process.argv[2] ?? 5_000_000);
const NODES = Math.max(10, Math.floor(EDGES / 10));
const require = createRequire(path.resolve(".tools/duckdb/node_modules/"));
const duckdb = require("@duckdb/node-api") as {
  DuckDBInstance: {
    create(path: string): Promise<{
      connect(): Promise<{ run(sql: string): Promise<unknown>; runAndReadAll(sql: string): Promise<{ getRows(): unknown[][] }> }>;
    }>;
  };
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

type Case = { name: string; gfql: unknown; sql: { nodes: string; edges: string } };

const e1 =
  "SELECT e.* FROM edges e JOIN nodes s ON e.src = s.id JOIN nodes d ON e.dst = d.id WHERE s.kind = 'a' AND e.w > 0.5 AND d.score > 0.5";
const endpoints = (from: string) => `SELECT count(*) FROM (SELECT src AS x FROM (${from}) UNION SELECT dst FROM (${from}))`;
// Two hops, pruned: first edges from kind a (w > 0.5) whose far end starts a second edge (w > 0.5) into score > 0.9.
const hopA = "SELECT e.* FROM edges e JOIN nodes s ON e.src = s.id WHERE s.kind = 'a' AND e.w > 0.5";
const hopB = "SELECT e.* FROM edges e JOIN nodes d ON e.dst = d.id WHERE e.w > 0.5 AND d.score > 0.9";
const twoHop = `SELECT * FROM (${hopA}) WHERE dst IN (SELECT src FROM (${hopB})) UNION SELECT * FROM (${hopB}) WHERE src IN (SELECT dst FROM (${hopA}) WHERE dst IN (SELECT src FROM (${hopB})))`;
// Three undirected hops from ten seed nodes: every edge touching the frontier, three times.
const seeds = "SELECT id FROM nodes WHERE id < 10";
const touch = (frontier: string) => `SELECT * FROM edges WHERE src IN (${frontier}) OR dst IN (${frontier})`;
const reach = (edges: string) => `SELECT src AS id FROM (${edges}) UNION SELECT dst FROM (${edges})`;
const h1 = touch(seeds);
const h2 = touch(reach(h1));
const h3 = touch(reach(h2));
const threeHop = `${h1} UNION ${h2} UNION ${h3}`;

const CASES: Case[] = [
  {
    name: "node filter (score > 0.9)",
    gfql: [{ type: "Node", filter_dict: { score: { type: "GT", val: 0.9 } } }],
    sql: { nodes: "SELECT count(*) FROM nodes WHERE score > 0.9", edges: "SELECT 0" },
  },
  {
    name: "1 hop with predicates",
    gfql: [
      { type: "Node", filter_dict: { kind: "a" } },
      { type: "Edge", direction: "forward", hops: 1, edge_match: { w: { type: "GT", val: 0.5 } } },
      { type: "Node", filter_dict: { score: { type: "GT", val: 0.5 } } },
    ],
    sql: { nodes: endpoints(e1), edges: `SELECT count(*) FROM (${e1})` },
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
    sql: { nodes: endpoints(twoHop), edges: `SELECT count(*) FROM (${twoHop})` },
  },
  {
    name: "3 undirected hops from 10 seeds",
    gfql: [
      { type: "Node", filter_dict: { id: { type: "LT", val: 10 } } },
      { type: "Edge", direction: "undirected", hops: 3 },
      { type: "Node", filter_dict: {} },
    ],
    sql: { nodes: `SELECT count(*) FROM (${reach(threeHop)})`, edges: `SELECT count(*) FROM (${threeHop})` },
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
    sql: { nodes: "SELECT count(*) FROM nodes WHERE kind = 'a' AND score > 0.5 AND score > 0.9", edges: "SELECT 0" },
  },
];

function best(run: () => unknown, times = 3): number {
  let fastest = Number.POSITIVE_INFINITY;
  for (let i = 0; i < times; i += 1) {
    const start = performance.now();
    run();
    fastest = Math.min(fastest, performance.now() - start);
  }
  return fastest;
}

async function bestAsync(run: () => Promise<unknown>, times = 3): Promise<number> {
  let fastest = Number.POSITIVE_INFINITY;
  for (let i = 0; i < times; i += 1) {
    const start = performance.now();
    await run();
    fastest = Math.min(fastest, performance.now() - start);
  }
  return fastest;
}

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
  const count = async (sql: string) => Number((await db.runAndReadAll(sql)).getRows()[0]?.[0] ?? 0);
  const lines: string[] = [];
  for (const c of CASES) {
    const query = parseGfql(c.gfql);
    const firstStart = performance.now();
    const result = executeGfql(g, query);
    const firstMs = performance.now() - firstStart;
    const gfqlMs = best(() => executeGfql(g, query));
    const [n, m] = [await count(c.sql.nodes), await count(c.sql.edges)];
    const duckMs = await bestAsync(async () => {
      await count(c.sql.nodes);
      await count(c.sql.edges);
    });
    const same = result.nodes.height === n && result.edges.height === m ? "yes" : `no (${n} / ${m})`;
    lines.push(
      [
        c.name,
        `${result.nodes.height} / ${result.edges.height}`,
        same,
        `${firstMs.toFixed(0)} ms`,
        `${gfqlMs.toFixed(0)} ms`,
        `${duckMs.toFixed(0)} ms`,
        `${(gfqlMs / duckMs).toFixed(2)}x`,
      ].join(" | "),
    );
  }
  console.log(
    `gfql benchmark: ${EDGES.toLocaleString("en-US")} edges, ${NODES.toLocaleString("en-US")} nodes, ${os.cpus().length} cores, node ${process.version}`,
  );
  console.log(`adjacency index: built once in ${indexMs.toFixed(0)} ms (kept with the tables, like the query workers' table cache)`);
  console.log("| query | nodes / edges | DuckDB agrees | GFQL first run | GFQL | DuckDB | ratio |");
  console.log("|---|---|---|---|---|---|---|");
  for (const line of lines) console.log(`| ${line} |`);
} finally {
  await rm(work, { recursive: true, force: true });
}
