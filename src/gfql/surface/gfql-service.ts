// GFQL on a dataset or a live session: access checks here, the query itself in a worker with a time limit.
import type { Viewer } from "../../auth/viewer.ts";
import { type DatasetRecord, toDatasetRecord } from "../../datasets/dataset-records.ts";
import type { DatasetService } from "../../datasets/datasets-service.ts";
import { AppError } from "../../errors/app-error.ts";
import type { VizSessionService } from "../../sessions/viz-sessions.ts";
import type { Strictness } from "../strictness.ts";
import { exactRows, hasBigInt } from "./exact-json.ts";
import type { QueryPool } from "./query-pool.ts";
import { type FileFormat, OUTPUT_TYPES, type OutputType, type QueryAnswer, type QueryJob } from "./run-query.ts";

/**
 * `limit` "auto" is the tool endpoint's rule: 50 rows when the answer projects columns, 20 when it carries whole rows.
 * `timeoutMs` tightens the pool's time limit for this one query.
 */
export type GfqlRequest = {
  query: unknown;
  output: string;
  limit: number | "auto";
  timeoutMs?: number;
  fileFormat?: FileFormat | undefined;
  /** Only these columns of the node and edge rows. */
  nodeColumns?: string[] | undefined;
  edgeColumns?: string[] | undefined;
  /** Filters on absent columns (strictness.ts): "warn" by default. */
  strictness?: Strictness | undefined;
};

const AUTO_LIMITS = { projected: 50, whole: 20 };

export type GfqlService = ReturnType<typeof createGfqlService>;

/** Answers kept per service: stored tables never change under a path, so a repeated query may reuse its answer. */
const ANSWER_CACHE_ENTRIES = 256;
/** Only modest answers are kept: few JSON rows, small files, a bounded number of matched positions. */
const ANSWER_CACHE_MAX_ROWS = 1_000;
const ANSWER_CACHE_MAX_POSITIONS = 200_000;
const ANSWER_CACHE_MAX_FILE_BYTES = 1 << 20;

function cacheable(answer: QueryAnswer): boolean {
  const rows = (answer.nodes?.length ?? 0) + (answer.edges?.length ?? 0);
  const positions = (answer.nodeRows?.length ?? 0) + (answer.edgeRows?.length ?? 0);
  const fileBytes = Object.values(answer.files ?? {}).reduce((sum, file) => sum + (file?.byteLength ?? 0), 0);
  return rows <= ANSWER_CACHE_MAX_ROWS && positions <= ANSWER_CACHE_MAX_POSITIONS && fileBytes <= ANSWER_CACHE_MAX_FILE_BYTES;
}

/** Integers beyond 2^53 (bigint from the worker) as raw JSON numbers, so answers write them exactly. */
function withExactRows(answer: QueryAnswer): QueryAnswer {
  if (!hasBigInt(answer.nodes) && !hasBigInt(answer.edges)) return answer;
  return { ...answer, nodes: exactRows(answer.nodes), edges: exactRows(answer.edges) };
}

export function createGfqlService(deps: { datasets: DatasetService; sessions: VizSessionService; pool: QueryPool; maxRows: number }) {
  const answers = new Map<string, QueryAnswer>();

  /** Runs a job through the pool, or answers it again when the same job ran on the same stored tables. */
  async function cached(job: QueryJob): Promise<QueryAnswer> {
    const { timeoutMs: _timeout, ...identity } = job;
    const key = JSON.stringify(identity);
    const hit = answers.get(key);
    if (hit) {
      answers.delete(key);
      answers.set(key, hit);
      return hit;
    }
    const answer = withExactRows(await deps.pool.run(job));
    if (cacheable(answer)) {
      answers.set(key, answer);
      if (answers.size > ANSWER_CACHE_ENTRIES) answers.delete(answers.keys().next().value as string);
    }
    return answer;
  }

  async function run(record: DatasetRecord, request: GfqlRequest): Promise<QueryAnswer> {
    if (!(OUTPUT_TYPES as readonly string[]).includes(request.output)) {
      throw new AppError("INVALID_INPUT", `output type must be one of ${OUTPUT_TYPES.join(", ")}`, { details: { field: "output_type" } });
    }
    const auto = request.limit === "auto";
    // the tool endpoint's rule, within GFQL_MAX_ROWS (an operator may set it below the rule's 50)
    const limit: number = request.limit === "auto" ? Math.min(AUTO_LIMITS.projected, deps.maxRows) : request.limit;
    if (!Number.isInteger(limit) || limit < 0 || limit > deps.maxRows) {
      throw new AppError("INVALID_INPUT", `limit must be between 0 and ${deps.maxRows}`, { details: { field: "limit" } });
    }
    const answer = await cached({
      ...jobBase(record),
      query: request.query,
      output: request.output as OutputType,
      limit,
      timeoutMs: request.timeoutMs,
      fileFormat: request.fileFormat,
      nodeColumns: request.nodeColumns,
      edgeColumns: request.edgeColumns,
      strictness: request.strictness,
    });
    if (!auto || answer.projected) return answer;
    return { ...answer, nodes: answer.nodes?.slice(0, AUTO_LIMITS.whole), edges: answer.edges?.slice(0, AUTO_LIMITS.whole) };
  }

  function jobBase(record: DatasetRecord) {
    const paths = deps.datasets.tablePaths(record);
    if (!paths.nodes) throw new AppError("INVALID_INPUT", "this dataset has no tables yet: upload its data first");
    const nodeBindings = record.nodeEncodings.bindings;
    const edgeBindings = record.edgeEncodings.bindings;
    return {
      nodesPath: paths.nodes,
      edgesPath: paths.edges,
      nodeId: nodeBindings.node ?? "node",
      source: edgeBindings.source ?? "source",
      destination: edgeBindings.destination ?? "destination",
      edgeWeight: edgeBindings.edge_weight,
    };
  }

  /**
   * Which rows of the dataset's node and edge tables a query matches (for collections). A collection has no answer
   * to carry a warning in, so a filter on an absent column is refused (strictness strict) rather than matching nothing.
   */
  function match(record: DatasetRecord, query: unknown, timeoutMs?: number): Promise<QueryAnswer> {
    return cached({ ...jobBase(record), query, output: "all", limit: 0, mode: "match", timeoutMs, strictness: "strict" });
  }

  return {
    match,
    onDataset: async (viewer: Viewer, datasetId: string, request: GfqlRequest) => run(await deps.datasets.get(viewer, datasetId), request),
    onSession: async (viewer: Viewer, sessionId: string, request: GfqlRequest) => {
      // The session comes with its dataset, already checked for the viewer.
      const session = await deps.sessions.get(viewer, sessionId);
      return run(toDatasetRecord(session.dataset), request);
    },
  };
}
