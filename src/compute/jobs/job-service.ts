// Compute jobs as the API offers them: run an algorithm on a dataset (checked, stored, queued), read, list and
// cancel jobs, and follow one's progress. Viewers who may see the dataset may read its jobs; those who may change it
// (owner, its organization's members, admins) may also run and cancel them.
import { randomUUID } from "node:crypto";
import { Repeater } from "graphql-yoga";
import type { Viewer } from "../../auth/viewer.ts";
import { AppError } from "../../errors/app-error.ts";
import { canChangeDataset, canViewDataset } from "../../sessions/dataset-access.ts";
import type { Db } from "../../store/prisma.ts";
import { lookupAlgorithm } from "../algorithm-lookup.ts";
import { parseEntry } from "../params.ts";
import type { JobEvent, JobEvents } from "./job-events.ts";
import type { JobQueue } from "./job-queue.ts";
import { eventOf, isFinished, type JobRow } from "./job-records.ts";

export type RunJobInput = {
  datasetId: string;
  /** The output label (default: the algorithm's name). */
  label?: string | null | undefined;
  library: string;
  alg: string;
  params?: unknown;
  directed?: boolean | null | undefined;
};

export type ComputeJobService = ReturnType<typeof createComputeJobService>;

/** The API's field names for what parseEntry calls the entry's parts. */
function asInputError(error: unknown): unknown {
  if (!(error instanceof AppError) || error.code !== "INVALID_INPUT") return error;
  const field = typeof error.details?.field === "string" ? error.details.field.replace(/^input\.libraries/, "input.library") : undefined;
  const message = error.message.replace(/^input\.libraries/, "input.library");
  return new AppError("INVALID_INPUT", message, field ? { details: { ...error.details, field } } : {});
}

