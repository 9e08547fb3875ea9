// Environment (over the `.env` file, see env-file.ts) parsed and validated once at start-up into a typed, frozen Config.
import path from "node:path";
import { ConfigError } from "./config-error.ts";
import { withEnvFile } from "./env-file.ts";

export { ConfigError };

export type Config = Readonly<{
  port: number;
  host: string;
  dataDir: string;
  /** `file:` SQLite URL (the default, under dataDir) or a `postgres://` URL. */
  databaseUrl: string;
  databaseProvider: "sqlite" | "postgres";
  /**
   * SQLITE_SYNCHRONOUS: when a SQLite commit waits for the disk. NORMAL (in WAL mode): at checkpoints only; an
   * application crash loses nothing, a power loss or an OS crash may lose the last commits, never the database. FULL:
   * every commit (about 0.3 ms of the main thread each here).
   */
  sqliteSynchronous: "normal" | "full" | "extra";
  redisUrl: string | undefined;
  jwtSecret: string | undefined;
  /** JWT_KEY_GRACE_SECONDS: a signing key replaced by a rotation still verifies this long. */
  jwtKeyGraceSeconds: number;
  /** JWT_KEY_ROTATE_DAYS: at start, rotate when the signing key is older than this (0: only `npm run cli -- jwt rotate`). */
  jwtKeyRotateDays: number;
  /** METRICS_TOKEN: the bearer token GET /metrics asks for; unset, /metrics is off. */
  metricsToken: string | undefined;
  tokenTtlSeconds: number;
  refreshWindowSeconds: number;
  /** How long an authenticated principal (user + key state) may be served from cache. */
  authCacheSeconds: number;
  maxJsonBodyBytes: number;
  /** Largest file upload accepted (413 beyond). */
  maxUploadBytes: number;
  /** Decompression-bomb limits: absolute size, and ratio to the compressed size above a floor. */
  maxDecompressedBytes: number;
  /** CSV read with default settings past twice this size is parsed a chunk at a time; 0: always whole. */
  csvChunkBytes: number;
  /** PARSE_WHILE_RECEIVING: such a CSV upload is parsed chunk by chunk as it arrives, not after the whole of it. */
  parseWhileReceiving: boolean;
  /** KEEP_PARQUET_UPLOADS: plain Parquet uploads to files are kept as their table instead of written as Arrow. */
  keepParquetUploads: boolean;
  /** An upload still parsing after this long stops its parser process and fails. */
  parseTimeoutSeconds: number;
  /** Parser processes (uploads parsed at once); one user holds at most all but one of them. */
  parserProcesses: number;
  /** Memory cap of each parser process, in MiB: past it the upload fails with 413. */
  parserMaxMemoryMb: number;
  /** Table shape limits of uploads: columns, column-name length in UTF-8 bytes, JSON nesting depth. */
  parseMaxColumns: number;
  parseMaxColumnNameBytes: number;
  parseMaxNestingDepth: number;
  maxCompressionRatio: number;
  publicUrl: string | undefined;
  /** CORS_ORIGINS: other origins whose pages may call the API with credentials; the service's own always may. */
  corsOrigins: readonly string[];
  /** FRAME_ANCESTORS: the CSP frame-ancestors sources of the HTML pages (who may embed graph.html). */
  frameAncestors: string;
  trustProxy: boolean;
  logLevel: LogLevel;
  adminUsername: string | undefined;
  adminPassword: string | undefined;
  adminEmail: string;
  loginThrottle: Readonly<{ freeAttempts: number; windowSeconds: number; maxDelayMs: number; blockAfter: number }>;
  /** GraphQL document limits (GRAPHQL_MAX_*): selection depth, aliases, tokens, directives, cost; nesting of variable values. */
  graphqlLimits: Readonly<{ depth: number; aliases: number; tokens: number; directives: number; cost: number; variableDepth: number }>;
  /** Operations per RATE_LIMIT_WINDOW_SECONDS, per address and per account, of each class (0: no limit); shared through Redis when set. */
  rateLimits: Readonly<{ windowSeconds: number } & Record<"login" | "upload" | "query", { perAddress: number; perAccount: number }>>;
  shutdownGraceMs: number;
  /** Browser session cookies only over HTTPS (spec 5.6 COOKIE_SECURE). */
  cookieSecure: boolean;
  /** GFQL: time limit per query, worker threads, most rows returned per table. */
  gfqlTimeoutMs: number;
  gfqlWorkers: number;
  gfqlMaxRows: number;
  /** Bytes of stored tables each GFQL worker keeps in memory between queries. */
  gfqlTableCacheBytes: number;
  /** Most rows a GFQL query may build in one intermediate frame. */
  gfqlMaxIntermediateRows: number;
  /** The /mcp tool endpoint: idle time before a transport session expires, time limit per tool call, most open sessions. */
  mcpIdleSeconds: number;
  mcpToolTimeoutMs: number;
  mcpMaxSessions: number;
  /** Sharing mode of new datasets: private, organization or public. */
  defaultSharingMode: "private" | "organization" | "public";
  /** Compute jobs: how many one process runs at once; the BullMQ queue's name; whether the gateway takes jobs too. */
  computeJobConcurrency: number;
  computeQueueName: string;
  computeGatewayWorker: boolean;
  /** COMPUTE_BACKEND: auto (OpenCL when a context works, else CPU), opencl (falls back to CPU, saying why), cpu. */
  computeBackend: "auto" | "opencl" | "cpu";
  /** COMPUTE_WORKERS: compute worker threads (0: the cores, at most 4); COMPUTE_THREADS: threads one CPU kernel may split over (0: the cores, at most 8). */
  computeWorkers: number;
  computeThreads: number;
  /** LAYOUT_FRAME_MS: live session layouts send a session's pages at most one position frame per this many ms. */
  layoutFrameMs: number;
  /** LAYOUT_PARK_SECONDS: a live layout paused this long lets its thread go (positions stored; RESUME starts it again). */
  layoutParkMs: number;
  /** Single-use login links (spec 5.6): the query parameter carrying the token, its lifetime, whether it works once only. */
  sesameTokenName: string;
  sesameMaxAgeSeconds: number;
  sesameOneTime: boolean;
}>;

