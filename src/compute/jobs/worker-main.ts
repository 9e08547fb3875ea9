// `npm run worker`: a compute worker process that takes jobs from the BullMQ queue on REDIS_URL and runs them on
// the shared database and DATA_DIR (the same .env and settings as the server); run as many as there are machines.
import path from "node:path";
import { type Config, loadConfig } from "../../config/config.ts";
import { createDatasetRows } from "../../datasets/dataset-rows.ts";
import { createDatasetService } from "../../datasets/datasets-service.ts";
import { createFileService } from "../../files/files-service.ts";
import { createLogger } from "../../server/logger.ts";
import { createBlobStore } from "../../store/blobs.ts";
import { migrate } from "../../store/migrate.ts";
import { createDb } from "../../store/prisma.ts";
import { createGatewayPubSub } from "../../store/pubsub.ts";
import { createRedisClients } from "../../store/redis.ts";
import { useComputeSettings } from "../compute-pool.ts";
import { createComputeJobs } from "./compute-jobs.ts";

export async function startComputeWorker(config: Config = loadConfig()) {
  const logger = createLogger(config.logLevel);
  if (!config.redisUrl)
    throw new Error("npm run worker takes jobs from the queue on Redis: set REDIS_URL (and the server's DATABASE_URL, DATA_DIR)");
  await migrate(config, logger);
  useComputeSettings(config);
  const db = await createDb(config);
  const redis = createRedisClients(config.redisUrl, logger);
  const pubsub = createGatewayPubSub(redis);
  const blobs = createBlobStore(path.join(config.dataDir, "blobs"));
  const decompress = { maxBytes: config.maxDecompressedBytes, maxRatio: config.maxCompressionRatio, floorBytes: 0 };
  const datasetRows = createDatasetRows(db);
  // Only `computeOn` is used here: the file service is there because the dataset service is built on it.
  const files = createFileService({ db, blobs, maxUploadBytes: config.maxUploadBytes, decompress, csvChunkBytes: config.csvChunkBytes });
  const datasets = createDatasetService({
    db,
    blobs,
    files,
    maxUploadBytes: config.maxUploadBytes,
    decompress,
    csvChunkBytes: config.csvChunkBytes,
    defaultSharingMode: config.defaultSharingMode,
    datasetRows,
  });
  const jobs = createComputeJobs({ config, db, redis, pubsub, logger, datasets, work: true });
  await jobs.queue.ready;
  logger.info("compute worker ready", {
    queue: config.computeQueueName,
    concurrency: config.computeJobConcurrency,
    worker: jobs.runner.workerId,
  });

  let stopping: Promise<void> | undefined;
  function stop(): Promise<void> {
    stopping ??= (async () => {
      await jobs.close();
      await Promise.allSettled([db.$disconnect(), redis.close()]);
      logger.info("compute worker stopped");
    })();
    return stopping;
  }
  return { jobs, stop };
}

if (import.meta.main) {
  const running = await startComputeWorker().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => {
      running.stop().then(
        () => process.exit(0),
        (error) => {
          console.error(error);
          process.exit(1);
        },
      );
    });
  }
}
