// Runs compute entries on an existing dataset and stores the result as its new version: the call the job queue wraps.

import type { Viewer } from "../auth/viewer.ts";
import type { DatasetRecord } from "../datasets/dataset-records.ts";
import type { DatasetService } from "../datasets/datasets-service.ts";
import type { ComputeProgress } from "./compute-pool.ts";

export type { ComputeProgress } from "./compute-pool.ts";

export type RunOnDatasetOptions = {
  /** Told of each entry's start and its algorithm's progress (at most every 100 ms). */
  onProgress?: ((progress: ComputeProgress) => void) | undefined;
  /** Aborting cancels: the run rejects with ComputeCancelled (src/compute/types.ts) and no version is written. */
  signal?: AbortSignal | undefined;
  /** When given, the dataset must be visible to this viewer (404 otherwise); a job worker that checked access omits it. */
  viewer?: Viewer | undefined;
};

/**
 * Runs `compute` (spec 2.9 entries by output label: `{label: {libraries: [lib], alg, params, directed}}`) on the
 * dataset's current tables in a compute worker thread, and makes the tables with the new columns (or the graph an
 * algorithm answered) the dataset's new version; live sessions pick it up. Resolves to the updated record.
 * Rejects with AppError INVALID_INPUT (400, `details.field` naming the entry field, e.g.
 * `compute.pr.params.damping`) for a request the registry or the tables refuse, ComputeCancelled when cancelled.
 */
export function runComputeOnDataset(
  datasets: DatasetService,
  datasetId: string,
  compute: unknown,
  options: RunOnDatasetOptions = {},
): Promise<DatasetRecord> {
  return datasets.computeOn(datasetId, compute, options);
}
