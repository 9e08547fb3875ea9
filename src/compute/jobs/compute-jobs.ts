// Compute jobs wired for one process: the job events, the runner, the queue (BullMQ with REDIS_URL, else in
// process) and the API service; the gateway and `npm run worker` both start from here.
import type { Config } from "../../config/config.ts";
import type { DatasetRows } from "../../datasets/dataset-rows.ts";
import type { DatasetService } from "../../datasets/datasets-service.ts";
import type { Logger } from "../../server/logger.ts";
import { announceDatasetVersion } from "../../sessions/dataset-versions.ts";
import type { SessionRows } from "../../sessions/session-rows.ts";
import type { Db } from "../../store/prisma.ts";
import type { PubSub } from "../../store/pubsub.ts";
import type { RedisClients } from "../../store/redis.ts";
import { runComputeOnDataset } from "../run-on-dataset.ts";
import { createBullQueue } from "./bullmq-queue.ts";
import { createJobEvents } from "./job-events.ts";
import { createInProcessQueue, type JobQueue } from "./job-queue.ts";
import { createJobRunner, type RunOnDataset } from "./job-runner.ts";
import { createComputeJobService } from "./job-service.ts";
import { enqueueWaitingJobs, requeueLeftJobs } from "./recover.ts";

export type ComputeJobsDeps = {
  config: Config;
  db: Db;
  redis: RedisClients | undefined;
  pubsub: PubSub;
  logger: Logger;
  datasets: DatasetService;
  /** This process's cached dataset rows, forgotten when a job (here or on any worker) changes a dataset. */
  datasetRows?: DatasetRows;
  /** This process's cached session rows, whose revisions move with their dataset's version. */
  sessionRows?: SessionRows;
  /** Whether this process takes jobs; with REDIS_URL the gateway does unless COMPUTE_GATEWAY_WORKER=false. */
  work: boolean;
};

export type ComputeJobs = ReturnType<typeof createComputeJobs>;

export function createComputeJobs(deps: ComputeJobsDeps) {
  const { config, db, redis, pubsub, logger, datasets, datasetRows, sessionRows } = deps;
  const events = createJobEvents(redis);

  const runOnDataset: RunOnDataset = async (request) => {
    const record = await runComputeOnDataset(
      datasets,
      request.datasetId,
      { [request.label]: request.entry },
      { onProgress: request.onProgress, signal: request.signal },
    );
    return { dataVersion: record.dataVersion ?? "" };
  };

  const runner = createJobRunner({
    db,
    events,
    logger,
    runOnDataset,
    async onDatasetChanged(datasetId) {
      // Every gateway forgets its cached row before the sessions' REVISION events reach the pages (one connection
      // publishes both, so they arrive in this order).
      events.publish("computeJob:datasetChanged", { datasetId });
      datasetRows?.forget(datasetId);
      await announceDatasetVersion(db, pubsub, datasetId);
      sessionRows?.forgetDataset(datasetId);
    },
  });

  const queue: JobQueue = config.redisUrl
    ? createBullQueue({
        redisUrl: config.redisUrl,
        name: config.computeQueueName,
        work: deps.work,
        concurrency: config.computeJobConcurrency,
        run: runner.run,
        logger,
      })
    : // A job stopped by shutdown, like those still waiting, stays QUEUED: the next start runs it (recover.ts).
      createInProcessQueue((id) => runner.run(id, { requeueOnShutdown: true }), config.computeJobConcurrency);
  if (queue.kind === "in-process" && deps.work) {
    void requeueLeftJobs(db, queue).catch((error: unknown) => logger.warn("compute jobs not queued again", { error: String(error) }));
  }
  // Redis back after an outage: it may have restarted without its data, and the queue with it.
  const stopRequeueing =
    queue.kind === "bullmq"
      ? redis?.onRecovered(() => {
          void enqueueWaitingJobs(db, queue).catch((error: unknown) =>
            logger.warn("compute jobs not queued again", { error: String(error) }),
          );
        })
      : undefined;

  const forgetting = datasetRows || sessionRows ? events.subscribe("computeJob:datasetChanged") : undefined;
  if (forgetting) {
    void (async () => {
      for await (const { datasetId } of forgetting) {
        datasetRows?.forget(datasetId);
        sessionRows?.forgetDataset(datasetId);
      }
    })().catch(() => {});
  }

  const service = createComputeJobService({ db, events, queue, abortLocal: runner.abort, onRecovered: redis?.onRecovered });

  return {
    service,
    runner,
    queue,
    events,
    /** Running jobs stop and go back to QUEUED, for another worker (BullMQ) or this server's next start (in process). */
    async close() {
      stopRequeueing?.();
      runner.stopAll();
      await queue.close();
      await forgetting?.return?.();
    },
  };
}