export type LogLevel = "debug" | "info" | "warn" | "error" | "silent";
const LOG_LEVELS: readonly LogLevel[] = ["debug", "info", "warn", "error", "silent"];

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) {
    throw new ConfigError(`${name} must be an integer >= ${min}, got "${raw}"`);
  }
  return value;
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.toLowerCase();
  if (raw === undefined || raw === "") return fallback;
  if (["1", "true", "yes", "on"].includes(raw)) return true;
  if (["0", "false", "no", "off"].includes(raw)) return false;
  throw new ConfigError(`${name} must be a boolean (true/false), got "${env[name]}"`);
}

function oneOf<T extends string>(env: Env, name: string, values: readonly T[], fallback: T): T {
  const raw = env[name]?.toLowerCase();
  if (raw === undefined || raw === "") return fallback;
  if ((values as readonly string[]).includes(raw)) return raw as T;
  throw new ConfigError(`${name} must be one of ${values.join(", ")}, got "${env[name]}"`);
}

function nonEmpty(env: Env, name: string): string | undefined {
  const raw = env[name];
  return raw === undefined || raw === "" ? undefined : raw;
}

function databaseFrom(env: Env, dataDir: string): Pick<Config, "databaseUrl" | "databaseProvider"> {
  const url = nonEmpty(env, "DATABASE_URL");
  if (url === undefined) {
    return { databaseUrl: `file:${path.join(dataDir, "gateway.db")}`, databaseProvider: "sqlite" };
  }
  if (/^postgres(ql)?:\/\//.test(url)) return { databaseUrl: url, databaseProvider: "postgres" };
  if (url.startsWith("file:")) return { databaseUrl: url, databaseProvider: "sqlite" };
  throw new ConfigError("DATABASE_URL must be a postgres:// URL or a file: SQLite URL");
}

function sharingMode(raw: string | undefined): "private" | "organization" | "public" {
  const value = (raw ?? "private").toLowerCase();
  if (value === "private" || value === "organization" || value === "public") return value;
  throw new ConfigError("DEFAULT_SHARING_MODE must be private, organization or public");
}

/** SESAME_TOKEN_NAME: a query parameter name (letters, digits, _ and -). */
function sesameTokenName(env: Env): string {
  const value = nonEmpty(env, "SESAME_TOKEN_NAME") ?? "sst";
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(value)) throw new ConfigError("SESAME_TOKEN_NAME must be letters, digits, _ or - (at most 64)");
  return value;
}

