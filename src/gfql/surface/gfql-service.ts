// GFQL on a dataset or a live session: access checks here, the query itself in a worker with a time limit.
import type { Viewer } from "../../auth/viewer.ts";
import type { DatasetRecord } from "../../datasets/dataset-records.ts";
import type { DatasetService } from "../../datasets/datasets-service.ts";
import { AppError } from "../../errors/app-error.ts";
import type { VizSessionService } from "../../sessions/viz-sessions.ts";
import type { QueryPool } from "./query-pool.ts";
import { OUTPUT_TYPES, type OutputType, type QueryAnswer } from "./run-query.ts";

export type GfqlRequest = { query: unknown; output: string; limit: number };

export type GfqlService = ReturnType<typeof createGfqlService>;

export function createGfqlService(deps: { datasets: DatasetService; sessions: VizSessionService; pool: QueryPool; maxRows: number }) {
  async function run(record: DatasetRecord, request: GfqlRequest): Promise<QueryAnswer> {
    if (!(OUTPUT_TYPES as readonly string[]).includes(request.output)) {
      throw new AppError("INVALID_INPUT", `output type must be one of ${OUTPUT_TYPES.join(", ")}`, { details: { field: "output_type" } });
    }
    if (!Number.isInteger(request.limit) || request.limit < 0 || request.limit > deps.maxRows) {
      throw new AppError("INVALID_INPUT", `limit must be between 0 and ${deps.maxRows}`, { details: { field: "limit" } });
    }
    const paths = deps.datasets.tablePaths(record);
    if (!paths.nodes) throw new AppError("INVALID_INPUT", "this dataset has no tables yet: upload its data first");
    const nodeBindings = record.nodeEncodings.bindings;
    const edgeBindings = record.edgeEncodings.bindings;
    return deps.pool.run({
      nodesPath: paths.nodes,
      edgesPath: paths.edges,
      nodeId: nodeBindings.node ?? "node",
      source: edgeBindings.source ?? "source",
      destination: edgeBindings.destination ?? "destination",
      query: request.query,
      output: request.output as OutputType,
      limit: request.limit,
    });
  }

  return {
    onDataset: async (viewer: Viewer, datasetId: string, request: GfqlRequest) => run(await deps.datasets.get(viewer, datasetId), request),
    onSession: async (viewer: Viewer, sessionId: string, request: GfqlRequest) => {
      const session = await deps.sessions.get(viewer, sessionId);
      return run(await deps.datasets.getForSession(session.datasetId), request);
    },
  };
}
