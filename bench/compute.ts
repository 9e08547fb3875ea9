// bench/compute: every registered compute algorithm on seeded power-law graphs, on our OpenCL and CPU backends,
// python-igraph (/usr/bin/python3; the call alone is timed) and graphology where it has the algorithm; load and CSR
// build reported apart; memory beyond the tables against the CSR's size; the issue's targets with pass/fail.
// Run: node bench/compute.ts [--edges 1000000,5000000] [--only pagerank,louvain,...] [--cap 30] [--repeat 2]
//      [--medium 25000] [--small 1500] [--graphology-max-edges 1000000 | --no-graphology] [--graphology-cap 10]
//      [--pivots 0.08] [--cpu-prof] [--warm]
// --warm: memory is counted in a process that first ran the algorithm on a twentieth of the graph (see run-ours.ts).
// Every time is the best of --repeat calls (no further call once --cap seconds are spent); past the cap is "> cap".
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { resolveBackend } from "../src/compute/backend.ts";
import { ALGORITHMS } from "../src/compute/registry.ts";
import type { Backend } from "../src/compute/types.ts";
import { CASES, type Case, type Tier } from "./compute/cases.ts";
import { type BenchGraph, largestComponent, powerLawGraph, writeGraph } from "./compute/graph-file.ts";
import { LineServer, type Outcome } from "./compute/line-server.ts";
import { type Column, footnotes, formatMs, type Measure, ms, type Row, rowsTable, table } from "./compute/results.ts";
import type { OursReply, OursRequest } from "./compute/run-ours.ts";
import { spearman } from "./compute/stats.ts";
import { targets } from "./compute/targets.ts";
import { loadAverageLine } from "./load-average.ts";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const flag = (name: string) => args.includes(`--${name}`);
const option = (name: string, fallback: string) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 && args[at + 1] !== undefined ? (args[at + 1] as string) : fallback;
};
const SIZES = option("edges", "1000000,5000000").split(",").map(Number);
const ONLY = option("only", "").split(",").filter(Boolean);
const CAP_MS = Number(option("cap", "30")) * 1000;
const MEDIUM = Number(option("medium", "25000"));
/** Sampled betweenness: k = this fraction of the nodes (at least 50). */
const PIVOTS = Number(option("pivots", "0.08"));
const SMALL = Number(option("small", "1500"));
const REPEAT = Number(option("repeat", "2"));
/** graphology builds a JavaScript object per node and edge: past this many edges it is left out (time and memory). */
const GRAPHOLOGY_MAX = flag("no-graphology") ? 0 : Number(option("graphology-max-edges", "1000000"));
/** graphology's own cap (its HITS does not converge on these graphs and would spend the whole cap each time). */
const GRAPHOLOGY_CAP_MS = Number(option("graphology-cap", "10")) * 1000;
const PROFILE = flag("cpu-prof");
const WARM = flag("warm");
/** Ten nodes per edge on average in every graph (twenty edge ends per node). */
const nodesFor = (m: number) => Math.max(10, Math.floor(m / 10));

const work = mkdtempSync(path.join(os.tmpdir(), "bench-compute-"));
const profileDir = path.join(os.tmpdir(), "bench-compute-profiles");
if (PROFILE) mkdirSync(profileDir, { recursive: true });

/** A float64 file's values (copied: a Buffer's memory may be a larger, unaligned pool). */
const readFloats = (file: string) => new Float64Array(Uint8Array.from(readFileSync(file)).buffer);

type BenchFile = { label: string; tier: Tier[]; file: string; graph: BenchGraph };

function makeGraphs(): BenchFile[] {
  const files: BenchFile[] = [];
  const add = (label: string, tier: Tier[], graph: BenchGraph) => {
    const file = path.join(work, `${label}.bin`);
    writeGraph(file, graph);
    files.push({ label, tier, file, graph });
  };
  add("small", ["small"], largestComponent(powerLawGraph(SMALL, nodesFor(SMALL), 14_001)));
  add("medium", ["medium"], powerLawGraph(MEDIUM, nodesFor(MEDIUM), 14_002));
  const sorted = [...SIZES].sort((a, b) => a - b);
  sorted.forEach((m, i) => {
    add(m >= 1e6 ? `${m / 1e6}M` : `${m / 1e3}k`, i === 0 ? ["big", "first"] : ["big"], powerLawGraph(m, nodesFor(m), 14_000 + m));
  });
  return files;
}

const wanted = (c: Case) => ONLY.length === 0 || ONLY.some((o) => c.key === o || c.key.endsWith(`/${o}`) || c.title === o);