/** CORS_ORIGINS: a comma list of origins (`https://host[:port]`), each as a browser sends it in `Origin`. */
function corsOrigins(env: Env): readonly string[] {
  const listed = (env.CORS_ORIGINS ?? "")
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);
  return Object.freeze(
    listed.map((item) => {
      let url: URL;
      try {
        url = new URL(item);
      } catch {
        throw new ConfigError(`CORS_ORIGINS: "${item}" is not an origin such as https://app.example.com`);
      }
      if (!/^https?:$/.test(url.protocol) || url.origin !== item.replace(/\/+$/, "")) {
        throw new ConfigError(`CORS_ORIGINS: "${item}" is not an origin such as https://app.example.com (no path)`);
      }
      return url.origin;
    }),
  );
}

/** METRICS_TOKEN: at least 16 characters (a scraper's bearer token). */
function metricsToken(env: Env): string | undefined {
  const value = nonEmpty(env, "METRICS_TOKEN");
  if (value !== undefined && value.length < 16) throw new ConfigError("METRICS_TOKEN must be at least 16 characters");
  return value;
}

/** FRAME_ANCESTORS: CSP sources (`'self'`, `'none'`, origins) separated by spaces; `'self'` by default. */
function frameAncestors(env: Env): string {
  const value = (env.FRAME_ANCESTORS ?? "'self'").trim() || "'self'";
  if (/[;,\r\n]/.test(value))
    throw new ConfigError("FRAME_ANCESTORS: space-separated CSP sources, such as 'self' https://wiki.example.com");
  return value;
}

/**
 * Reads the process environment over the `.env` file (or a given map, for tests, which reads no file) into a
 * Config. The server and the CLI both start from this default, so they agree on the database and the rest.
 */
