// Wires the services once per process: database, pub/sub, auth, accounts, health.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createPersonalKeyService } from "../accounts/personal-keys.ts";
import { createUserService } from "../accounts/users.ts";
import { createAuthService } from "../auth/auth-service.ts";
import { createAuthenticator } from "../auth/authenticator.ts";
import { createBrowserSessions } from "../auth/browser-sessions.ts";
import { createForcedLogout } from "../auth/forced-logout.ts";
import { createJwtKeys } from "../auth/jwt-keys.ts";
import { loadJwtSecret } from "../auth/jwt-secret.ts";
import { createLoginThrottle } from "../auth/login-throttle.ts";
import { createRevocationMarks } from "../auth/revocation-marks.ts";
import { createSingleUseLinks } from "../auth/single-use/links.ts";
import { createSso } from "../auth/sso/create-sso.ts";
import { createTokenIssuer } from "../auth/tokens.ts";
import { useComputeSettings } from "../compute/compute-pool.ts";
import { createComputeJobs } from "../compute/jobs/compute-jobs.ts";
import { createComputeWorkers } from "../compute/workers.ts";
import type { Config } from "../config/config.ts";
import { createDatasetRows } from "../datasets/dataset-rows.ts";
import { createDatasetService } from "../datasets/datasets-service.ts";
import { createFileService } from "../files/files-service.ts";
import { createGfqlService } from "../gfql/surface/gfql-service.ts";
import { createQueryPool } from "../gfql/surface/query-pool.ts";
import { createHealthService } from "../health/health-service.ts";
import { createParseSandbox } from "../ingest/parse-sandbox.ts";
import { createCollectionService } from "../sessions/collections.ts";
import { createSessionLayouts } from "../sessions/layout-jobs.ts";
import { createSessionChanges } from "../sessions/session-changes.ts";
import { createSessionRows } from "../sessions/session-rows.ts";
import { createVizSessionService } from "../sessions/viz-sessions.ts";
import { sweepBlobs } from "../store/blob-sweep.ts";
import { createBlobStore } from "../store/blobs.ts";
import { createMcpSessionDirectory } from "../store/mcp-session-directory.ts";
import { migrate } from "../store/migrate.ts";
import { createDb } from "../store/prisma.ts";
import { createGatewayPubSub } from "../store/pubsub.ts";
import { createRedisClients } from "../store/redis.ts";
import type { Logger } from "./logger.ts";

export const WEB_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../web");

export type Services = Awaited<ReturnType<typeof createServices>>;

/** `parser: "lazy"` starts the parser process at the first upload (the command line parses none); the server starts it at once. */
/** Told of each finished upload: its kind and stage timings (`bytes`, `parseMs`...), for /metrics. */
export type UploadObserver = (kind: "file" | "dataset", timings: Record<string, number | string>) => void;