/** Every registered entry's cases (a default one, graph read as the entry allows, when the table has none). */
function planCases(): { cases: Case[]; unregistered: string[]; defaulted: string[] } {
  const cases: Case[] = [];
  const defaulted: string[] = [];
  for (const entry of ALGORITHMS) {
    const key = `${entry.library}/${entry.name}`;
    const mine = CASES.filter((c) => c.key === key);
    if (mine.length) cases.push(...mine);
    else {
      defaulted.push(key);
      cases.push({ key, tier: "first", directed: !entry.undirectedOnly, note: "no case in bench/compute/cases.ts: defaults" });
    }
  }
  const registered = new Set(ALGORITHMS.map((e) => `${e.library}/${e.name}`));
  const unregistered = [...new Set(CASES.map((c) => c.key))].filter((k) => !registered.has(k));
  return { cases: cases.filter(wanted), unregistered, defaulted };
}

type OursMeasure = Measure & { reply?: OursReply };

/** Runs our algorithm on each backend of the request in one child process (one CSR), each with its own cap. */
function runOurs(request: OursRequest): Map<string, OursMeasure> {
  const node = ["--expose-gc", "--max-old-space-size=16384"];
  if (PROFILE) {
    const name = `${request.key.replace("/", "-")}-${request.backends.join("-")}-${Date.now()}.cpuprofile`;
    node.push("--cpu-prof", `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=${name}`);
  }
  // The cap is checked inside (the context's checkCancelled); the kill is the backstop for a run that never checks.
  const child = spawnSync(process.execPath, [...node, path.join(HERE, "compute/run-ours.ts"), JSON.stringify(request)], {
    timeout: request.backends.length * (CAP_MS + 15_000) + 60_000,
    killSignal: "SIGKILL",
    encoding: "utf8",
    maxBuffer: 1 << 24,
  });
  const out = new Map<string, OursMeasure>();
  for (const line of (child.stdout ?? "").split("\n")) {
    if (!line.startsWith("{")) continue;
    const reply = JSON.parse(line) as OursReply;
    if (reply.viewMs !== undefined) {
      out.set("view", { state: "ok", ms: reply.viewMs });
      continue;
    }
    const backend = reply.backend ?? "all";
    if (reply.timedOut || (reply.ok && (reply.runMs ?? 0) > CAP_MS)) out.set(backend, { state: "timeout", capMs: CAP_MS });
    else if (!reply.ok) out.set(backend, { state: "error", message: reply.error ?? "failed" });
    else {
      const measure: OursMeasure = { state: "ok", ms: reply.runMs ?? 0, reply };
      if (reply.beyondBytes !== undefined) measure.beyond = reply.beyondBytes;
      if (reply.graphBytes !== undefined) measure.graph = reply.graphBytes;
      if (reply.csrBytes !== undefined) measure.csrBytes = reply.csrBytes;
      if (reply.modularity !== undefined) measure.modularity = reply.modularity;
      if (reply.communities !== undefined) measure.communities = reply.communities;
      out.set(backend, measure);
    }
  }
  const failed = out.get("all");
  for (const backend of request.backends) {
    if (out.has(backend)) continue;
    if (failed) out.set(backend, failed);
    else if (child.error && (child.error as NodeJS.ErrnoException).code === "ETIMEDOUT")
      out.set(backend, { state: "timeout", capMs: CAP_MS });
    else {
      const why = `exited ${child.signal ?? child.status}: ${(child.stderr ?? "").trim().split("\n").slice(-2).join(" | ")}`;
      out.set(backend, { state: "error", message: why });
    }
  }
  return out;
}

function fromServer(outcome: Outcome, capMs = CAP_MS): Measure {
  if ("timedOut" in outcome) return { state: "timeout", capMs };
  if ("crashed" in outcome) return { state: "error", message: outcome.crashed };
  const r = outcome.reply;
  if (!r.ok) return { state: "error", message: String(r.error) };
  if (Number(r.seconds) * 1000 > capMs) return { state: "timeout", capMs };
  const out: Measure = { state: "ok", ms: Number(r.seconds) * 1000 };
  if (typeof r.modularity === "number") out.modularity = r.modularity;
  if (typeof r.communities === "number") out.communities = r.communities;
  return out;
}

const python = new LineServer("/usr/bin/python3", [path.join(HERE, "compute/igraph_server.py")]);
const graphology = new LineServer(process.execPath, ["--max-old-space-size=16384", path.join(HERE, "compute/graphology-server.ts")]);
const LOAD_CAP_MS = 600_000;

