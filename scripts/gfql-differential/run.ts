// Differential run of our GFQL engines against pygraphistry's own (scripts/gfql-differential/pygraphistry_run.py):
// seeded random graphs and chains (node predicates, hops in every direction, endpoint matches, names), each query
// run by both of our engines and by pygraphistry, node ids, edge ids and named marks compared.
//
//   node scripts/gfql-differential/run.ts --pygraphistry DIR [--seeds 1-20] [--focus plain|min-hops|predicates|calls|cypher|labels|let|where] [--show 5]
//
// --focus predicates: one-step chains filtering one column of a table of every kind (predicates.ts).
// --focus calls: graph Calls (degrees, filters, materialize_nodes, hop, ...) alone, chained and in Lets (calls.ts).
// --focus cypher: MATCH ... WHERE ... RETURN queries from templates, rows compared (cypher.ts).
// --focus labels: hop labels and output slicing on one Edge step, label columns compared (labels.ts).
// --focus let: Lets of node filters, chains and Refs (of Refs) to earlier bindings (lets.ts).
// --focus where: chains of named steps with same-path `where` comparisons (wheres.ts).
//
// DIR holds pygraphistry's `graphistry/` package (a checkout; the `fetch` tool's snapshot works). Not part of
// `npm test`: pygraphistry is not on Debian or npm. Exit status 0 whatever it finds; it prints what differs.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import pl from "nodejs-polars";
import { parseCypher } from "../../src/gfql/cypher/index.ts";
import { executeGfql } from "../../src/gfql/execute.ts";
import { parseGfql } from "../../src/gfql/parse.ts";
import { generateCallCase } from "./calls.ts";
import { generateCypherCase } from "./cypher.ts";
import { generateLabelCase } from "./labels.ts";
import { generateLetCase } from "./lets.ts";
import { generatePredicateCase } from "./predicates.ts";
import { seeded } from "./seeded.ts";
import { generateWhereCase } from "./wheres.ts";

const { values } = parseArgs({
  options: {
    pygraphistry: { type: "string" },
    seeds: { type: "string", default: "1-20" },
    focus: { type: "string", default: "plain" },
    show: { type: "string", default: "5" },
  },
});
if (!values.pygraphistry) throw new Error("--pygraphistry DIR: a pygraphistry checkout (the folder holding graphistry/)");
const [from, to] = (values.seeds as string).split("-").map(Number) as [number, number];

type Case = {
  nodes: Record<string, unknown[]>;
  edges: Record<string, unknown[]>;
  queries: unknown[];
  names: string[];
  /** Node columns of ISO text read as naive and as UTC datetimes (nanoseconds, as pandas holds them). */
  datetimes?: string[];
  datetimesUtc?: string[];
  /** Node columns compared value by value (id=value, sorted), where the answer has them. */
  columns?: string[];
  /** Edge columns compared value by value (eid=value, sorted), where the answer has them. */
  edgeColumns?: string[];
  /** Cypher cases: the queries are Cypher text, answered as rows; in order where the query orders every column. */
  ordered?: boolean[];
};
type Answer =
  | { nodes: string[]; edges: string[]; named: Record<string, string[]>; columns?: Record<string, string[]> }
  | { header: string[]; rows: string[] }
  | { error: string };

/** A cell as both sides print it: null for missing (NaN included), numbers by value. */
function cell(v: unknown): unknown {
  if (v === null || v === undefined || (typeof v === "number" && Number.isNaN(v))) return null;
  if (typeof v === "number" || typeof v === "bigint") return Number(v);
  return v;
}

/** A Cypher answer: its header and rows (sorted unless the query orders them). */
function rowsOf(frame: pl.DataFrame, ordered: boolean): Answer {
  const header = frame.columns;
  const rows = frame.toRecords().map((r) => JSON.stringify(header.map((h) => cell(r[h]))));
  return { header, rows: ordered ? rows : rows.sort() };
}

