// Datasets (spec 2.3-2.5, 3.3, 4.3): creation from files or direct uploads, materialized node and edge tables.
import { randomBytes, randomUUID } from "node:crypto";
import path from "node:path";
import pl from "nodejs-polars";
import { requireMembership } from "../accounts/organizations.ts";
import { mayChangeRecord } from "../accounts/roles.ts";
import { grantAllows } from "../auth/single-use/grant.ts";
import type { Viewer } from "../auth/viewer.ts";
import { loadAlgorithms, lookupAlgorithm } from "../compute/algorithm-lookup.ts";
import { type ComputePool, type ComputeProgress, configuredBackend, defaultComputePool } from "../compute/compute-pool.ts";
import { parseCompute } from "../compute/params.ts";
import type { Backend } from "../compute/types.ts";
import { AppError, isAppError } from "../errors/app-error.ts";
import type { FileService } from "../files/files-service.ts";
import type { DecompressLimits } from "../ingest/decompress.ts";
import { inferCompression, type ParseRequest, type ParseTimings, parseUpload } from "../ingest/parse.ts";
import { isKeptParquet, linkTable, readTable, scanTable, type TableSchema, writeTable } from "../ingest/table-files.ts";
import type { BlobStore } from "../store/blobs.ts";
import type { Db } from "../store/prisma.ts";
import { type DatasetRecord, type FileRef, toDatasetRecord } from "./dataset-records.ts";
import type { DatasetRows } from "./dataset-rows.ts";
import { planDirectUpload } from "./direct-options.ts";
import { normalizeEncodings } from "./encodings.ts";
import { hypergraph, readHypergraphOptions } from "./hypergraph.ts";
import { type Materialized, materialize } from "./materialize.ts";

export type CreateDatasetInput = {
  name: string;
  description?: string | undefined;
  orgName?: string | undefined;
  metadata: unknown;
  nodeEncodings: unknown;
  edgeEncodings: unknown;
  nodeFiles?: unknown[] | undefined;
  edgeFiles?: unknown[] | undefined;
  edgeHypergraphTransform?: unknown[] | undefined;
  agentName?: string | undefined;
  agentVersion?: string | undefined;
  compute?: unknown;
  layout?: unknown;
};

export type UploadBody = { stream(): ReadableStream<Uint8Array>; chunks?: () => AsyncIterable<Uint8Array> };

type Axis = "nodes" | "edges";

/** A source table, with the stored file it came from when it is exactly one. */
/** A dataset's node or edge source: read whole on demand; `path` when it is one stored table (which may be linked). */
type Source = { read(): pl.DataFrame; path: string | undefined };

const invalid = (message: string, field: string) => new AppError("INVALID_INPUT", message, { details: { field } });

function readRefs(refs: unknown[] | undefined, field: string): { fileId: string; index: number }[] {
  return (refs ?? []).map((ref, i) => {
    if (typeof ref === "string" && ref !== "") return { fileId: ref, index: 0 };
    if (Array.isArray(ref) && ref.length === 2 && typeof ref[0] === "string" && Number.isInteger(ref[1]) && (ref[1] as number) >= 0) {
      return { fileId: ref[0], index: ref[1] as number };
    }
    throw invalid(`${field}[${i}] must be a file id or [file_id, table_index]`, `${field}[${i}]`);
  });
}

/**
 * A compute object whose one entry names a layout rather than an algorithm (a compute job may lay out: runComputeJob
 * with a layout's library and name) as a run of that layout; any other compute object as it is.
 */
async function asLayoutRun(compute: unknown): Promise<{ compute: unknown; layout?: unknown; layoutField?: string }> {
  const entries = compute !== null && typeof compute === "object" && !Array.isArray(compute) ? Object.entries(compute) : [];
  const [label, entry] = entries[0] ?? [];
  if (entries.length !== 1 || entry === null || typeof entry !== "object") return { compute };
  const { libraries, alg } = entry as { libraries?: unknown; alg?: unknown };
  const library = Array.isArray(libraries) ? libraries[0] : libraries;
  if (typeof library !== "string" || typeof alg !== "string" || lookupAlgorithm(library, alg)) return { compute };
  const { findLayout } = await import("../layout/registry.ts");
  return findLayout(library, alg) ? { compute: null, layout: entry, layoutField: `compute.${label}` } : { compute };
}