export function createComputeJobService(deps: {
  db: Db;
  events: JobEvents;
  queue: JobQueue;
  /**
   * With Redis: calls the listener each time Redis is back after an outage (events published meanwhile were lost),
   * so that progress subscribers read the job again. Answers how to stop listening.
   */
  onRecovered?: ((listener: () => void) => () => void) | undefined;
  /** Aborts a job this process runs, at once. */
  abortLocal?: (jobId: string) => void;
}) {
  const { db, events, queue } = deps;

  async function visibleDataset(viewer: Viewer, datasetId: string) {
    const dataset = await db.dataset.findUnique({ where: { id: datasetId } });
    // A dataset the caller may not see reads exactly like a missing one.
    if (!dataset || !(await canViewDataset(db, viewer, dataset))) throw new AppError("NOT_FOUND", `no dataset with id ${datasetId}`);
    return dataset;
  }

  /** Jobs write the dataset's tables: those it is only shared with may look, not run or cancel. */
  async function mayChange(viewer: Viewer, dataset: Parameters<typeof canChangeDataset>[2]) {
    if (!(await canChangeDataset(db, viewer, dataset)))
      throw new AppError("FORBIDDEN", "only the dataset's owner, its organization's members and admins may run or cancel its compute jobs");
  }

  async function find(viewer: Viewer, id: string) {
    const job = await db.computeJob.findUnique({ where: { id } });
    const dataset = job && (await db.dataset.findUnique({ where: { id: job.datasetId } }));
    if (!job || !dataset || !(await canViewDataset(db, viewer, dataset))) throw new AppError("NOT_FOUND", `no compute job with id ${id}`);
    return { job, dataset };
  }

  const get = async (viewer: Viewer, id: string): Promise<JobRow> => (await find(viewer, id)).job;

  async function run(viewer: Viewer, input: RunJobInput): Promise<JobRow> {
    const dataset = await visibleDataset(viewer, input.datasetId);
    await mayChange(viewer, dataset);
    if (!dataset.dataVersion)
      throw new AppError("INVALID_INPUT", "the dataset has no tables yet", { details: { field: "input.datasetId" } });
    const label = input.label ?? input.alg;
    if (label.trim() === "") throw new AppError("INVALID_INPUT", "input.label must not be empty", { details: { field: "input.label" } });
    const raw = { libraries: [input.library], alg: input.alg, params: input.params ?? {}, directed: input.directed ?? true };
    let parsed: ReturnType<typeof parseEntry>;
    try {
      // a layout's library and name run that layout (its x, y, z node columns), as dataset creation's `layout`
      const { findLayout } = await import("../../layout/registry.ts");
      parsed = parseEntry(label, raw, "input", (library, name) => lookupAlgorithm(library, name) ?? findLayout(library, name));
    } catch (error) {
      throw asInputError(error);
    }
    const job = await db.computeJob.create({
      data: {
        id: randomUUID().replaceAll("-", ""),
        datasetId: dataset.id,
        ownerId: viewer.userId,
        label,
        library: parsed.entry.library,
        alg: parsed.entry.name,
        // As given: the worker checks them again against the tables it runs on.
        params: JSON.stringify(input.params ?? {}),
        directed: parsed.directed,
      },
    });
    try {
      await queue.enqueue(job.id);
    } catch (error) {
      const failed = await db.computeJob.update({
        where: { id: job.id },
        data: { status: "FAILED", errorCode: "UNAVAILABLE", error: "the job queue is unavailable", finishedAt: new Date() },
      });
      events.publish("computeJob:changed", failed.id, eventOf(failed));
      throw new AppError("UNAVAILABLE", "the compute job queue is unavailable", { cause: error });
    }
    return job;
  }

  async function list(viewer: Viewer, datasetId: string): Promise<JobRow[]> {
    await visibleDataset(viewer, datasetId);
    return db.computeJob.findMany({ where: { datasetId }, orderBy: { createdAt: "desc" }, take: 100 });
  }

  /**
   * A queued job is cancelled at once and never runs; a running one is asked to stop (its worker ends it between
   * iterations, as CANCELLED, and the dataset keeps its tables); a finished one is answered as it is.
   */
  async function cancel(viewer: Viewer, id: string): Promise<JobRow> {
    await mayChange(viewer, (await find(viewer, id)).dataset);
    const now = new Date();
    const queued = await db.computeJob.updateMany({
      where: { id, status: "QUEUED" },
      data: { status: "CANCELLED", cancelRequested: true, phase: "cancelled", finishedAt: now },
    });
    if (queued.count === 0) await db.computeJob.updateMany({ where: { id, status: "RUNNING" }, data: { cancelRequested: true } });
    const row = await db.computeJob.findUniqueOrThrow({ where: { id } });
    if (queued.count > 0) await queue.remove(id);
    else if (row.status === "RUNNING") deps.abortLocal?.(id);
    if (!isFinished(row.status) || queued.count > 0) events.publish("computeJob:changed", id, eventOf(row));
    return row;
  }

  /**
   * The job's state now, then each change until it is finished (the last event is the finished state). The
   * subscription stands before the state is read, so no change falls between the two. Changes published while Redis
   * was away never come: once it is back the job is read again, and its state sent when it moved on meanwhile.
   */
  async function progress(viewer: Viewer, id: string): Promise<AsyncIterableIterator<JobEvent>> {
    await get(viewer, id);
    const changes = events.subscribe("computeJob:changed", id)[Symbol.asyncIterator]();
    // Its first read starts the subscription.
    const firstChange = changes.next();
    let now: JobRow;
    try {
      now = await db.computeJob.findUniqueOrThrow({ where: { id } });
    } catch (error) {
      await changes.return?.();
      throw error;
    }
    // A Repeater, not a generator, so that a client leaving ends the Redis subscription at once.
    return new Repeater<JobEvent>(async (push, stop) => {
      let last = "";
      let done = false;
      const deliver = async (event: JobEvent) => {
        const key = JSON.stringify(event);
        if (done || key === last) return;
        last = key;
        if (isFinished(event.status)) done = true;
        await push(event);
        if (done) stop();
      };
      const stopListening = deps.onRecovered?.(() => {
        void db.computeJob
          .findUnique({ where: { id } })
          .then((row) => (row ? deliver(eventOf(row)) : undefined))
          .catch(() => {});
      });
      const stopped = stop.then(() => undefined);
      try {
        await deliver(eventOf(now));
        for (let next = firstChange; !done; next = changes.next()) {
          const result = await Promise.race([next, stopped]);
          if (!result || result.done) break;
          await deliver(result.value);
        }
      } finally {
        stopListening?.();
        await changes.return?.();
      }
    });
  }

  return { run, get, list, cancel, progress };
}
