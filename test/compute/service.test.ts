// The compute service: parameters checked and resolved, the CSR shared with GFQL's adjacency index, outputs applied
// to frames, and runComputeOnDataset (worker thread, progress, cancel, a new version that leaves the old files).
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pl from "nodejs-polars";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadAlgorithms, registerAlgorithms } from "../../src/compute/algorithm-lookup.ts";
import { applyOutput } from "../../src/compute/apply-output.ts";
import type { ComputeProgress } from "../../src/compute/compute-pool.ts";
import { computeGraphOf, csrOfTables } from "../../src/compute/graph-from-tables.ts";
import { checkParams, parseEntry, resolveParams } from "../../src/compute/params.ts";
import { runComputeOnDataset } from "../../src/compute/run-on-dataset.ts";
import { type AlgorithmEntry, ComputeCancelled } from "../../src/compute/types.ts";
import { graphIndex } from "../../src/gfql/fast/graph-index.ts";
import { readTable } from "../../src/ingest/table-files.ts";
import { createTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { entries } from "./service-entries.fixture.ts";

process.env.COMPUTE_EXTRA_ALGORITHMS = fileURLToPath(new URL("./service-entries.fixture.ts", import.meta.url));
registerAlgorithms(entries);
await loadAlgorithms();

const tables = () => ({
  nodes: pl.DataFrame({ id: [10, 11, 12, 13], name: ["a", "b", "c", "d"], score: [1.5, null, 2, 3] }),
  edges: pl.DataFrame({ s: [10, 11, 12, 10], d: [11, 12, 10, 13], w: [2, null, 4, 1], t: ["x", "y", "z", "w"] }),
  nodeId: "id",
  source: "s",
  destination: "d",
  edgeWeight: "w",
});

const spec = (params: AlgorithmEntry["params"]): AlgorithmEntry => ({
  library: "igraph",
  name: "spec_only",
  params,
  output: "nodes",
  backends: ["cpu"],
  doc: "",
  run: () => ({ kind: "nodes", columns: [] }),
});

describe("parameters", () => {
  it("fills defaults, keeps nulls where allowed, checks enums and number lists", () => {
    const entry = spec({
      damping: { type: "number", default: 0.85, min: 0, max: 1 },
      mode: { type: "enum", values: ["out", "in", "all"], default: "out" },
      seeds: { type: "numbers" },
      cutoff: { type: "number", nullable: true },
    });
    expect(checkParams(entry, { seeds: [1, 2], cutoff: null }, "p")).toEqual({ damping: 0.85, mode: "out", seeds: [1, 2], cutoff: null });
    expect(() => checkParams(entry, { mode: "both" }, "p")).toThrow(expect.objectContaining({ details: { field: "p.mode" } }));
    expect(() => checkParams(entry, { seeds: [1, "x"] }, "p")).toThrow(expect.objectContaining({ details: { field: "p.seeds[1]" } }));
    expect(() => checkParams(entry, { damping: 1.5 }, "p")).toThrow(expect.objectContaining({ details: { field: "p.damping" } }));
    expect(() => checkParams(entry, { damping: null }, "p")).toThrow(expect.objectContaining({ details: { field: "p.damping" } }));
    expect(() => checkParams(entry, [1], "p")).toThrow(expect.objectContaining({ details: { field: "p" } }));
  });

  it("resolves node ids (as text or numbers) to rows and columns to floats", () => {
    const find = () =>
      spec({ source: { type: "node" }, targets: { type: "nodes" }, weights: { type: "edgeColumn" }, size: { type: "nodeColumn" } });
    const parsed = parseEntry(
      "x",
      { libraries: ["igraph"], alg: "spec_only", params: { source: "12", targets: [13, 10], weights: "s" } },
      "c.x",
      find,
    );
    const resolved = resolveParams(parsed, tables());
    expect(resolved.source).toBe(2);
    expect(resolved.targets).toEqual(new Int32Array([3, 0]));
    expect(resolved.weights).toEqual(new Float64Array([10, 11, 12, 10]));
    const withNulls = parseEntry("x", { libraries: ["igraph"], alg: "spec_only", params: { size: "score" } }, "c.x", find);
    expect(() => resolveParams(withNulls, tables())).toThrow(expect.objectContaining({ details: { field: "c.x.params.size" } }));
    const text = parseEntry("x", { libraries: ["igraph"], alg: "spec_only", params: { weights: "t" } }, "c.x", find);
    expect(() => resolveParams(text, tables())).toThrow(expect.objectContaining({ details: { field: "c.x.params.weights" } }));
    const unknown = parseEntry("x", { libraries: ["igraph"], alg: "spec_only", params: { targets: [10, 99] } }, "c.x", find);
    expect(() => resolveParams(unknown, tables())).toThrow(expect.objectContaining({ details: { field: "c.x.params.targets" } }));
  });
});

describe("the graph of a dataset's tables", () => {
  it("is the GFQL adjacency index's CSR, kept per way of reading it, weighed by the bound column (null weighs 1)", () => {
    const t = tables();
    const directed = computeGraphOf(t, true);
    const index = graphIndex({ nodes: t.nodes, nodeId: "id", source: "s", destination: "d" }, t.edges);
    expect(index).not.toBeNull();
    expect(directed.src).toBe(index?.srcRow);
    expect(directed.outStart).toBe(index?.outStart);
    expect(computeGraphOf(t, true)).toBe(directed);
    const plain = computeGraphOf(t, false);
    expect(plain.directed).toBe(false);
    expect(plain.src).toBe(directed.src);
    expect(directed.weight).toEqual(new Float64Array([2, 1, 4, 1]));
    expect(computeGraphOf({ ...t, edgeWeight: "t" }, true).weight).toBeNull();
    expect(computeGraphOf({ ...t, edgeWeight: undefined }, true).weight).toBeNull();
    expect(Array.from(directed.dst)).toEqual([1, 2, 0, 3]);
  });

  it("has no edges for a nodes-only dataset, and refuses edges naming unknown nodes", () => {
    const t = tables();
    expect(csrOfTables({ ...t, edges: undefined })).toMatchObject({ n: 4, m: 0 });
    const dangling = { ...t, edges: pl.DataFrame({ s: [10], d: [99], w: [1], t: ["x"] }) };
    expect(() => csrOfTables(dangling)).toThrow(expect.objectContaining({ code: "INVALID_INPUT" }));
  });
});

describe("applying outputs", () => {
  it("writes every column kind, with NaN, Infinity, invalid and -1 references as null, replacing same-named columns in place", () => {
    const t = tables();
    const csr = csrOfTables(t);
    const out = applyOutput(
      t,
      {
        kind: "nodes",
        columns: [
          { name: "score", values: new Float64Array([Number.NaN, 1, Number.POSITIVE_INFINITY, 0.5]) },
          { name: "f32", values: new Float32Array([0.5, 1, 2, 3]) },
          { name: "member", values: new Int32Array([0, 1, 1, 2]), valid: new Uint8Array([1, 1, 0, 1]) },
          { name: "big", values: new Int32Array([1, 2, 3, 4]), type: "int64" },
          { name: "flag", values: new Uint8Array([1, 0, 1, 0]) },
          { name: "label", values: ["p", null, "q", "r"], type: "utf8" },
          { name: "hops", values: [[1, 2], null, [], [3]], type: "list<int64>" },
          { name: "pred", values: new Int32Array([-1, 0, 1, 0]), ref: "node" },
        ],
      },
      csr,
      "compute.x",
    );
    expect(out.nodes.columns).toEqual(["id", "name", "score", "f32", "member", "big", "flag", "label", "hops", "pred"]);
    expect(out.nodes.getColumn("big").dtype.equals(pl.Int64)).toBe(true);
    expect(out.nodes.toRecords()).toEqual([
      { id: 10, name: "a", score: null, f32: 0.5, member: 0, big: 1, flag: true, label: "p", hops: [1, 2], pred: null },
      { id: 11, name: "b", score: 1, f32: 1, member: 1, big: 2, flag: false, label: null, hops: null, pred: 10 },
      { id: 12, name: "c", score: null, f32: 2, member: null, big: 3, flag: true, label: "q", hops: [], pred: 11 },
      { id: 13, name: "d", score: 0.5, f32: 3, member: 2, big: 4, flag: false, label: "r", hops: [3], pred: 10 },
    ]);
  });

  it("keeps a graph answer's rows (edges between kept nodes when only nodes are given) and replaces edges with new ones", () => {
    const t = tables();
    const csr = csrOfTables(t);
    const kept = applyOutput(t, { kind: "graph", nodeRows: new Int32Array([0, 1, 2]), edgeRows: null }, csr, "c");
    expect(kept.nodes.getColumn("id").toArray()).toEqual([10, 11, 12]);
    expect(kept.edges?.getColumn("t").toArray()).toEqual(["x", "y", "z"]);
    const tree = applyOutput(
      t,
      {
        kind: "graph",
        nodeRows: null,
        edgeRows: new Int32Array([3, 0]),
        edgeColumns: [{ name: "order", values: new Int32Array([1, 2]) }],
      },
      csr,
      "c",
    );
    expect(tree.edges?.select("s", "d", "order").toRecords()).toEqual([
      { s: 10, d: 13, order: 1 },
      { s: 10, d: 11, order: 2 },
    ]);
    const flow = applyOutput(
      t,
      {
        kind: "graph",
        nodeRows: null,
        edgeRows: null,
        newEdges: {
          src: new Int32Array([0, 0]),
          dst: new Int32Array([2, 3]),
          columns: [{ name: "flow", values: new Float64Array([3, 1]) }],
        },
      },
      csr,
      "c",
    );
    expect(flow.edges?.toRecords()).toEqual([
      { s: 10, d: 12, flow: 3 },
      { s: 10, d: 13, flow: 1 },
    ]);
    expect(() => applyOutput(t, { kind: "edges", columns: [{ name: "s", values: new Float64Array(4) }] }, csr, "compute.s")).toThrow(
      expect.objectContaining({ details: { field: "compute.s" } }),
    );
  });
});

describe("runComputeOnDataset", () => {
  let gw: TestGateway;
  let id: string;

  const datasets = () => gw.gateway.services.datasets;

  beforeAll(async () => {
    gw = await createTestGateway("sqlite");
    const auth = { authorization: `Bearer ${await gw.login()}` };
    const file = await gw.json<{ file_id: string }>("/api/v2/files/", { method: "POST", headers: auth, json: { file_type: "csv" } });
    await gw.request(`/api/v2/upload/files/${file.body.file_id}`, { method: "POST", headers: auth, body: "s,d\na,b\nb,c\nc,a\n" });
    const created = await gw.json<{ data: { dataset_id: string } }>("/api/v1/datasets/", {
      method: "POST",
      headers: auth,
      json: {
        name: "g",
        metadata: {},
        node_encodings: { bindings: {} },
        edge_encodings: { bindings: { source: "s", destination: "d" } },
        edge_files: [file.body.file_id],
      },
    });
    id = created.body.data.dataset_id;
  });
  afterAll(() => gw?.close());

  it("runs in a worker thread, reports progress, and stores a new version while the old files stay for their readers", async () => {
    const before = await datasets().getForSession(id);
    const old = datasets().tablePaths(before);
    const progress: ComputeProgress[] = [];
    const record = await runComputeOnDataset(
      datasets(),
      id,
      { r: { libraries: ["igraph"], alg: "test_rounds", params: { rounds: 3, round_ms: 150 } } },
      { onProgress: (p) => progress.push(p) },
    );
    expect(record.dataVersion).not.toBe(before.dataVersion);
    expect(record.tablesSchemas.nodes?.dtypes).toMatchObject({ node: "object", r: "int32" });
    const now = datasets().tablePaths(record);
    expect(
      readTable(now.nodes as string)
        .getColumn("r")
        .toArray(),
    ).toEqual([3, 3, 3]);
    expect(readTable(now.edges as string).height).toBe(3);
    expect(existsSync(old.nodes as string)).toBe(true);
    expect(progress[0]).toMatchObject({ label: "r", index: 0, count: 1, phase: "start" });
    const rounds = progress.filter((p) => p.phase === "rounds");
    expect(rounds.length).toBeGreaterThan(0);
    expect(rounds.at(-1)?.fraction).toBeLessThanOrEqual(1);
  });

  it("cancels: a running job stops at its next check, and no version is written", async () => {
    const before = await datasets().getForSession(id);
    const dir = path.dirname(datasets().tablePaths(before).nodes as string);
    const versions = () => readdirSync(path.dirname(dir)).sort();
    const held = versions();
    const controller = new AbortController();
    const run = runComputeOnDataset(
      datasets(),
      id,
      { r: { libraries: ["igraph"], alg: "test_rounds", params: { rounds: 10_000, round_ms: 5 } } },
      { signal: controller.signal, onProgress: (p) => p.phase === "rounds" && controller.abort() },
    );
    await expect(run).rejects.toBeInstanceOf(ComputeCancelled);
    expect((await datasets().getForSession(id)).dataVersion).toBe(before.dataVersion);
    expect(versions()).toEqual(held);
    const aborted = new AbortController();
    aborted.abort();
    await expect(
      runComputeOnDataset(datasets(), id, { r: { libraries: ["igraph"], alg: "test_rounds" } }, { signal: aborted.signal }),
    ).rejects.toBeInstanceOf(ComputeCancelled);
  });

  it("answers CONFLICT and writes nothing when the dataset moved to another version while it ran", async () => {
    const before = await datasets().getForSession(id);
    const db = gw.gateway.services.db;
    let moved = false;
    const run = runComputeOnDataset(
      datasets(),
      id,
      { r: { libraries: ["igraph"], alg: "test_rounds", params: { rounds: 8, round_ms: 100 } } },
      {
        onProgress: (p) => {
          if (p.phase !== "rounds" || moved) return;
          moved = true;
          // another writer (an upload) switches the dataset to its own version meanwhile (Prisma runs a query on then)
          void db.dataset.update({ where: { id }, data: { dataVersion: "moved-elsewhere" } }).then(() => {});
        },
      },
    );
    await expect(run).rejects.toMatchObject({ code: "CONFLICT" });
    expect(moved).toBe(true);
    expect((await db.dataset.findUniqueOrThrow({ where: { id } })).dataVersion).toBe("moved-elsewhere");
    await db.dataset.update({ where: { id }, data: { dataVersion: before.dataVersion } });
  });

  it("refuses bad entries with the field, from the main thread or from the worker", async () => {
    await expect(runComputeOnDataset(datasets(), id, { x: { libraries: ["igraph"], alg: "nope" } })).rejects.toMatchObject({
      code: "INVALID_INPUT",
      details: { field: "compute.x.alg" },
    });
    await expect(
      runComputeOnDataset(datasets(), id, { x: { libraries: ["cugraph"], alg: "test_bfs", params: { start: "zz" } } }),
    ).rejects.toMatchObject({ code: "INVALID_INPUT", details: { field: "compute.x.params.start" } });
  });
});