export type DatasetService = ReturnType<typeof createDatasetService>;

export function createDatasetService(deps: {
  db: Db;
  blobs: BlobStore;
  files: FileService;
  maxUploadBytes: number;
  decompress: DecompressLimits;
  /** See ParseRequest.csvChunkBytes. */
  csvChunkBytes?: number;
  /** Parses an upload (the server's parser process, parse-sandbox.ts); in this process when absent. */
  parse?: (request: ParseRequest, timings?: ParseTimings) => Promise<TableSchema[]>;
  /** Sharing mode new datasets start in. */
  defaultSharingMode: string;
  /** Told how long each stage of a direct upload took (logged at debug level). */
  onTimings?: (timings: Record<string, number | string>) => void;
  /** Rows live sessions keep for a second: told of every change made here. */
  datasetRows: DatasetRows;
  /** Runs compute entries (the process's shared pool when absent). */
  computePool?: ComputePool;
  /** The backend compute runs on (COMPUTE_BACKEND resolved when absent). */
  computeBackend?: Backend;
}) {
  const { db, blobs, files } = deps;

  const visibleTo = (viewer: Viewer) => ({
    OR: [{ authorId: viewer.userId }, { organization: { memberships: { some: { userId: viewer.userId } } } }],
  });

  async function row(viewer: Viewer, id: string) {
    // A single-use link's session reaches its one dataset, whoever owns it, and no other (src/auth/single-use/).
    if (viewer.grant) {
      const granted = grantAllows(viewer, id) ? await db.dataset.findUnique({ where: { id } }) : null;
      if (!granted) throw new AppError("NOT_FOUND", `no dataset with id ${id}`);
      return granted;
    }
    // Site admins reach every dataset by id (lists stay their own and their organizations').
    const found = await db.dataset.findFirst({ where: viewer.isAdmin ? { id } : { id, ...visibleTo(viewer) } });
    if (!found) throw new AppError("NOT_FOUND", `no dataset with id ${id}`);
    return found;
  }

  /** A dataset the viewer may change or delete: its author's, or one in an organization they own or administer. */
  async function changeable(viewer: Viewer, id: string) {
    const found = await row(viewer, id);
    if (!(await mayChangeRecord(db, viewer, found)))
      throw new AppError("FORBIDDEN", "only the dataset's author or an admin of its organization may change or delete it");
    return found;
  }

  /** The tables of a list of file references, one frame (several files are stacked, columns unioned). */
  async function loadFiles(viewer: Viewer, refs: { fileId: string; index: number }[], field: string): Promise<Source | undefined> {
    if (refs.length === 0) return undefined;
    const paths: string[] = [];
    for (const [i, ref] of refs.entries()) {
      // A reference to a missing, foreign or unparsed file is a bad request body, named by its place in it.
      const table = await files.tablePath(viewer, ref.fileId, ref.index).catch((error: unknown) => {
        if (error instanceof AppError) throw invalid(`${field}[${i}]: ${error.message}`, `${field}[${i}]`);
        throw error;
      });
      paths.push(table.path);
    }
    const [only] = paths;
    return only && paths.length === 1
      ? { read: () => readTable(only), path: only }
      : { read: () => pl.concat(paths.map(readTable), { how: "diagonal" }), path: undefined };
  }

  function loadDirect(record: DatasetRecord, axis: Axis): Source | undefined {
    const source = record.directSources[axis];
    if (!source) return undefined;
    const file = blobs.pathOf("datasets", record.id, "sources", axis, source.version, "tables", "0.arrow");
    return { read: () => readTable(file), path: file };
  }

  /**
   * Materializes from only the bound columns of a stored edge table; the answer stands when the edges need no
   * repair (they are then linked, never rewritten). Otherwise, or on any error (reported again by the full
   * path with the whole table's columns), undefined.
   */
  function trialMaterialize(
    file: string,
    nodes: pl.DataFrame | undefined,
    nodeBindings: Record<string, string>,
    edgeBindings: Record<string, string>,
  ): Materialized | undefined {
    try {
      const scan = scanTable(file);
      const columns = scan.columns;
      const bound = [...new Set(Object.values(edgeBindings))].filter((c) => columns.includes(c));
      const trial = materialize({ edges: scan.select(...bound).collectSync(), nodes, nodeBindings, edgeBindings });
      return trial.edgesUnchanged ? trial : undefined;
    } catch {
      return undefined;
    }
  }

  /** Builds and stores the node and edge tables from the record's sources; returns the fields to update. */
  async function build(viewer: Viewer, record: DatasetRecord) {
    const edgeSource = loadDirect(record, "edges") ?? (await loadFiles(viewer, readRefs(record.edgeFiles, "edge_files"), "edge_files"));
    const nodeSource = loadDirect(record, "nodes") ?? (await loadFiles(viewer, readRefs(record.nodeFiles, "node_files"), "node_files"));
    let nodes = nodeSource?.read();
    const nodeBindings = { ...record.nodeEncodings.bindings };
    const edgeBindings = { ...record.edgeEncodings.bindings };
    const transforms = record.edgeHypergraphTransform;
    // A stored edge table that needs no repair is linked as it is: only its bound columns are read to decide that. One
    // kept as Parquet (table-files.ts) cannot be linked: it is read whole once, and its edges written as Arrow.
    const linkable = edgeSource?.path && !isKeptParquet(edgeSource.path) ? edgeSource.path : undefined;
    const slim = transforms.length === 0 && linkable ? trialMaterialize(linkable, nodes, nodeBindings, edgeBindings) : undefined;
    let edges = slim ? undefined : edgeSource?.read();
    if (transforms.length > 0 && edges) {
      const result = hypergraph(edges, readHypergraphOptions(transforms[0], "edge_hypergraph_transform[0]"));
      edges = result.edges;
      // A supplied nodes table keeps its own ids; otherwise the hypergraph's nodes, keyed by nodeID.
      if (!nodes) {
        nodes = result.nodes;
        nodeBindings.node ??= result.bindings.node;
        nodeBindings.node_title ??= result.bindings.title;
      }
      edgeBindings.source ??= result.bindings.source;
      edgeBindings.destination ??= result.bindings.destination;
    }
    if (!slim && !edges && !nodes)
      return { nodeCount: null, edgeCount: null, tablesSchemas: "{}", report: "", dataVersion: null, nodeBindings, edgeBindings };
    const built = slim ?? materialize({ edges, nodes, nodeBindings, edgeBindings });
    if (!nodeBindings.node) nodeBindings.node = built.nodeId;
    const version = `${Date.now().toString(36)}-${randomBytes(4).toString("hex")}`;
    // A folder of its own, marked as being written until the record references it (the startup sweep's rule).
    const dir = await blobs.claim(["datasets", record.id, "tables", version]);
    let nodesSchema: TableSchema;
    let edgesSchema: TableSchema | undefined;
    try {
      nodesSchema = await writeTable(built.nodes, path.join(dir, "nodes.arrow"), "nodes");
      // Edges that need no repair are the stored source table itself: link it rather than write it again.
      const reusable = slim || (built.edgesUnchanged && transforms.length === 0) ? linkable : undefined;
      edgesSchema = !built.edges
        ? undefined
        : reusable
          ? await linkTable(reusable, path.join(dir, "edges.arrow"), "edges", built.edges.height)
          : await writeTable(built.edges, path.join(dir, "edges.arrow"), "edges");
    } catch (error) {
      await blobs.remove(["datasets", record.id, "tables", version]);
      throw error;
    }
    return {
      nodeCount: built.nodes.height,
      edgeCount: built.edges?.height ?? 0,
      tablesSchemas: JSON.stringify({ nodes: nodesSchema, ...(edgesSchema ? { edges: edgesSchema } : {}) }),
      report: built.report.join(" "),
      dataVersion: version,
      nodeBindings,
      edgeBindings,
    };
  }

  const newVersion = () => `${Date.now().toString(36)}-${randomBytes(4).toString("hex")}`;

  /**
   * Runs `compute` (then `layout`) over the tables of `version` and writes the result as a new version (its fields
   * for the record).
   * The tables of `version` are left as they are.
   */
  async function computeVersion(
    id: string,
    version: string,
    hasEdges: boolean,
    bindings: { node: Record<string, string>; edge: Record<string, string> },
    run: { compute: unknown; layout?: unknown; layoutField?: string | undefined },
    options: ComputeRunOptions = {},
  ) {
    const from = ["datasets", id, "tables", version];
    const next = newVersion();
    const outDir = blobs.pathOf("datasets", id, "tables", next);
    try {
      await blobs.claim(["datasets", id, "tables", next]);
      const result = await (deps.computePool ?? defaultComputePool()).run(
        {
          nodesPath: blobs.pathOf(...from, "nodes.arrow"),
          edgesPath: hasEdges ? blobs.pathOf(...from, "edges.arrow") : undefined,
          nodeId: bindings.node.node ?? "node",
          source: bindings.edge.source ?? "source",
          destination: bindings.edge.destination ?? "destination",
          edgeWeight: bindings.edge.edge_weight,
          compute: run.compute,
          layout: run.layout,
          layoutField: run.layoutField,
          outDir,
          backend: deps.computeBackend ?? configuredBackend(),
        },
        options,
      );
      return {
        nodeCount: result.nodeCount,
        edgeCount: result.edgeCount,
        tablesSchemas: JSON.stringify({ nodes: result.nodes, ...(result.edges ? { edges: result.edges } : {}) }),
        dataVersion: next,
        summaries: result.summaries,
      };
    } catch (error) {
      await blobs.remove(["datasets", id, "tables", next]);
      throw error;
    }
  }

  const hasCompute = (compute: unknown) =>
    compute !== null && compute !== undefined && typeof compute === "object" && Object.keys(compute).length > 0;
  const hasLayout = (layout: unknown) => layout !== null && layout !== undefined;

  /**
   * Builds the tables (and runs the dataset's compute, then its layout, on them) as a new version, still marked as
   * being written; answers the record's fields for it.
   */
  async function assemble(viewer: Viewer, record: DatasetRecord) {
    const built = await build(viewer, record);
    const { nodeBindings, edgeBindings, ...fields } = built;
    // Compute at creation runs whenever the tables are (re)built, so a dataset filled by direct uploads gets its
    // columns after each upload; the built version without them is dropped. The layout (node columns x, y, z) runs
    // last in the same worker run, so its positions are stored with the version.
    const layout = hasLayout(record.layout) ? record.layout : undefined;
    if ((hasCompute(record.compute) || layout !== undefined) && built.dataVersion) {
      const computed = await computeVersion(
        record.id,
        built.dataVersion,
        "edges" in (JSON.parse(fields.tablesSchemas) as object),
        { node: nodeBindings, edge: edgeBindings },
        { compute: hasCompute(record.compute) ? record.compute : null, layout },
      ).finally(() => blobs.remove(["datasets", record.id, "tables", built.dataVersion as string]));
      const { summaries, ...computedFields } = computed;
      const computedSummaries = layout === undefined ? summaries : summaries.slice(0, -1);
      const laidOut = layout === undefined ? undefined : summaries.at(-1);
      const said = computedSummaries.map((s) => `${s.label} (${s.library} ${s.alg})`).join(", ");
      const report = [
        fields.report,
        computedSummaries.length > 0 ? `Computed ${said}.` : "",
        laidOut ? `Laid out (${laidOut.library} ${laidOut.alg}): node columns ${laidOut.columns.join(", ")}.` : "",
      ];
      Object.assign(fields, computedFields, { report: report.filter(Boolean).join(" ") });
    }
    return {
      ...fields,
      nodeEncodings: JSON.stringify({ ...record.nodeEncodings, bindings: nodeBindings }),
      edgeEncodings: JSON.stringify({ ...record.edgeEncodings, bindings: edgeBindings }),
    };
  }

  /**
   * Rebuilds the tables and switches the record to them in one update, only onto the version they were built from
   * (a change that landed meanwhile is not overwritten: CONFLICT), then drops the old ones. Any failure leaves the
   * record and its current tables as they were, and removes the new ones.
   */
  async function rebuild(viewer: Viewer, record: DatasetRecord, extra: Record<string, unknown> = {}): Promise<DatasetRecord> {
    const data = { ...(await assemble(viewer, record)), ...extra };
    const version = data.dataVersion;
    try {
      const { count } = await db.dataset.updateMany({ where: { id: record.id, dataVersion: record.dataVersion }, data });
      if (count === 0) throw new AppError("CONFLICT", `dataset ${record.id} changed meanwhile; send the upload again`);
    } catch (error) {
      if (version) await blobs.remove(["datasets", record.id, "tables", version]);
      throw error;
    }
    if (version) await blobs.settle(["datasets", record.id, "tables", version]).catch(() => {});
    deps.datasetRows.forget(record.id);
    if (record.dataVersion && record.dataVersion !== version) await blobs.remove(["datasets", record.id, "tables", record.dataVersion]);
    return toDatasetRecord(await db.dataset.findUniqueOrThrow({ where: { id: record.id } }));
  }

  async function create(viewer: Viewer, input: CreateDatasetInput): Promise<DatasetRecord> {
    if (input.metadata === null || typeof input.metadata !== "object" || Array.isArray(input.metadata))
      throw invalid("metadata must be an object", "metadata");
    const nodeEncodings = normalizeEncodings("node", input.nodeEncodings);
    const edgeEncodings = normalizeEncodings("edge", input.edgeEncodings);
    readRefs(input.nodeFiles, "node_files");
    readRefs(input.edgeFiles, "edge_files");
    // Unknown algorithms and parameters answer before anything is made; ids and columns once the tables exist.
    if (input.compute !== undefined && input.compute !== null) {
      await loadAlgorithms();
      parseCompute(input.compute);
    }
    // The layout's library, name and parameters too (the registry loads on first use, not with the service).
    if (hasLayout(input.layout)) (await import("../layout/parse.ts")).parseLayout(input.layout);
    for (const [i, transform] of (input.edgeHypergraphTransform ?? []).entries())
      readHypergraphOptions(transform, `edge_hypergraph_transform[${i}]`);
    const org = input.orgName ? await requireMembership(db, viewer.userId, input.orgName) : undefined;
    const data = {
      id: randomUUID().replaceAll("-", ""),
      authorId: viewer.userId,
      organizationId: org?.id ?? null,
      name: input.name,
      description: input.description ?? "",
      agentName: input.agentName ?? null,
      agentVersion: input.agentVersion ?? null,
      nodeFiles: JSON.stringify(input.nodeFiles ?? []),
      edgeFiles: JSON.stringify(input.edgeFiles ?? []),
      edgeHypergraphTransform: JSON.stringify(input.edgeHypergraphTransform ?? []),
      nodeEncodings: JSON.stringify(nodeEncodings),
      edgeEncodings: JSON.stringify(edgeEncodings),
      metadata: JSON.stringify(input.metadata),
      compute: input.compute === undefined || input.compute === null ? null : JSON.stringify(input.compute),
      layout: input.layout === undefined || input.layout === null ? null : JSON.stringify(input.layout),
      sharingMode: deps.defaultSharingMode,
    };
    // The tables are built before the record exists, and the record is written with them in one insert: a dataset is
    // never listed half-built, whatever stops the build (a failure, the database gone, the process killed; the
    // startup sweep removes what a killed build left).
    const now = new Date();
    const provisional = toDatasetRecord({
      ...data,
      ...EMPTY_DATASET,
      createdAt: now,
      updatedAt: now,
    });
    let version: string | null = null;
    try {
      const built = await assemble(viewer, provisional);
      version = built.dataVersion;
      const created = await db.dataset.create({ data: { ...data, ...built } });
      if (version) await blobs.settle(["datasets", data.id, "tables", version]).catch(() => {});
      return toDatasetRecord(created);
    } catch (error) {
      await blobs.remove(["datasets", data.id]);
      throw error;
    }
  }

  async function list(viewer: Viewer, page: { limit: number; offset: number }) {
    const where = visibleTo(viewer);
    const [count, rows] = await Promise.all([
      db.dataset.count({ where }),
      db.dataset.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "asc" }], take: page.limit, skip: page.offset }),
    ]);
    return { count, items: rows.map(toDatasetRecord) };
  }

  const get = async (viewer: Viewer, id: string) => toDatasetRecord(await row(viewer, id));

  async function remove(viewer: Viewer, id: string): Promise<boolean> {
    await changeable(viewer, id);
    await db.dataset.delete({ where: { id } });
    deps.datasetRows.forget(id);
    // The dataset's own tables go; the files it was made from stay.
    await blobs.remove(["datasets", id]);
    return true;
  }

  /** A table posted straight into the dataset (spec 4.3): parsed, stored as a source, and the dataset rebuilt. */
  async function uploadTable(viewer: Viewer, id: string, axis: Axis, format: string, query: Record<string, string>, body: UploadBody) {
    const record = toDatasetRecord(await changeable(viewer, id));
    const plan = planDirectUpload(format, query);
    const version = `${Date.now().toString(36)}-${randomBytes(4).toString("hex")}`;
    const base = ["datasets", id, "sources", axis, version];
    const started = performance.now();
    try {
      await blobs.claim(base);
      const { path: rawPath, bytes } = await blobs.writeStream([...base, "raw"], body.chunks?.() ?? body.stream(), deps.maxUploadBytes);
      const received = performance.now();
      const compression = plan.compression === "infer" ? await inferCompression(rawPath, plan.fileType) : plan.compression;
      const scratch = await blobs.scratch();
      let schema: Awaited<ReturnType<typeof parseUpload>>[number] | undefined;
      const stages: ParseTimings = {};
      try {
        [schema] = await (deps.parse ?? parseUpload)(
          {
            rawPath,
            fileType: plan.fileType,
            compression,
            parserOptions: plan.parserOptions,
            tableName: axis,
            tablesDir: blobs.pathOf(...base, "tables"),
            scratch,
            limits: deps.decompress,
            csvChunkBytes: deps.csvChunkBytes,
            owner: viewer.userId,
          },
          stages,
        );
      } finally {
        await blobs.remove(["tmp", path.basename(scratch)]);
      }
      if (!schema) throw new AppError("PARSE_FAILED", "the upload holds no table");
      const parsed = performance.now();
      let current = record;
      let updated: DatasetRecord;
      for (let attempt = 1; ; attempt += 1) {
        const next = { ...current, directSources: { ...current.directSources, [axis]: { version, schema } } };
        try {
          updated = await rebuild(viewer, next, { directSources: JSON.stringify(next.directSources) });
          break;
        } catch (error) {
          // Another upload to this dataset landed while this one built: build again on top of it.
          if (!isAppError(error) || error.code !== "CONFLICT" || attempt >= 8) throw error;
          current = toDatasetRecord(await changeable(viewer, id));
        }
      }
      await blobs.settle(base).catch(() => {});
      const previous = current.directSources[axis]?.version;
      if (previous) await blobs.remove(["datasets", id, "sources", axis, previous]);
      deps.onTimings?.({
        dataset_id: id,
        axis,
        bytes,
        receiveMs: Math.round(received - started),
        parseMs: Math.round(parsed - received),
        ...Object.fromEntries(Object.entries(stages).map(([stage, ms]) => [stage, Math.round(ms)])),
        buildMs: Math.round(performance.now() - parsed),
      });
      return { dataset: updated, table: schema, seconds: (performance.now() - started) / 1000 };
    } catch (error) {
      await blobs.remove(base);
      throw error;
    }
  }

  /** A dataset reached through a live session, whose access check already ran (sessions/dataset-access.ts). */
  async function getForSession(id: string): Promise<DatasetRecord> {
    const found = await db.dataset.findUnique({ where: { id } });
    if (!found) throw new AppError("NOT_FOUND", `no dataset with id ${id}`);
    return toDatasetRecord(found);
  }

  /** Paths of the materialized tables of a dataset record, for the page and queries. */
  function tablePaths(record: DatasetRecord) {
    if (!record.dataVersion) return { record, nodes: undefined, edges: undefined };
    const dir = ["datasets", record.id, "tables", record.dataVersion];
    return {
      record,
      nodes: blobs.pathOf(...dir, "nodes.arrow"),
      edges: record.tablesSchemas.edges ? blobs.pathOf(...dir, "edges.arrow") : undefined,
    };
  }

  /**
   * Runs `compute` (labels -> entries; one entry naming a layout runs that layout: node columns x, y, z) on the
   * dataset's current tables and makes the result its new version; the
   * previous version's files stay a minute for readers that hold them. With `viewer`, the dataset must be visible
   * to them; without, the caller checked access (a job worker).
   */
  async function computeOn(
    id: string,
    compute: unknown,
    options: ComputeRunOptions & { viewer?: Viewer | undefined } = {},
  ): Promise<DatasetRecord> {
    await loadAlgorithms();
    const run = await asLayoutRun(compute);
    if (run.layout === undefined) parseCompute(compute);
    else (await import("../layout/parse.ts")).parseLayout(run.layout, run.layoutField);
    const record = toDatasetRecord(
      options.viewer ? await changeable(options.viewer, id) : await db.dataset.findUniqueOrThrow({ where: { id } }),
    );
    if (!record.dataVersion)
      throw new AppError("INVALID_INPUT", "this dataset has no tables yet: upload its data first", { details: { field: "dataset" } });
    const bindings = { node: record.nodeEncodings.bindings, edge: record.edgeEncodings.bindings };
    const { summaries: _summaries, ...fields } = await computeVersion(
      id,
      record.dataVersion,
      Boolean(record.tablesSchemas.edges),
      bindings,
      run,
      options,
    );
    // Only onto the version it read: an upload that landed meanwhile is not overwritten (the job runner retries).
    const switched = await db.dataset
      .updateMany({ where: { id, dataVersion: record.dataVersion }, data: fields })
      .catch(async (error: unknown) => {
        await blobs.remove(["datasets", id, "tables", fields.dataVersion]);
        throw error;
      });
    if (switched.count === 0) {
      await blobs.remove(["datasets", id, "tables", fields.dataVersion]);
      throw new AppError("CONFLICT", `dataset ${id} changed while the compute ran; run it again on the new tables`);
    }
    await blobs.settle(["datasets", id, "tables", fields.dataVersion]).catch(() => {});
    const updated = await db.dataset.findUniqueOrThrow({ where: { id } });
    deps.datasetRows.forget(id);
    const previous = record.dataVersion;
    setTimeout(() => void blobs.remove(["datasets", id, "tables", previous]).catch(() => {}), OLD_VERSION_MS).unref();
    return toDatasetRecord(updated);
  }

  return { create, list, get, getForSession, remove, uploadTable, tablePaths, computeOn };
}

/** The fields of a dataset record before its tables exist (the database's defaults). */
const EMPTY_DATASET = {
  nodeCount: null,
  edgeCount: null,
  tablesSchemas: "{}",
  directSources: "{}",
  report: "",
  dataVersion: null,
  defaultLayout: null,
};

/** How long a replaced version's files stay for readers that were handed their paths. */
const OLD_VERSION_MS = 60_000;

export type ComputeRunOptions = { onProgress?: ((p: ComputeProgress) => void) | undefined; signal?: AbortSignal | undefined };

export type { FileRef };