function generate(seed: number, focus: string): Case {
  const { rnd, int, pick } = seeded(seed);
  const types = ["person", "company", "bot"];
  const words = ["alpha", "Beta", "gamma", "delta", "alp", "x-1", "Zed"];
  const n = int(3, 12);
  const nodes = {
    id: [] as string[],
    type: [] as string[],
    score: [] as (number | null)[],
    k: [] as number[],
    name: [] as (string | null)[],
  };
  for (let i = 0; i < n; i++) {
    nodes.id.push(`n${i}`);
    nodes.type.push(pick(types));
    nodes.score.push(rnd() < 0.15 ? null : Math.round(rnd() * 100) / 10);
    nodes.k.push(int(0, 9));
    nodes.name.push(i > 0 && rnd() < 0.15 ? null : pick(words));
  }
  const m = int(1, 24);
  const edges = { eid: [] as string[], s: [] as string[], d: [] as string[], rel: [] as string[], w: [] as number[] };
  for (let j = 0; j < m; j++) {
    edges.eid.push(`e${j}`);
    edges.s.push(`n${int(0, n - 1)}`);
    edges.d.push(`n${int(0, n - 1)}`);
    edges.rel.push(pick(["x", "y", "z"]));
    edges.w.push(int(1, 5));
  }
  const numPred = (): unknown =>
    pick([
      { type: "GT", val: int(0, 9) },
      { type: "LE", val: int(0, 9) },
      { type: "NE", val: int(0, 9) },
      { type: "Between", lower: int(0, 4), upper: int(4, 9), inclusive: rnd() < 0.5 },
      { type: "IsIn", options: [int(0, 9), int(0, 9)] },
      { type: "IsNA" },
      { type: "NotNA" },
    ]);
  const strPred = (): unknown =>
    pick([
      { type: "Contains", pat: pick(["al", "a", "-"]), case: rnd() < 0.7, regex: false },
      { type: "Startswith", pat: pick(["al", "B"]), case: rnd() < 0.7 },
      { type: "IsIn", options: [pick(words), pick(words)] },
      { type: "IsNull" },
      pick(words),
    ]);
  const filter = (): Record<string, unknown> =>
    pick([{}, {}, { type: pick(types) }, { score: numPred() }, { k: numPred() }, { name: strPred() }]);
  const names: string[] = [];
  const named = (step: Record<string, unknown>, prefix: string) => {
    if (rnd() < 0.25) {
      const name = `${prefix}${names.length}`;
      names.push(name);
      step.name = name;
    }
    return step;
  };
  const nodeStep = () => named({ type: "Node", filter_dict: filter() }, "a");
  const edgeStep = () => {
    const step: Record<string, unknown> = {
      type: "Edge",
      direction: pick(["forward", "reverse", "undirected"]),
      edge_match: pick([{}, {}, { rel: pick(["x", "y"]) }]),
    };
    const h = int(0, 5);
    if (focus === "min-hops") Object.assign(step, { hops: null, min_hops: 2, max_hops: int(2, 3) });
    else if (h <= 2) step.hops = 1;
    else if (h === 3) step.hops = int(2, 3);
    else if (h === 4) Object.assign(step, { hops: null, to_fixed_point: true });
    else step.hops = 1;
    if (rnd() < 0.2) step.source_node_match = filter();
    if (rnd() < 0.2) step.destination_node_match = filter();
    return named(step, "b");
  };
  const queries: unknown[] = [];
  for (let q = 0; q < 30; q++) {
    const chain: unknown[] = [nodeStep()];
    for (let i = int(1, 3); i > 0; i--) {
      chain.push(edgeStep());
      if (rnd() < 0.8) chain.push(nodeStep());
    }
    queries.push({ type: "Chain", chain });
  }
  return { nodes, edges, queries, names };
}

/** The case's node table, its datetime columns read as pandas' pd.to_datetime reads them. */
function nodeFrame(c: Case): pl.DataFrame {
  const nodes = pl.DataFrame(c.nodes);
  // Wall-clock text as milliseconds since the epoch, then nanoseconds (read as UTC: a naive column keeps its wall clock).
  const read = (column: string, zone?: string) => {
    const ms = (c.nodes[column] as (string | null)[]).map((x) => (x === null ? null : Date.parse(`${x}Z`)));
    return pl.Series(column, ms, pl.Int64).cast(pl.Datetime("ms")).cast(pl.Datetime("ns", zone));
  };
  return nodes.withColumns(...(c.datetimes ?? []).map((x) => read(x)), ...(c.datetimesUtc ?? []).map((x) => read(x, "UTC")));
}