export function loadConfig(env: Env = withEnvFile(process.env)): Config {
  const dataDir = path.resolve(env.DATA_DIR ?? "./data");
  const logLevel = (env.LOG_LEVEL ?? "info").toLowerCase() as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}`);
  }
  const publicUrl = nonEmpty(env, "PUBLIC_URL")?.replace(/\/+$/, "");
  if (publicUrl !== undefined && !/^https?:\/\//.test(publicUrl)) {
    throw new ConfigError("PUBLIC_URL must start with http:// or https://");
  }
  return Object.freeze({
    port: int(env, "PORT", 8000),
    host: env.HOST ?? "0.0.0.0",
    dataDir,
    ...databaseFrom(env, dataDir),
    sqliteSynchronous: oneOf(env, "SQLITE_SYNCHRONOUS", ["normal", "full", "extra"] as const, "normal"),
    redisUrl: nonEmpty(env, "REDIS_URL"),
    jwtSecret: nonEmpty(env, "JWT_SECRET"),
    jwtKeyGraceSeconds: int(env, "JWT_KEY_GRACE_SECONDS", 86_400),
    jwtKeyRotateDays: int(env, "JWT_KEY_ROTATE_DAYS", 0),
    metricsToken: metricsToken(env),
    tokenTtlSeconds: int(env, "TOKEN_TTL_SECONDS", 3600, 1),
    refreshWindowSeconds: int(env, "TOKEN_REFRESH_WINDOW_SECONDS", 86_400, 1),
    authCacheSeconds: int(env, "AUTH_CACHE_SECONDS", 1),
    maxJsonBodyBytes: int(env, "MAX_JSON_BODY_BYTES", 1_048_576, 1),
    maxUploadBytes: int(env, "MAX_UPLOAD_BYTES", 10 * 1024 ** 3, 1),
    maxDecompressedBytes: int(env, "MAX_DECOMPRESSED_BYTES", 32 * 1024 ** 3, 1),
    maxCompressionRatio: int(env, "MAX_COMPRESSION_RATIO", 100, 1),
    csvChunkBytes: int(env, "CSV_CHUNK_BYTES", 16 * 1024 ** 2, 0),
    parseWhileReceiving: bool(env, "PARSE_WHILE_RECEIVING", true),
    parseTimeoutSeconds: int(env, "PARSE_TIMEOUT_SECONDS", 1800, 1),
    keepParquetUploads: bool(env, "KEEP_PARQUET_UPLOADS", false),
    parserProcesses: int(env, "PARSER_PROCESSES", 2, 1),
    parserMaxMemoryMb: int(env, "PARSER_MAX_MEMORY_MB", 4096, 256),
    parseMaxColumns: int(env, "PARSE_MAX_COLUMNS", 4096, 1),
    parseMaxColumnNameBytes: int(env, "PARSE_MAX_COLUMN_NAME_BYTES", 1024, 1),
    parseMaxNestingDepth: int(env, "PARSE_MAX_NESTING_DEPTH", 1024, 1),
    publicUrl,
    corsOrigins: corsOrigins(env),
    frameAncestors: frameAncestors(env),
    trustProxy: bool(env, "TRUST_PROXY", false),
    logLevel,
    adminUsername: nonEmpty(env, "ADMIN_USERNAME"),
    adminPassword: nonEmpty(env, "ADMIN_PASSWORD"),
    adminEmail: env.ADMIN_EMAIL ?? "",
    loginThrottle: Object.freeze({
      freeAttempts: int(env, "LOGIN_FREE_ATTEMPTS", 5),
      windowSeconds: int(env, "LOGIN_THROTTLE_WINDOW_SECONDS", 900, 1),
      maxDelayMs: int(env, "LOGIN_MAX_DELAY_MS", 4000),
      blockAfter: int(env, "LOGIN_BLOCK_AFTER", 30, 1),
    }),
    graphqlLimits: Object.freeze({
      depth: int(env, "GRAPHQL_MAX_DEPTH", 15, 1),
      aliases: int(env, "GRAPHQL_MAX_ALIASES", 30, 0),
      tokens: int(env, "GRAPHQL_MAX_TOKENS", 3000, 1),
      directives: int(env, "GRAPHQL_MAX_DIRECTIVES", 50, 0),
      cost: int(env, "GRAPHQL_MAX_COST", 5000, 1),
      variableDepth: int(env, "GRAPHQL_MAX_VARIABLE_DEPTH", 64, 1),
    }),
    rateLimits: Object.freeze({
      windowSeconds: int(env, "RATE_LIMIT_WINDOW_SECONDS", 60, 1),
      login: { perAddress: int(env, "RATE_LIMIT_LOGIN_PER_ADDRESS", 600), perAccount: int(env, "RATE_LIMIT_LOGIN_PER_ACCOUNT", 120) },
      upload: { perAddress: int(env, "RATE_LIMIT_UPLOAD_PER_ADDRESS", 1200), perAccount: int(env, "RATE_LIMIT_UPLOAD_PER_ACCOUNT", 600) },
      query: { perAddress: int(env, "RATE_LIMIT_QUERY_PER_ADDRESS", 60_000), perAccount: int(env, "RATE_LIMIT_QUERY_PER_ACCOUNT", 30_000) },
    }),
    shutdownGraceMs: int(env, "SHUTDOWN_GRACE_MS", 10_000),
    cookieSecure: bool(env, "COOKIE_SECURE", true),
    gfqlTimeoutMs: int(env, "GFQL_TIMEOUT_MS", 60_000, 1),
    gfqlWorkers: int(env, "GFQL_WORKERS", 1, 1),
    gfqlMaxRows: int(env, "GFQL_MAX_ROWS", 10_000, 1),
    gfqlTableCacheBytes: int(env, "GFQL_TABLE_CACHE_MB", 1024, 0) * 1024 ** 2,
    gfqlMaxIntermediateRows: int(env, "GFQL_MAX_INTERMEDIATE_ROWS", 50_000_000, 1),
    mcpIdleSeconds: int(env, "MCP_IDLE_SECONDS", 300, 1),
    mcpToolTimeoutMs: int(env, "MCP_TOOL_TIMEOUT_MS", 60_000, 1),
    mcpMaxSessions: int(env, "MCP_MAX_SESSIONS", 10_000, 1),
    defaultSharingMode: sharingMode(env.DEFAULT_SHARING_MODE),
    computeJobConcurrency: int(env, "COMPUTE_JOB_CONCURRENCY", 1, 1),
    computeQueueName: nonEmpty(env, "COMPUTE_QUEUE") ?? "compute-jobs",
    computeGatewayWorker: bool(env, "COMPUTE_GATEWAY_WORKER", true),
    computeBackend: oneOf(env, "COMPUTE_BACKEND", ["auto", "opencl", "cpu"] as const, "auto"),
    computeWorkers: int(env, "COMPUTE_WORKERS", 0),
    computeThreads: int(env, "COMPUTE_THREADS", 0),
    layoutFrameMs: int(env, "LAYOUT_FRAME_MS", 50, 1),
    layoutParkMs: int(env, "LAYOUT_PARK_SECONDS", 300, 1) * 1000,
    sesameTokenName: sesameTokenName(env),
    sesameMaxAgeSeconds: int(env, "SESAME_MAX_AGE", 3600, 1),
    sesameOneTime: bool(env, "SESAME_ONE_TIME", true),
  });
}