/** Load times per graph: ours (tables, CSR), igraph's Graph, graphology's Graph; directed and undirected apart. */
const loads = new Map<string, Record<string, number>>();
const noteLoad = (graph: string, what: string, value: number | undefined) => {
  if (value === undefined || value <= 0) return;
  const entry = loads.get(graph) ?? {};
  entry[what] ??= value;
  loads.set(graph, entry);
};

async function preload(server: LineServer, body: Record<string, unknown>, graph: string, what: string): Promise<void> {
  const outcome = await server.request(body, LOAD_CAP_MS);
  if ("reply" in outcome && outcome.reply.ok) noteLoad(graph, what, Number(outcome.reply.load_seconds) * 1000);
}

async function main(): Promise<void> {
  const loadLine = loadAverageLine();
  const started = performance.now();
  const opencl = resolveBackend("opencl");
  const hasOpenCl = opencl.backend === "opencl";
  const { cases, unregistered, defaulted } = planCases();
  console.log(`bench/compute: ${os.cpus().length} cores, Node ${process.version}, ${ALGORITHMS.length} registered algorithms`);
  console.log(`OpenCL backend: ${hasOpenCl ? "yes" : "no"} (${opencl.reason})`);
  console.log(
    `per-algorithm cap ${formatMs(CAP_MS)}, best of ${REPEAT} calls; ${cases.length} cases${ONLY.length ? ` (--only ${ONLY.join(",")})` : ""}`,
  );
  let t = performance.now();
  const graphs = makeGraphs();
  console.log(`graphs generated in ${formatMs(performance.now() - t)} (seeded Chung-Lu, exponent 2.5, simple, ${work}):`);
  for (const g of graphs) console.log(`  ${g.label.padEnd(6)} n=${g.graph.n} m=${g.graph.m} (${g.tier.join(", ")})`);

  let openclFixed: number | undefined;
  if (hasOpenCl) {
    // The OpenCL runtime's own resident memory (PoCL's compiler and threads here), measured apart in a process of its own.
    const child = spawnSync(process.execPath, [path.join(HERE, "compute/opencl-fixed.ts")], { encoding: "utf8", timeout: 300_000 });
    const line = (child.stdout ?? "").split("\n").find((l) => l.startsWith("{"));
    const reply = line ? (JSON.parse(line) as { ok: boolean; bytes?: number; error?: string }) : undefined;
    if (reply?.ok && reply.bytes !== undefined) openclFixed = reply.bytes;
    console.log(
      `OpenCL runtime's own resident memory: ${openclFixed !== undefined ? `${(openclFixed / 2 ** 20).toFixed(0)} MiB (a fixed cost per process, in every OpenCL row's mem/CSR)` : `not measured (${reply?.error ?? "no answer"})`}`,
    );
  }

  const rows: Row[] = [];
  for (const g of graphs) {
    const here = cases.filter((c) => g.tier.includes(c.tier));
    for (const c of here) {
      const title = c.title ?? c.key;
      const row: Row = { graph: g.label, title, key: c.key, measures: {}, notes: c.note ? [c.note] : [] };
      const entry = ALGORITHMS.find((e) => `${e.library}/${e.name}` === c.key);
      const pivots = Math.max(50, Math.round(g.graph.n * PIVOTS));
      const isBetweenness = c.key === "cugraph/betweenness_centrality" || c.key === "igraph/betweenness";
      // CPU first: its peak memory is then free of the OpenCL runtime's own (PoCL's compiler, its threads).
      const backends: Backend[] = ["cpu"];
      if (hasOpenCl && entry?.backends.includes("opencl")) backends.push("opencl");
      else row.measures.opencl = { state: "none", why: hasOpenCl ? "CPU-only algorithm" : opencl.reason };
      const request: OursRequest = {
        file: g.file,
        key: c.key,
        directed: c.directed,
        weighted: c.weighted ?? false,
        params: c.params ?? {},
        backends,
        pivots,
        clustering: c.clustering ?? false,
        repeat: REPEAT,
        capMs: CAP_MS,
        warm: WARM,
      };
      if (isBetweenness) request.save = path.join(work, `${g.label}-${title.replaceAll(/\W+/g, "_")}`);
      for (const [backend, measure] of runOurs(request)) {
        if (backend === "view") {
          if (measure.state === "ok") noteLoad(g.label, "undirected view (when read)", measure.ms);
          continue;
        }
        row.measures[backend as Backend] = measure;
        if (measure.state === "ok" && measure.reply) {
          noteLoad(g.label, "tables", measure.reply.loadMs);
          noteLoad(g.label, "CSR", measure.reply.csrMs);
          if (measure.reply.dropped && backend === "cpu") {
            row.notes.push(`parameters the entry does not take, left out: ${measure.reply.dropped.join(", ")}`);
          }
        }
      }
      if (c.igraph) {
        await preload(
          python,
          { file: g.file, directed: c.directed, expr: "0" },
          g.label,
          `igraph Graph (${c.directed ? "directed" : "undirected"})`,
        );
        const request = {
          file: g.file,
          directed: c.directed,
          expr: c.igraph,
          kind: c.clustering ? "clustering" : "other",
          repeat: REPEAT,
          cap_seconds: CAP_MS / 1000,
        };
        const measure = fromServer(await python.request(request, 2 * CAP_MS + 10_000));
        row.measures.igraph = measure;
      } else row.measures.igraph = { state: "none", why: "no igraph equivalent" };
      if (c.graphology && g.graph.m > GRAPHOLOGY_MAX) {
        row.measures.graphology = { state: "none", why: `graphology left out past ${GRAPHOLOGY_MAX} edges` };
      } else if (c.graphology) {
        await preload(
          graphology,
          { file: g.file, directed: c.directed, op: "load" },
          g.label,
          `graphology Graph (${c.directed ? "directed" : "undirected"})`,
        );
        const request = { file: g.file, directed: c.directed, op: c.graphology, repeat: REPEAT, capSeconds: GRAPHOLOGY_CAP_MS / 1000 };
        row.measures.graphology = fromServer(await graphology.request(request, 2 * GRAPHOLOGY_CAP_MS + 5_000), GRAPHOLOGY_CAP_MS);
      }
      if (c.params && "k" in c.params && c.key === "cugraph/betweenness_centrality") {
        row.notes.push(`k = ${pivots} pivots of ${g.graph.n} nodes`);
        for (const backend of ["cpu", "opencl"] as const) {
          const exact = path.join(work, `${g.label}-cugraph_betweenness_centrality-${backend}.f64`);
          const sampled = path.join(work, `${g.label}-${title.replaceAll(/\W+/g, "_")}-${backend}.f64`);
          try {
            row.spearman ??= spearman(readFloats(exact), readFloats(sampled));
          } catch {
            // the exact or the sampled run did not finish on this backend
          }
        }
        if (row.spearman !== undefined) row.notes.push(`Spearman vs exact ${row.spearman.toFixed(3)}`);
      }
      rows.push(row);
      const cells = (["opencl", "cpu", "igraph", "graphology"] as Column[])
        .map((k) => {
          const m = row.measures[k];
          return m && m.state !== "none" ? `${k} ${m.state === "ok" ? formatMs(m.ms) : m.state}` : "";
        })
        .filter(Boolean);
      console.log(`  ${g.label} ${title}: ${cells.join(", ")}`);
    }
    t = performance.now();
  }
  python.stop();
  graphology.stop();

  console.log(`\n${rowsTable(rows)}`);
  console.log(
    "\n(Q: modularity, undirected and unweighted; mem/CSR: peak RSS beyond the loaded tables over the CSR's bytes, CPU run;" +
      " alg/CSR: the same less the CSR's own growth (an undirected view, built when the algorithm reads it and kept" +
      " with the graph, counts here). OpenCL peaks add PoCL's runtime." +
      (WARM ? " --warm: each process first ran the algorithm on a twentieth of the graph, as a worker that has run jobs has.)" : ")"),
  );
  const notes = footnotes(rows);
  if (notes.length) console.log(`\n${notes.map((n) => `* ${n}`).join("\n")}`);
  console.log("\nLoad (apart from the algorithm times):");
  const loadRows = [...loads.entries()].flatMap(([graph, what]) => Object.entries(what).map(([k, v]) => [graph, k, formatMs(v)]));
  console.log(table(["graph", "load", "time"], loadRows));
  if (unregistered.length) console.log(`\nNot registered (no bench run): ${unregistered.join(", ")}`);
  if (defaulted.length) console.log(`Registered without a bench case (run with defaults): ${defaulted.join(", ")}`);
  const largest = graphs[graphs.length - 1]?.label ?? "";
  console.log(`\nTargets (issue 14, ${os.cpus().length} cores; "ours" = the faster of our backends that ran):`);
  // Memory is judged on the largest graph, where the CSR dominates fixed costs (kernel pool threads, V8's own heap);
  // the table shows every graph's figures.
  console.log(targets(rows, largest, ms, [largest], openclFixed));
  console.log(`\n${loadLine()}`);
  console.log(`total ${formatMs(performance.now() - started)}${PROFILE ? `; CPU profiles in ${profileDir}` : ""}`);
  rmSync(work, { recursive: true, force: true });
}

await main();