function ours(c: Case, engine: "polars" | "index"): Answer[] {
  // As the service runs queries on a dataset: its node table holds every endpoint (the generators make sure of it).
  const graph = { nodes: nodeFrame(c), edges: pl.DataFrame(c.edges), nodeId: "id", source: "s", destination: "d", endpointsInNodes: true };
  const trueIds = (f: pl.DataFrame, key: string, col: string) => {
    const flags = f.getColumn(col).toArray() as unknown[];
    return (f.getColumn(key).toArray() as unknown[])
      .filter((_, i) => flags[i] === true)
      .map(String)
      .sort();
  };
  return c.queries.map((q, i) => {
    try {
      if (c.ordered) return rowsOf(executeGfql(graph, parseCypher(q as string), engine, {}).nodes, c.ordered[i] === true);
      const r = executeGfql(graph, parseGfql(q), engine, {});
      const named: Record<string, string[]> = {};
      for (const name of c.names) {
        if (r.nodes.columns.includes(name)) named[`n:${name}`] = trueIds(r.nodes, "id", name);
        if (r.edges.columns.includes(name)) named[`e:${name}`] = trueIds(r.edges, "eid", name);
      }
      const ids = (f: pl.DataFrame, col: string) =>
        f.columns.includes(col) ? (f.getColumn(col).toArray() as unknown[]).map(String).sort() : [];
      const answer: Answer = { nodes: ids(r.nodes, "id"), edges: ids(r.edges, "eid"), named };
      if (c.columns) {
        const columns: Record<string, string[]> = {};
        const read = (frame: pl.DataFrame, keyColumn: string, names: string[], prefix: string) => {
          for (const name of names) {
            if (!frame.columns.includes(name) || !frame.columns.includes(keyColumn)) continue;
            const values = frame.getColumn(name).toArray() as unknown[];
            const keys = frame.getColumn(keyColumn).toArray() as unknown[];
            columns[prefix + name] = keys
              .map((k, i) => `${String(k)}=${cell(values[i]) === null ? "null" : String(Number(values[i]))}`)
              .sort();
          }
        };
        read(r.nodes, "id", c.columns, "");
        read(r.edges, "eid", c.edgeColumns ?? [], "e:");
        answer.columns = columns;
      }
      return answer;
    } catch (error) {
      return { error: (error as Error).message.slice(0, 200) };
    }
  });
}

const dir = mkdtempSync(path.join(tmpdir(), "gfql-differential-"));
const script = path.join(import.meta.dirname, "pygraphistry_run.py");
const counts = { queries: 0, same: 0, differ: 0, theyRefuse: 0, weRefuse: 0, enginesDisagree: 0 };
const shown: string[] = [];
try {
  for (let seed = from; seed <= to; seed++) {
    const c: Case =
      values.focus === "predicates"
        ? generatePredicateCase(seed)
        : values.focus === "calls"
          ? generateCallCase(seed)
          : values.focus === "cypher"
            ? generateCypherCase(seed)
            : values.focus === "labels"
              ? generateLabelCase(seed)
              : values.focus === "let"
                ? generateLetCase(seed)
                : values.focus === "where"
                  ? generateWhereCase(seed)
                  : generate(seed, values.focus as string);
    const casePath = path.join(dir, `case${seed}.json`);
    const outPath = path.join(dir, `out${seed}.json`);
    writeFileSync(casePath, JSON.stringify(c));
    execFileSync("/usr/bin/python3", [script, values.pygraphistry as string, casePath, outPath], { stdio: "inherit" });
    const theirs = JSON.parse(readFileSync(outPath, "utf8")) as Answer[];
    const [slow, fast] = [ours(c, "polars"), ours(c, "index")];
    theirs.forEach((t, i) => {
      counts.queries++;
      const a = slow[i] as Answer;
      if (JSON.stringify(a) !== JSON.stringify(fast[i])) {
        counts.enginesDisagree++;
        shown.push(
          `seed ${seed} query ${i}: our engines disagree: ${JSON.stringify(c.queries[i])}\n  polars ${JSON.stringify(a)}\n  index  ${JSON.stringify(fast[i])}`,
        );
      }
      const show = (what: string) => {
        if (shown.length < Number(values.show))
          shown.push(
            `seed ${seed} query ${i}${what}: ${JSON.stringify(c.queries[i])}\n  pygraphistry ${JSON.stringify(t)}\n  ours         ${JSON.stringify(a)}`,
          );
      };
      if ("error" in t || "error" in a) {
        if ("error" in t && "error" in a) counts.same++;
        else if ("error" in t) {
          counts.theyRefuse++;
          show(" (pygraphistry refuses)");
        } else {
          counts.weRefuse++;
          show(" (we refuse)");
        }
      } else if (JSON.stringify(t) === JSON.stringify(a)) counts.same++;
      else {
        counts.differ++;
        show("");
      }
    });
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
for (const s of shown) console.log(s);
console.log(JSON.stringify(counts));