export async function createServices(
  config: Config,
  logger: Logger,
  options: { parser?: "eager" | "lazy"; onUpload?: UploadObserver } = {},
) {
  await migrate(config, logger);
  // before any thread starts: the GFQL and compute threads resolve the backend from their copy of the environment
  useComputeSettings(config);
  const db = await createDb(config);
  const redis = config.redisUrl ? createRedisClients(config.redisUrl, logger) : undefined;
  const pubsub = createGatewayPubSub(redis);
  const jwtSecret = await loadJwtSecret(config);
  const jwtKeys = createJwtKeys({ dataDir: config.dataDir, legacySecret: jwtSecret, graceSeconds: config.jwtKeyGraceSeconds });
  if (config.jwtKeyRotateDays > 0 && options.parser !== "lazy") {
    const kid = await jwtKeys.rotateIfOlderThan(config.jwtKeyRotateDays);
    if (kid !== undefined) logger.info("jwt signing key rotated", { kid });
  }
  const tokens = createTokenIssuer({
    keys: jwtKeys,
    ttlSeconds: config.tokenTtlSeconds,
    refreshWindowSeconds: config.refreshWindowSeconds,
  });
  const browserSessions = createBrowserSessions(db);
  const revocations = redis && createRevocationMarks(redis.publish, jwtSecret, config.tokenTtlSeconds);
  const authenticator = createAuthenticator({ db, tokens, cacheSeconds: config.authCacheSeconds, browserSessions, revocations });
  const keys = createPersonalKeyService({
    db,
    onChange: (event) => {
      authenticator.forget({ keyId: event.keyId });
      pubsub.publish("personalKeys:changed", event.userId, event);
    },
  });
  const users = createUserService({ db, onChange: (userId) => authenticator.forget({ userId }) });
  const sso = createSso({ db, jwtSecret, tokens, browserSessions, publicUrl: config.publicUrl });
  const auth = createAuthService({ db, tokens, authenticator, keys, browserSessions, throttle: createLoginThrottle(config.loginThrottle) });
  const singleUse = createSingleUseLinks({
    db,
    browserSessions,
    settings: { tokenName: config.sesameTokenName, maxAgeSeconds: config.sesameMaxAgeSeconds, oneTime: config.sesameOneTime },
  });
  const stopPurging = singleUse.startPurging((error) => logger.warn("single-use link purge failed", { error: String(error) }));
  const blobs = createBlobStore(path.join(config.dataDir, "blobs"));
  // Uploads are parsed in a process of their own: a hostile file that makes polars abort ends only that one.
  const parser = createParseSandbox({
    eager: options.parser !== "lazy",
    timeoutMs: config.parseTimeoutSeconds * 1000,
    size: config.parserProcesses,
    maxMemoryBytes: config.parserMaxMemoryMb * 1024 ** 2,
    tableLimits: {
      maxColumns: config.parseMaxColumns,
      maxColumnNameBytes: config.parseMaxColumnNameBytes,
      maxNestingDepth: config.parseMaxNestingDepth,
    },
    onStderr: (text) => logger.warn("parser", { stderr: text.trim().slice(0, 2000) }),
  });
  // Small inputs may always expand to 256 MiB (or the absolute limit, if lower) whatever their ratio.
  const decompress = {
    maxBytes: config.maxDecompressedBytes,
    maxRatio: config.maxCompressionRatio,
    floorBytes: Math.min(256 * 1024 ** 2, config.maxDecompressedBytes),
  };
  const files = createFileService({
    db,
    blobs,
    maxUploadBytes: config.maxUploadBytes,
    decompress,
    csvChunkBytes: config.csvChunkBytes,
    parseWhileReceiving: config.parseWhileReceiving,
    keepParquet: config.keepParquetUploads,
    parse: parser.parse,
    onTimings: (timings) => {
      logger.debug("upload", timings);
      options.onUpload?.("file", timings);
    },
  });
  const datasetRows = createDatasetRows(db);
  const sessionRows = createSessionRows(db);
  const sessions = createVizSessionService({ db, blobs, pubsub, datasetRows, sessionRows });
  const sessionChanges = createSessionChanges({ db, pubsub, redis, sessionRows });
  const forcedLogout = createForcedLogout({
    db,
    authenticator,
    browserSessions,
    links: singleUse,
    pubsub,
    revocations,
    endPresence: sessions.endPresence,
  });
  const stopLogoutListener = forcedLogout.listen();
  const datasets = createDatasetService({
    db,
    blobs,
    files,
    maxUploadBytes: config.maxUploadBytes,
    decompress,
    csvChunkBytes: config.csvChunkBytes,
    parse: parser.parse,
    onTimings: (timings) => {
      logger.debug("dataset upload", timings);
      options.onUpload?.("dataset", timings);
    },
    defaultSharingMode: config.defaultSharingMode,
    datasetRows,
  });
  // With REDIS_URL, jobs go through BullMQ and this gateway takes them too unless COMPUTE_GATEWAY_WORKER=false.
  const computeJobs = createComputeJobs({
    config,
    db,
    redis,
    pubsub,
    logger,
    datasets,
    datasetRows,
    sessionRows,
    work: !config.redisUrl || config.computeGatewayWorker,
  });
  const queryPool = createQueryPool({
    size: config.gfqlWorkers,
    timeoutMs: config.gfqlTimeoutMs,
    cacheBytes: config.gfqlTableCacheBytes,
    maxIntermediateRows: config.gfqlMaxIntermediateRows,
  });
  const gfql = createGfqlService({ datasets, sessions, pool: queryPool, maxRows: config.gfqlMaxRows });
  const collections = createCollectionService({ db, blobs, pubsub, sessions, gfql });
  const layouts = createSessionLayouts({
    db,
    sessions,
    datasets,
    redis,
    logger,
    frameMs: config.layoutFrameMs,
    parkMs: config.layoutParkMs,
  });
  const mcpSessions = createMcpSessionDirectory(redis, config.mcpIdleSeconds);
  const workers = createComputeWorkers({ setting: config.computeBackend });
  const health = createHealthService({ db, redis, workers, staticIndex: path.join(WEB_ROOT, "index.html") });

  if (config.adminUsername && config.adminPassword) {
    if (await users.ensureAdmin(config.adminUsername, config.adminPassword, config.adminEmail)) {
      logger.info("admin user created", { username: config.adminUsername });
    }
  }

  // What a killed upload or build left (versions no record references) goes, in the background; the server only
  // (a command line run is short and may run beside a server).
  const swept =
    options.parser === "lazy"
      ? undefined
      : sweepBlobs(db, blobs).then(
          (result) => logger.info("blob sweep", { removed: result.removed.length, bytes: result.bytes }),
          (error: unknown) => logger.warn("blob sweep failed", { error: String(error) }),
        );

  async function close(): Promise<void> {
    await swept;
    await stopPurging();
    stopLogoutListener();
    workers.close();
    await layouts.close();
    await computeJobs.close();
    await parser.close();
    await queryPool.close();
    await Promise.allSettled([db.$disconnect(), redis?.close()]);
  }

  return {
    config,
    logger,
    db,
    redis,
    pubsub,
    tokens,
    jwtKeys,
    authenticator,
    auth,
    users,
    keys,
    browserSessions,
    sso,
    singleUse,
    forcedLogout,
    blobs,
    files,
    datasets,
    sessions,
    sessionChanges,
    gfql,
    collections,
    layouts,
    computeJobs: computeJobs.service,
    mcpSessions,
    workers,
    health,
    /** Work waiting now (for /metrics): uploads waiting for a parser process, GFQL queries waiting or running. */
    queues: {
      parse: () => parser.waiting?.() ?? 0,
      gfql: () => queryPool.stats(),
      computeJobs: async () => {
        const [queued, running] = await Promise.all(["QUEUED", "RUNNING"].map((status) => db.computeJob.count({ where: { status } })));
        return { queued: queued ?? 0, running: running ?? 0 };
      },
    },
    close,
  };
}
